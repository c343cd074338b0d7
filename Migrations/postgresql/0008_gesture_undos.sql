-- Undo of pen gestures: what a scratch-out or strike-through deleted, kept for a while so that
-- the writer can take it back, after a restart too. One row per sticker (its last gesture); a
-- board keeps at most a bounded number (the application deletes its oldest beyond that), and rows
-- leave by expiry (purge), with their board (cascade), or when they are undone.
CREATE TABLE gesture_undos (
    id         TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    board_id   TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    -- No foreign key: the gesture may have deleted the sticker, which the undo brings back.
    sticker_id TEXT NOT NULL CHECK (length(sticker_id) BETWEEN 1 AND 64),
    -- 'words': the sticker lost words and stays; 'sticker': the whole sticker was deleted.
    kind       TEXT NOT NULL CHECK (kind IN ('words', 'sticker')),
    -- The sticker's version after the gesture ('words': the undo applies only at it) or when it
    -- was deleted ('sticker').
    version    BIGINT NOT NULL CHECK (version >= 1),
    -- The sticker as it was before the gesture and, for 'sticker', its writings: JSON written
    -- and read by the Store (UndoRecord), never by SQL.
    snapshot   TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL CHECK (expires_at >= created_at),
    UNIQUE (board_id, sticker_id)
);

CREATE INDEX gesture_undos_board ON gesture_undos (board_id, created_at);
CREATE INDEX gesture_undos_expiry ON gesture_undos (expires_at);
