-- Event retention: housekeeping may delete a board's oldest events once they are older than the
-- configured retention. A board records the newest event id deleted from its history, so that a
-- stream resuming from an earlier id knows it missed events (it sends `reset`), and so that the
-- board's latest event id (listing ETags, where a new stream starts) never goes back. No CHECK:
-- it would read every board under the table's exclusive lock; the trigger below keeps the mark
-- between 0 and the board's newest event.
ALTER TABLE boards ADD COLUMN events_purged_through BIGINT NOT NULL DEFAULT 0;

-- History is still never rewritten, and an existing board's events go only from the old end, up
-- to the id its row records (raised first, in the same transaction). The cascade of a board's
-- deletion runs after the board row is gone, so the board no longer exists when this checks.
CREATE OR REPLACE FUNCTION events_no_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM boards WHERE id = OLD.board_id AND events_purged_through < OLD.id) THEN
        RAISE EXCEPTION 'events_append_only: only events up to the board''s events_purged_through can be deleted';
    END IF;
    RETURN OLD;
END
$$;

-- What was deleted stays recorded: the mark only moves forward, and only to an event of the
-- board (a mark past every id would hide the events still to come).
CREATE FUNCTION boards_events_purged_through_checked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.events_purged_through < OLD.events_purged_through
       OR NEW.events_purged_through > (SELECT coalesce(max(id), 0) FROM events WHERE board_id = NEW.id) THEN
        RAISE EXCEPTION 'events_append_only: events_purged_through only moves forward, to an event of the board';
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER boards_events_purged_through_checked BEFORE UPDATE OF events_purged_through ON boards
FOR EACH ROW EXECUTE FUNCTION boards_events_purged_through_checked();
