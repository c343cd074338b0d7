-- Rectangle queries ("the stickers in this part of the board") from an R*Tree of sticker frames
-- instead of a scan of the board: a board of 100,000 stickers answers in about a millisecond.
-- The R*Tree stores 32-bit floats rounded outwards, so it gives a superset; the query checks the
-- exact frame again. Kept in step with stickers by the triggers below.
CREATE VIRTUAL TABLE sticker_frames USING rtree(seq, min_x, max_x, min_y, max_y);

INSERT INTO sticker_frames (seq, min_x, max_x, min_y, max_y)
SELECT seq, frame_x, frame_x + frame_width, frame_y, frame_y + frame_height FROM stickers;

CREATE TRIGGER sticker_frames_insert AFTER INSERT ON stickers
BEGIN
    INSERT INTO sticker_frames (seq, min_x, max_x, min_y, max_y)
    VALUES (NEW.seq, NEW.frame_x, NEW.frame_x + NEW.frame_width, NEW.frame_y, NEW.frame_y + NEW.frame_height);
END;

CREATE TRIGGER sticker_frames_update AFTER UPDATE OF frame_x, frame_y, frame_width, frame_height ON stickers
BEGIN
    UPDATE sticker_frames
    SET min_x = NEW.frame_x, max_x = NEW.frame_x + NEW.frame_width,
        min_y = NEW.frame_y, max_y = NEW.frame_y + NEW.frame_height
    WHERE seq = NEW.seq;
END;

CREATE TRIGGER sticker_frames_delete AFTER DELETE ON stickers
BEGIN
    DELETE FROM sticker_frames WHERE seq = OLD.seq;
END;
