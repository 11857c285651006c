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
 * call, costs several times as much per card.
 */

/**
 * A timestamptz as Date.prototype.toISOString writes it: UTC, milliseconds cut (not rounded),
 * as the driver cuts microseconds when it makes a Date.
 */
import { claimJsonText, LIVE } from "./claimSql.ts"

const iso = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A text value as a JSON string (to_json escapes it), or null. */
const str = (column: string): string => `COALESCE(to_json(${column})::text, 'null')`

/** A uuid (lowercase hex and hyphens: nothing to escape) as a JSON string, or null. */
const uuid = (column: string): string => `COALESCE('"' || ${column} || '"', 'null')`

/** `{"key":value,…}` from [key, SQL expression of the value's JSON text] pairs. */
const object = (fields: ReadonlyArray<readonly [string, string]>): string =>
  `concat(${fields.map(([key, value], i) => `'${i === 0 ? "{" : ","}"${key}":', ${value}`).join(", ")}, '}')`

const projectJson = object([
  ["id", uuid("p.id")],
  ["workspaceId", uuid("p.workspace_id")],
  ["name", str("p.name")],
  ["refPrefix", str("p.ref_prefix")],
  ["createdAt", `'"' || ${iso("p.created_at")} || '"'`],
  ["updatedAt", `'"' || ${iso("p.updated_at")} || '"'`]
])

const columnJson = object([
  ["id", uuid("bc.id")],
  ["projectId", uuid("bc.project_id")],
  ["name", str("bc.name")],
  ["position", "bc.position"],
  ["kind", str("bc.kind")],
  ["createdAt", `'"' || ${iso("bc.created_at")} || '"'`],
  ["updatedAt", `'"' || ${iso("bc.updated_at")} || '"'`]
])

const labelJson = object([
  ["id", uuid("l.id")],
  ["projectId", uuid("l.project_id")],
  ["name", str("l.name")],
  ["color", str("l.color")],
  ["createdAt", `'"' || ${iso("l.created_at")} || '"'`],
  ["updatedAt", `'"' || ${iso("l.updated_at")} || '"'`]
])

const subtaskJson = object([
  ["id", uuid("s.id")],
  ["cardId", uuid("s.card_id")],
  ["title", str("s.title")],
  ["completed", "CASE WHEN s.completed THEN 'true' ELSE 'false' END"],
  ["position", "s.position"],
  ["createdAt", `'"' || ${iso("s.created_at")} || '"'`],
  ["updatedAt", `'"' || ${iso("s.updated_at")} || '"'`]
])

/**
 * A card (alias `c`) in its REST shape, as JSON text. The board gives its own position and
 * labels, subtasks and assignees (aggregated once for the whole board); a single card's statement
 * (an event's object, cardStatements.ts) gives the card's ordinal and `singleCardLabels` /
 * `singleCardSubtasks` / `singleCardAssignees`.
 */
export const cardJsonOf = (
  position: string,
  labels: string,
  subtasks: string,
  assignees: string,
  claim: string
): string =>
  object([
    ["id", uuid("c.id")],
    ["projectId", uuid("c.project_id")],
    ["columnId", uuid("c.column_id")],
    ["position", position],
    ["ref", str("c.ref")],
    ["title", str("c.title")],
    ["description", str("c.description")],
    ["priority", str("c.priority")],
    ["labels", labels],
    ["subtasks", subtasks],
    ["assigneeIds", assignees],
    ["dueAt", `COALESCE('"' || ${iso("c.due_at")} || '"', 'null')`],
    ["source", str("c.source")],
    ["intakeTokenId", uuid("c.intake_token_id")],
    ["createdAt", `'"' || ${iso("c.created_at")} || '"'`],
    ["updatedAt", `'"' || ${iso("c.updated_at")} || '"'`],
    ["claim", claim]
  ])

/** The labels of card `c` as a JSON array's text, in the order the REST card lists them. */
export const singleCardLabels = `'[' || COALESCE((SELECT string_agg(${labelJson}, ',' ORDER BY lower(l.name), l.id)
    FROM card_labels cl1 JOIN labels l ON l.id = cl1.label_id WHERE cl1.card_id = c.id), '') || ']'`

/** The subtasks of card `c` as a JSON array's text, in order. */
export const singleCardSubtasks = `'[' || COALESCE((SELECT string_agg(${subtaskJson}, ',' ORDER BY s.position, s.id)
    FROM subtasks s WHERE s.card_id = c.id), '') || ']'`

/** A card's assignee rows (alias `ca`) as the text of JSON strings, joined: the order of cardView's `assigneesOf`. */
const assigneeList = `string_agg('"' || ca.user_id || '"', ',' ORDER BY ca.created_at, ca.user_id)`

/** The assignees of card `c` as a JSON array's text. */
export const singleCardAssignees = `'[' || COALESCE((SELECT ${assigneeList}
    FROM card_assignees ca WHERE ca.card_id = c.id), '') || ']'`

/** Positions as cardView's: the ordinal in the column by order key (keys are unique per column). */
const cardJsonAt = (position: string) =>
  cardJsonOf(
    position,
    "'[' || COALESCE(cl.j, '') || ']'",
    "'[' || COALESCE(cs.j, '') || ']'",
    "'[' || COALESCE(ca.j, '') || ']'",
    `CASE WHEN s.id IS NULL THEN 'null' ELSE ${claimJsonText} END`
  )

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
 * transaction of another database runs. One index probe (events_by_project, backwards).
 */
export const eventCursorSql = (
  project: string
): string => `COALESCE((SELECT lpad(to_hex(e.tx), 12, '0') || lpad(to_hex(e.n), 12, '0')
    FROM events e WHERE e.project_id = ${project} AND e.tx < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
    ORDER BY e.tx DESC, e.n DESC LIMIT 1), '${"0".repeat(24)}')`

/** Board order: columns by position, cards by order key; the ids only make ties impossible. */
const boardOrder = "col.position, col.id, c.sort_key, c.id"

/**
 * Cards per row of the answer: many enough that the server handles a few rows, not one per card;
 * few enough that a row's text (a card is about 0.5 KiB) stays a regular heap object, under V8's
 * 128 KiB large-object size, which dies young instead of going to the old generation.
 */
const CARDS_PER_ROW = 128

/**
 * $1: the project id, $2: the time (a lease holds its card until then); with `assignee`, $3: a
 * user id, and only the cards assigned to them are listed (at their places among all the
 * column's cards). Rows: head and tail (first row only), cards (null on a board without cards).
 * The unfiltered board is the hot read.
 */
const boardSql = (assignee: boolean) => `
WITH lab AS (
  SELECT l.id, lower(l.name) AS sort_name, ${labelJson} AS j FROM labels l WHERE l.project_id = $1
), card_lab AS (
  SELECT cl.card_id, string_agg(lab.j, ',' ORDER BY lab.sort_name, lab.id) AS j
  FROM lab JOIN card_labels cl ON cl.label_id = lab.id GROUP BY cl.card_id
), card_sub AS (
  SELECT s.card_id, string_agg(${subtaskJson}, ',' ORDER BY s.position, s.id) AS j
  FROM subtasks s WHERE s.card_id IN (SELECT id FROM cards WHERE project_id = $1) GROUP BY s.card_id
), card_asg AS (
  SELECT ca.card_id, ${assigneeList} AS j
  FROM card_assignees ca WHERE ca.card_id IN (SELECT id FROM cards WHERE project_id = $1) GROUP BY ca.card_id
)${
  assignee
    ? `, placed AS (
  SELECT c.*, row_number() OVER (PARTITION BY c.column_id ORDER BY c.sort_key, c.id) - 1 AS place
  FROM cards c WHERE c.project_id = $1
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
      assignee ? "c.place" : "row_number() OVER (PARTITION BY col.position, col.id ORDER BY c.sort_key, c.id) - 1"
    )}) END AS card,
  CASE WHEN row_number() OVER (ORDER BY ${boardOrder}) = 1 THEN concat(
    '],"labels":[', (SELECT string_agg(lab.j, ',' ORDER BY lab.sort_name, lab.id) FROM lab),
    '],"eventCursor":"', ${eventCursorSql("p.id")}, '"}') END AS tail
FROM projects p
LEFT JOIN (${assignee ? "placed" : "cards"} c JOIN board_columns col ON col.id = c.column_id) ON c.project_id = p.id${
  assignee ? " AND EXISTS (SELECT 1 FROM card_assignees f WHERE f.card_id = c.id AND f.user_id = $3::uuid)" : ""
}
LEFT JOIN card_lab cl ON cl.card_id = c.id
LEFT JOIN card_sub cs ON cs.card_id = c.id
LEFT JOIN card_asg ca ON ca.card_id = c.id
LEFT JOIN agent_sessions s ON s.card_id = c.id AND s.status IN ${LIVE} AND s.lease_expires_at > $2::timestamptz
WHERE p.id = $1
)
-- a few hundred cards per row: one row object and one text value per chunk, not per card
SELECT max(head) AS head, string_agg(card, '' ORDER BY n) AS card, max(tail) AS tail
FROM board GROUP BY (n - 1) / ${CARDS_PER_ROW} ORDER BY (n - 1) / ${CARDS_PER_ROW}`

export const boardJsonSql = boardSql(false)
/** The board with only the cards assigned to $3. */
export const boardJsonByAssigneeSql = boardSql(true)
