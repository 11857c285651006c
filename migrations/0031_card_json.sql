-- Each card keeps its JSON (issue 35). A board read formatted every card from two dozen columns:
-- timestamps through to_char, text through to_json, 43 arguments of one concat, 5.7 µs a card
-- (pgbench, PostgreSQL 15): most of a 1,000-card board's 8.5 ms in PostgreSQL. The text between
-- the fields that change without the row (position, labels, subtasks, assignees, claim) is now
-- kept in the row, in four parts, and a read concatenates them with those fields
-- (core/board/cardView.ts, `storedCard`).
--
-- The parts are written by a trigger on every insert and update of the row, so no write can
-- forget them. Its function is made from the Card schema in TypeScript and put in place by the
-- migration run after this file (infra/Migrations.ts), which rewrites every card's parts when the
-- function it finds differs: the body here is only a stand-in until then. (A later migration
-- that drops or renames a column the function reads must first drop the function, CASCADE, which
-- takes the trigger with it: the run makes both again.)
ALTER TABLE cards
  ADD COLUMN json_1 text,
  ADD COLUMN json_2 text,
  ADD COLUMN json_3 text,
  ADD COLUMN json_4 text;

CREATE FUNCTION board_card_json() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  RETURN NEW;
END
$fn$;

CREATE TRIGGER cards_json BEFORE INSERT OR UPDATE ON cards FOR EACH ROW EXECUTE FUNCTION board_card_json();
