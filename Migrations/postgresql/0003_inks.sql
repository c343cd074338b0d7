-- Inks: each handwriting submission that went into a sticker, kept as the application's bytes.
CREATE TABLE inks (
    id         TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    sticker_id TEXT NOT NULL,
    board_id   TEXT NOT NULL,
    -- 1, 2, 3, … within the sticker, in the order the writing was added.
    seq        BIGINT NOT NULL CHECK (seq >= 1),
    strokes    BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (sticker_id, seq),
    FOREIGN KEY (sticker_id, board_id) REFERENCES stickers (id, board_id) ON DELETE CASCADE
);
