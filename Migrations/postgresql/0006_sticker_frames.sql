-- Rectangle queries ("the stickers in this part of the board") from a GiST index of each board's
-- sticker frames instead of a scan of the board. btree_gist (Debian's postgresql-contrib, a
-- trusted extension) lets the index lead with board_id.
CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public;

CREATE INDEX stickers_board_frame ON stickers USING gist (
    board_id, box(point(frame_x, frame_y), point(frame_x + frame_width, frame_y + frame_height)));
