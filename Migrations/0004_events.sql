-- Events: the append-only history of a board's stickers, for change feeds.
-- Rows outlive the sticker they describe (no foreign key to stickers) but go with their board.
CREATE TABLE events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    board_id   TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    -- NULL exactly for 'cleared' (every sticker of the board removed at once).
    sticker_id TEXT,
    type       TEXT NOT NULL CHECK (type IN ('created', 'updated', 'committed', 'deleted', 'cleared')),
    -- The sticker's version after the change; NULL exactly when sticker_id is NULL.
    version    INTEGER,
    -- The application's JSON of the sticker (or of the clear operation).
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    CHECK ((type = 'cleared') = (sticker_id IS NULL)),
    CHECK ((sticker_id IS NULL) = (version IS NULL))
) STRICT;

CREATE INDEX events_board_id ON events (board_id, id);

-- History is never rewritten.
CREATE TRIGGER events_no_update
BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events_append_only: events cannot be changed');
END;

-- Events are only removed by their board's deletion: the ON DELETE CASCADE runs after the
-- board row is gone, so the board no longer exists when this trigger checks.
CREATE TRIGGER events_no_delete
BEFORE DELETE ON events
FOR EACH ROW WHEN EXISTS (SELECT 1 FROM boards WHERE id = OLD.board_id)
BEGIN
    SELECT RAISE(ABORT, 'events_append_only: events of an existing board cannot be deleted');
END;
