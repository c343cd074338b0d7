-- Stickers: recognized writing placed on a board, first an editable field, then a final label.
CREATE TABLE stickers (
    -- Creation sequence: the rowid, AUTOINCREMENT so a value is never reused after a delete.
    -- Gives a stable creation order and cursors for listing.
    seq             INTEGER PRIMARY KEY AUTOINCREMENT,
    id              TEXT NOT NULL UNIQUE CHECK (length(id) BETWEEN 1 AND 64),
    board_id        TEXT NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
    state           TEXT NOT NULL CHECK (state IN ('field', 'label')),
    text            TEXT NOT NULL,
    recognized_text TEXT NOT NULL,
    confidence      REAL NOT NULL,
    -- Recognition alternatives as JSON produced by the application.
    candidates      TEXT NOT NULL,
    anchor_x        REAL NOT NULL,
    anchor_y        REAL NOT NULL,
    center_x        REAL NOT NULL,
    center_y        REAL NOT NULL,
    frame_x         REAL NOT NULL,
    frame_y         REAL NOT NULL,
    frame_width     REAL NOT NULL CHECK (frame_width >= 0),
    frame_height    REAL NOT NULL CHECK (frame_height >= 0),
    font_family     TEXT NOT NULL,
    font_size       REAL NOT NULL CHECK (font_size > 0),
    stroke_width    REAL NOT NULL CHECK (stroke_width >= 0),
    stroke_color    TEXT NOT NULL,
    fill_color      TEXT,
    kerning         REAL NOT NULL,
    line_height     REAL NOT NULL CHECK (line_height > 0),
    alignment       TEXT NOT NULL CHECK (alignment IN ('left', 'center', 'right')),
    line_limit      INTEGER CHECK (line_limit IS NULL OR line_limit >= 1),
    max_length      INTEGER CHECK (max_length IS NULL OR max_length >= 1),
    charset         TEXT,
    ink_x           REAL NOT NULL,
    ink_y           REAL NOT NULL,
    ink_width       REAL NOT NULL CHECK (ink_width >= 0),
    ink_height      REAL NOT NULL CHECK (ink_height >= 0),
    version         INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    committed_at    INTEGER,
    -- A label always records when it was committed; a field never has.
    CHECK ((state = 'label') = (committed_at IS NOT NULL)),
    -- Lets inks reference (sticker, board) so an ink can never point at another board's sticker.
    UNIQUE (id, board_id)
) STRICT;

-- Listing a board in creation order, with or without a cursor.
CREATE INDEX stickers_board_seq ON stickers (board_id, seq);
-- The fields of a board: "the field under the pen" and end-of-editing sweeps.
CREATE INDEX stickers_board_fields ON stickers (board_id, seq) WHERE state = 'field';

-- The only state transition is field -> label: a label never becomes a field again.
CREATE TRIGGER stickers_label_is_final
BEFORE UPDATE OF state ON stickers
FOR EACH ROW WHEN OLD.state = 'label' AND NEW.state <> 'label'
BEGIN
    SELECT RAISE(ABORT, 'stickers_label_is_final: a label cannot become a field again');
END;
