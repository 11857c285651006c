/**
 * The board's JSON, written by PostgreSQL (and PGlite: the same dialect) in one statement.
 *
 * The text must be what the HTTP API wrote when it encoded a BoardView through the Board schema
 * and JSON.stringify, byte for byte: the same keys in the same order, no whitespace, strings
 * escaped as JSON.stringify escapes them (to_json does: the same short escapes and \u00xx for the
 * other control characters), timestamps as Date.prototype.toISOString writes them, nulls as null.
 *
 * Rows of up to CARDS_PER_ROW cards of one column, so no message is larger than a few hundred
 * cards (a single document row would hit the driver's 16 MiB message limit on a large board), and
 * the server handles a few rows rather than one object per card. One more row carries the head,
 * `{"project":…,"columns":[…],"cards":[`, and the tail, `],"labels":[…],"eventCursor":"…"}`; a
 * board without cards is that row alone. The cursor is read in the same statement, so in the same
 * snapshot as the cards (`eventCursorSql`). `boardParts` puts the rows in board order and joins
 * them: the body is the head, the runs of cards with a comma between two, and the tail. (Text,
 * not bytea: joining the driver's bytea views into one Buffer allocates as much again outside the
 * JS heap, and the full collections that set off cost more server CPU than decoding the rows into
 * strings did: 6.7 against 3.4 ms a request on a 1,000-card board.)
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
import { singleCardClaim } from "./claimSql.ts"
import { Schema } from "effect"
import { WorkspaceRole } from "../domain/enums.ts"
import { membershipOf, visibleTo } from "./Access.ts"
import { type Statement, statement } from "../infra/statement.ts"
import { jsonObject } from "./jsonSql.ts"
import { XID_OFFSET } from "../events/eventClock.ts"
import { projectAutomationJson } from "./rows.ts"

// Every object's keys and their SQL come from its schema (jsonSql.ts): the card's in cardView.ts.
const projectJson = jsonObject(Project, "p", { automation: projectAutomationJson("p") })
const columnJson = jsonObject(Column, "bc", {})

/**
 * Card `c` (the lateral's row) at `position`; its claim read only when its `claimed` flag says a
 * live session holds it, and then only if that session's lease still runs at `now`.
 */
const cardJsonAt = (position: string, now: string) =>
  cardJsonOf({
    position,
    labels: "'[' || COALESCE(c.labels_json, '') || ']'",
    subtasks: "'[' || COALESCE(c.subtasks_json, '') || ']'",
    assigneeIds: "'[' || COALESCE(c.assignees_json, '') || ']'",
    claim: `CASE WHEN c.claimed THEN ${singleCardClaim(now)} ELSE 'null' END`
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
  /** The caller: the row with the head says their role in the project's workspace. */
  readonly user: string
  /** The credential's reach for a read (`reachOf`): cards are written only within it. */
  readonly reach: ReadonlyArray<string> | null
}

/**
 * Cards per row of the answer: many enough that the server handles a few rows, not one per card;
 * few enough that a row's text (a card is about 0.5 KiB) stays a regular heap object, under V8's
 * 128 KiB large-object size, which dies young instead of going to the old generation.
 */
const CARDS_PER_ROW = 128

/**
 * `project`: the project id, `now`: the time (a lease holds its card until then); with
 * `assignee`, a user id, and only the cards assigned to them are listed (at their places among
 * all the column's cards). `archived`: the archived cards instead of the live ones (each at
 * `position` 0, as every read of an archived card says), newest first in each column.
 *
 * Rows: one per column and run of up to CARDS_PER_ROW cards (`col`, the column's place on the
 * board from 1; `chunk`, the run's place in its column; `card`, its cards' JSON joined by
 * commas), in no particular order, and one row with `col` 0 that carries the head and the tail,
 * the project's workspace and the caller's role there (the access rule's inputs: `checkGrant`).
 * No row with `col` 0: no such project. A caller who is no member gets the head's row alone.
 *
 * Each column's cards come from the lateral in the column's own order, where an index walk
 * (`cards_board`: project, column, key) or a sort of that one column numbers them, so their
 * positions need no count and no window over the whole board. The rows are left unordered and
 * the server puts them in order (`boardParts`): ordering them here sorted the cards' text, a
 * few MB on a large board, which went to disk past `work_mem`. The claim is looked up only for a
 * card whose `claimed` flag says a live session holds it (migrations/0013), not for every card.
 */
const boardSql = (assignee: boolean, archived = false) => {
  const which = archived ? "c.archived_at IS NOT NULL" : "c.archived_at IS NULL"
  const columnOrder = archived ? "c.archived_at DESC, c.id" : "c.sort_key"
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
)
SELECT col.n::int AS col, run.n AS chunk, NULL::uuid AS workspace_id, NULL::text AS role, NULL::text AS head,
  array_to_string(run.texts[run.n * ${CARDS_PER_ROW} + 1 : (run.n + 1) * ${CARDS_PER_ROW}], ',') AS card, NULL::text AS tail
FROM (
  SELECT bc.id, row_number() OVER (ORDER BY bc.position, bc.id) AS n FROM board_columns bc
  -- no card is written for a caller the board is not visible to (a stranger, a credential that
  -- does not reach it or lacks the read scope): the server answers 404 or 403 from the head's row
  WHERE bc.project_id = ${p.project}
    AND EXISTS (SELECT 1 FROM projects vp WHERE vp.id = ${p.project} AND ${visibleTo("vp.workspace_id", p.user, p.reach, "vp.id")})
) col
CROSS JOIN LATERAL (
  SELECT generate_series(0, (cardinality(texts) - 1) / ${CARDS_PER_ROW}) AS n, texts FROM (
    -- the documented way to feed an aggregate in order: a sorted subquery and nothing between
    -- (the assignee's filter is the aggregate's FILTER, not a WHERE the planner could turn into a join)
    SELECT array_agg(${cardJsonAt(archived ? "0" : "c.place", p.now)})${assignee ? " FILTER (WHERE c.mine)" : ""} AS texts FROM (
      SELECT c.*, cl.j AS labels_json, cs.j AS subtasks_json, ca.j AS assignees_json,
        row_number() OVER (ORDER BY ${columnOrder}) - 1 AS place${
          assignee
            ? `,
        EXISTS (SELECT 1 FROM card_assignees f WHERE f.card_id = c.id AND f.user_id = ${p.assignee}::uuid) AS mine`
            : ""
        }
      FROM cards c
      LEFT JOIN card_lab cl ON cl.card_id = c.id
      LEFT JOIN card_sub cs ON cs.card_id = c.id
      LEFT JOIN card_asg ca ON ca.card_id = c.id
      WHERE c.project_id = ${p.project} AND c.column_id = col.id AND ${which}
      ORDER BY ${columnOrder}
    ) c
  ) column_cards
) run
UNION ALL
SELECT 0, 0, p.workspace_id, m.role, concat(
    '{"project":', ${projectJson},
    ',"columns":[', (SELECT string_agg(${columnJson}, ',' ORDER BY bc.position, bc.id) FROM board_columns bc WHERE bc.project_id = p.id),
    '],"cards":['),
  NULL,
  concat(
    '],"labels":[', (SELECT string_agg(lab.j, ',' ORDER BY lab.sort_name, lab.id) FROM lab),
    '],"eventCursor":"', ${eventCursorSql("p.id")}, '"}')
FROM projects p ${membershipOf("p.workspace_id", p.user)} WHERE p.id = ${p.project}`
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

/** A row of the board statements above: the head and tail (`col` 0), or a run of one column's cards. */
export const BoardJsonRow = Schema.Struct({
  col: Schema.Number,
  chunk: Schema.Number,
  /** On the head's row: the project's workspace and the caller's role there (null: no member). */
  workspace_id: Schema.NullOr(Schema.String),
  role: Schema.NullOr(WorkspaceRole),
  head: Schema.NullOr(Schema.String),
  card: Schema.NullOr(Schema.String),
  tail: Schema.NullOr(Schema.String)
})
export type BoardJsonRow = typeof BoardJsonRow.Type

/**
 * The document's parts in order (their concatenation is the board's JSON): the head, the runs of
 * cards by column and place with a comma between two, the tail. `undefined` when no row carries
 * the head: the project is gone.
 */
export const boardParts = (rows: ReadonlyArray<BoardJsonRow>): Array<string> | undefined => {
  const ends = rows.find((r) => r.col === 0)
  if (ends === undefined || ends.head === null || ends.tail === null) return undefined
  const runs = rows.filter((r) => r.col !== 0 && r.card !== null).sort((a, b) => a.col - b.col || a.chunk - b.chunk)
  const parts = [ends.head]
  for (const [i, run] of runs.entries()) {
    if (i > 0) parts.push(",")
    parts.push(run.card!)
  }
  parts.push(ends.tail)
  return parts
}
