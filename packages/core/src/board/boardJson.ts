/**
 * The board's JSON, written by PostgreSQL (and PGlite: the same dialect) in one statement.
 *
 * The text must be what the HTTP API wrote when it encoded a BoardView through the Board schema
 * and JSON.stringify, byte for byte: the same keys in the same order, no whitespace, strings
 * escaped as JSON.stringify escapes them (to_json does: the same short escapes and \u00xx for the
 * other control characters), timestamps as Date.prototype.toISOString writes them, nulls as null.
 *
 * Rows of up to CARDS_PER_ROW cards, in board order (column position, then the card's order
 * key), so no message is larger than a few hundred cards (a single document row would hit the
 * driver's 16 MiB message limit on a large board), and the server handles a few rows rather
 * than one object per card. The first row also carries the head, `{"project":…,
 * "columns":[…],"cards":[`, and the tail, `],"labels":[…],"eventCursor":"…"}`; a board without
 * cards is that one row with no card. The cursor is read in the same statement, so in the same
 * snapshot as the cards (`eventCursorSql`). Every card but the first starts with its comma, so the body is the head,
 * the cards and the tail, concatenated. (Text, not bytea: joining the driver's bytea views into
 * one Buffer allocates as much again outside the JS heap, and the full collections that set off
 * cost more server CPU than decoding the rows into strings did: 6.7 against 3.4 ms a request
 * on a 1,000-card board.)
 *
 * Built with concat and to_json rather than json_build_object/json_agg: those put spaces after
 * every colon and comma, and json_build_object, which looks up every argument's type on every
 * call, costs several times as much per card. Each object's keys and the SQL of their values
 * come from its schema (jsonSql.ts), the card's as the single-card statements write it
 * (cardView.ts), so the board, the card reads and the card events cannot drift apart.
 */

import { Column } from "../domain/board.ts"
import { Project } from "../domain/workspace.ts"
import { assigneeList, cardJsonOf, labelJson, subtaskJson } from "./cardView.ts"
import { claimJsonText, LIVE } from "./claimSql.ts"
import { type Statement, statement } from "../infra/statement.ts"
import { jsonObject } from "./jsonSql.ts"
import { XID_OFFSET } from "../events/eventClock.ts"
import { projectAutomationJson } from "./rows.ts"

// Every object's keys and their SQL come from its schema (jsonSql.ts): the card's in cardView.ts.
const projectJson = jsonObject(Project, "p", { automation: projectAutomationJson("p") })
const columnJson = jsonObject(Column, "bc", {})

/** Positions as cardView's: the ordinal in the column by order key (keys are unique per column). */
const cardJsonAt = (position: string) =>
  cardJsonOf({
    position,
    labels: "'[' || COALESCE(cl.j, '') || ']'",
    subtasks: "'[' || COALESCE(cs.j, '') || ']'",
    assigneeIds: "'[' || COALESCE(ca.j, '') || ']'",
    claim: `CASE WHEN s.id IS NULL THEN 'null' ELSE ${claimJsonText} END`
  })

/**
 * The board's `eventCursor`, for project `project` (an SQL expression): the id of the project's
 * newest event older than every transaction still running in the statement's own snapshot (the
 * board's), as encodeEventId writes it; 24 zeros (before every event) when there is none. Such
 * an event is final (migrations/0010_events.sql), and whatever the snapshot cannot see sorts
 * after it, so a stream opened with `after` = this cursor gives every change the board does not
 * show. The few events the snapshot shows that sort after it (their transactions committed
 * while an older one still ran) are sent again; each carries its whole object, so applying them
 * again changes nothing. The snapshot's xmin rather than EventLog's FINAL_BELOW: naming
 * pg_stat_activity costs about 0.5 ms of planning per statement (measured with pgbench), a
 * twentieth of the 1,000-card board, to place the cursor later only while a writing
 * transaction of another database runs. One index probe (events_by_project, backwards). The
 * xmin is on the event clock, as every tx is (events/eventClock.ts).
 */
export const eventCursorSql = (
  project: string
): string => `COALESCE((SELECT lpad(to_hex(e.tx), 12, '0') || lpad(to_hex(e.n), 12, '0')
    FROM events e WHERE e.project_id = ${project} AND e.tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint + ${XID_OFFSET}
    ORDER BY e.tx DESC, e.n DESC LIMIT 1), '${"0".repeat(24)}')`

export interface BoardParams {
  readonly project: string
  readonly now: string
}

/**
 * Board order: columns by position, cards by order key; the ids only make ties impossible. The
 * archived cards (which have no key) by when they were archived, newest first.
 */
const boardOrderOf = (archived: boolean) =>
  archived ? "col.position, col.id, c.archived_at DESC, c.id" : "col.position, col.id, c.sort_key, c.id"

/**
 * Cards per row of the answer: many enough that the server handles a few rows, not one per card;
 * few enough that a row's text (a card is about 0.5 KiB) stays a regular heap object, under V8's
 * 128 KiB large-object size, which dies young instead of going to the old generation.
 */
const CARDS_PER_ROW = 128

/**
 * `project`: the project id, `now`: the time (a lease holds its card until then); with
 * `assignee`, a user id, and only the cards assigned to them are listed (at their places among
 * all the column's cards). Rows: head and tail (first row only), cards (null on a board without cards).
 * The unfiltered board is the hot read. `archived`: the archived cards instead of the live ones
 * (each at `position` 0, as every read of an archived card says).
 */
const boardSql = (assignee: boolean, archived = false) => {
  const boardOrder = boardOrderOf(archived)
  const which = archived ? "c.archived_at IS NOT NULL" : "c.archived_at IS NULL"
  return statement<BoardParams & { readonly assignee: string }>(
    (p) => `
WITH lab AS (
  SELECT l.id, lower(l.name) AS sort_name, ${labelJson} AS j FROM labels l WHERE l.project_id = ${p.project}
), card_lab AS (
  SELECT cl.card_id, string_agg(lab.j, ',' ORDER BY lab.sort_name, lab.id) AS j
  FROM lab JOIN card_labels cl ON cl.label_id = lab.id GROUP BY cl.card_id
), card_sub AS (
  SELECT s.card_id, string_agg(${subtaskJson}, ',' ORDER BY s.position, s.id) AS j
  FROM subtasks s WHERE s.card_id IN (SELECT id FROM cards WHERE project_id = ${p.project}) GROUP BY s.card_id
), card_asg AS (
  SELECT ca.card_id, ${assigneeList} AS j
  FROM card_assignees ca WHERE ca.card_id IN (SELECT id FROM cards WHERE project_id = ${p.project}) GROUP BY ca.card_id
)${
      assignee
        ? `, placed AS (
  SELECT c.*, row_number() OVER (PARTITION BY c.column_id ORDER BY c.sort_key, c.id) - 1 AS place
  FROM cards c WHERE c.project_id = ${p.project} AND ${which}
)`
        : ""
    }
, board AS (
SELECT
  row_number() OVER (ORDER BY ${boardOrder}) AS n,
  CASE WHEN row_number() OVER (ORDER BY ${boardOrder}) = 1 THEN concat(
    '{"project":', ${projectJson},
    ',"columns":[', (SELECT string_agg(${columnJson}, ',' ORDER BY bc.position, bc.id) FROM board_columns bc WHERE bc.project_id = p.id),
    '],"cards":[') END AS head,
  CASE WHEN c.id IS NOT NULL THEN concat(
    CASE WHEN row_number() OVER (ORDER BY ${boardOrder}) > 1 THEN ',' END, ${cardJsonAt(
      archived
        ? "0"
        : assignee
          ? "c.place"
          : "row_number() OVER (PARTITION BY col.position, col.id ORDER BY c.sort_key, c.id) - 1"
    )}) END AS card,
  CASE WHEN row_number() OVER (ORDER BY ${boardOrder}) = 1 THEN concat(
    '],"labels":[', (SELECT string_agg(lab.j, ',' ORDER BY lab.sort_name, lab.id) FROM lab),
    '],"eventCursor":"', ${eventCursorSql("p.id")}, '"}') END AS tail
FROM projects p
LEFT JOIN (${assignee ? "placed" : "cards"} c JOIN board_columns col ON col.id = c.column_id) ON c.project_id = p.id AND ${which}${
      assignee
        ? ` AND EXISTS (SELECT 1 FROM card_assignees f WHERE f.card_id = c.id AND f.user_id = ${p.assignee}::uuid)`
        : ""
    }
LEFT JOIN card_lab cl ON cl.card_id = c.id
LEFT JOIN card_sub cs ON cs.card_id = c.id
LEFT JOIN card_asg ca ON ca.card_id = c.id
LEFT JOIN agent_sessions s ON s.card_id = c.id AND s.status IN ${LIVE} AND s.lease_expires_at > ${p.now}::timestamptz
WHERE p.id = ${p.project}
)
-- a few hundred cards per row: one row object and one text value per chunk, not per card
SELECT max(head) AS head, string_agg(card, '' ORDER BY n) AS card, max(tail) AS tail
FROM board GROUP BY (n - 1) / ${CARDS_PER_ROW} ORDER BY (n - 1) / ${CARDS_PER_ROW}`
  )
}

/** The whole board (the text names no assignee). */
export const boardJsonSql = boardSql(false) as Statement<BoardParams>
/** The board with only the cards assigned to `assignee`. */
export const boardJsonByAssigneeSql = boardSql(true)
/** The board with its archived cards instead of its live ones (`?archived=true`). */
export const archivedBoardJsonSql = boardSql(false, true) as Statement<BoardParams>
/** The archived cards assigned to `assignee`. */
export const archivedBoardJsonByAssigneeSql = boardSql(true, true)
