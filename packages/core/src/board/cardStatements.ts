/**
 * The one-statement writes of cards (see Cards.ts and orderKeys.ts): the access rule folded in,
 * the destination column locked FOR KEY SHARE, the key drawn between the neighbours of the
 * statement's own snapshot, and the card answered in its REST shape from what was written.
 * A statement that wrote nothing answers one row with `id` NULL and `found` telling whether its
 * target was there (then its snapshot was stale: run it again) or not (then say why).
 */
import { actorSql, eventInsertSql } from "../events/EventLog.ts"
import { visibleTo } from "./Access.ts"
import { cardJsonOf, singleCardAssignees, singleCardLabels, singleCardSubtasks } from "./boardJson.ts"
import { singleCardClaim } from "./claimSql.ts"
import { bucketsBefore, bucketSize, cardColumns, type CardRow, ordinalOf, withinBucket } from "./cardView.ts"
import { epochUnchanged, keyAt, keyAtEnd } from "./orderKeys.ts"

// The end of a statement that wrote a card: the card in its REST shape, the count of rows its
// target CTE found, its key's scale and how many cards its counting bucket holds (both say when
// the column wants a rebalance). `position` counts in the statement's snapshot, which holds no
// version of a created card and the old version of a moved one (`moved` subtracts it).
// `now`: the statement's time (whether a lease still holds the card); `assignees`: the JSON of the
// card's assignees (by default its rows: a moved card's).
const writtenCard = (found: string, count: "created" | "moved" | "none", now: string, assignees?: string) => `
  SELECT (SELECT count(*) FROM ${found})::int AS found,
    ${cardColumns(
      now,
      count === "none"
        ? "NULL::int"
        : count === "created"
          ? "(b.before + b.within)::int"
          : "(b.before + b.within - (c.old_column_id = c.column_id AND c.old_sort_key < c.sort_key)::int)::int",
      assignees
    )},
    scale(c.sort_key) AS key_scale, ${count === "none" ? "NULL::int" : `${bucketSize("c")}::int`} AS bucket_size,
    ${count === "moved" ? "c.old_column_id" : "NULL::uuid"} AS old_column_id,
    ${count === "moved" ? "c.old_position" : "NULL::int"} AS old_position
  FROM written c CROSS JOIN LATERAL (SELECT ${
    count === "none"
      ? "NULL::bigint AS before, NULL::bigint AS within"
      : `${bucketsBefore("c")} AS before, ${withinBucket("c")} AS within`
  }) b`

// The card's event, logged in the same statement from the answer's row (alias c): `data` holds
// the card in its REST shape (a new card has no labels or subtasks yet), `scope` names the CTE
// that carries the workspace id.
const cardEvent = (
  type: "card.created" | "card.moved",
  scope: string,
  actor: string,
  at: string,
  previous?: string,
  assignees: string = type === "card.created" ? "'[]'" : singleCardAssignees
) =>
  eventInsertSql({
    name: "logged",
    from: `answer c CROSS JOIN ${scope} w`,
    type: `'${type}'`,
    workspace: "w.workspace_id",
    project: "c.project_id",
    card: "c.id",
    data: `concat('{"object":', ${cardJsonOf(
      "c.position",
      type === "card.created" ? "'[]'" : singleCardLabels,
      type === "card.created" ? "'[]'" : singleCardSubtasks,
      assignees,
      type === "card.created" ? "'null'" : singleCardClaim(at)
    )}${previous === undefined ? "" : `, ',"previous":', ${previous}`}, '}')`,
    actor,
    at
  })

// The "nothing written" row: the columns of writtenCard(), NULL but for `found`.
const nothingWritten = (found: string) => `
  SELECT (SELECT count(*) FROM ${found})::int, ${Array.from({ length: 21 }, () => "NULL").join(", ")}
  WHERE NOT EXISTS (SELECT 1 FROM written)`

// $1 column, $2 title, $3 description, $4 priority, $5 source, $6 intake token, $7 created by,
// $8 the time (infra/clock.ts), then for a member's create $9 project, $10 user, $11 grants,
// $12 the credential's kind and $13 its id (the event's actor), and for a create `withExtras`
// (one that names a due date or assignees) $14 the due date and $15 the assignees (uuid[],
// distinct); for a filing $9 idempotency key.
// A filing answers nothing about the card (the channel is blind), but its event carries the card.
// With extras, a target whose workspace lacks one of the assignees is no target: nothing is
// written, and Cards.create names the reason.
const insertSql = (mode: "member" | "filing", claim: boolean, withExtras = false) => `
  WITH target AS (
    SELECT col.id, col.project_id, col.order_epoch, p.ref_prefix, p.workspace_id
    FROM board_columns col JOIN projects p ON p.id = col.project_id
    WHERE col.id = $1::uuid AND ${
      mode === "member"
        ? `col.project_id = $9::uuid AND ${visibleTo("p.workspace_id", "$10::uuid", "$11")}`
        : "col.project_id = (SELECT project_id FROM intake_tokens WHERE id = $6::uuid)"
    }${
      withExtras
        ? ` AND NOT EXISTS (SELECT 1 FROM unnest($15::uuid[]) u(id) WHERE NOT EXISTS (
        SELECT 1 FROM workspace_members wm WHERE wm.workspace_id = p.workspace_id AND wm.user_id = u.id))`
        : ""
    }
    FOR KEY SHARE OF col
  ), ready AS (
    SELECT * FROM target t WHERE ${epochUnchanged("t")}
  )${
    claim
      ? `, claim AS (
    INSERT INTO intake_claims (token_id, idempotency_key, card_id, created_at)
    SELECT $6::uuid, $9, gen_random_uuid(), $8::timestamptz FROM ready
    ON CONFLICT DO NOTHING RETURNING card_id
  )`
      : ""
  }, written AS (
    INSERT INTO cards (${claim ? "id, " : ""}project_id, column_id, sort_key, ref_number, ref, title, description, priority, source, intake_token_id, created_by, created_at, updated_at${withExtras ? ", due_at" : ""})
    SELECT ${claim ? "claim.card_id, " : ""}t.project_id, t.id, ${keyAtEnd("t.id")}, r.n, t.ref_prefix || '-' || r.n,
      $2, $3, $4, $5, $6::uuid, $7::uuid, $8::timestamptz, $8::timestamptz${withExtras ? ", $14::timestamptz" : ""}
    FROM ready t ${claim ? "CROSS JOIN claim" : ""} CROSS JOIN LATERAL (SELECT board_next_ref(t.project_id)::int AS n) r
    RETURNING *
  )${
    withExtras
      ? `, assigned AS (
    INSERT INTO card_assignees (card_id, user_id, created_at)
    SELECT w.id, u.id, $8::timestamptz FROM written w CROSS JOIN unnest($15::uuid[]) u(id)
    RETURNING user_id
  )`
      : ""
  }, answer AS (
    ${writtenCard("target", "created", "$8", withExtras ? "COALESCE((SELECT json_agg(a.user_id ORDER BY a.user_id) FROM assigned a), '[]'::json)" : "'[]'::json")}
  ), ${cardEvent(
    "card.created",
    "target",
    mode === "member" ? actorSql("$12::text", "$10", "$13") : actorSql("'intake'", "NULL", "$6"),
    "$8",
    undefined,
    withExtras
      ? `'[' || COALESCE((SELECT string_agg('"' || a.user_id || '"', ',' ORDER BY a.user_id) FROM assigned a), '') || ']'`
      : "'[]'"
  )}
  SELECT * FROM answer
  UNION ALL ${nothingWritten("target")}`

// $1 card, $2 destination column, $3 position (NULL: the end), $4 user, $5 grants, $6 the time,
// $7 the credential's kind, $8 its id. The old position is counted in the statement's snapshot,
// which holds the card where it was.
export const moveSql = `
  WITH card AS (
    SELECT c.id, c.project_id, p.workspace_id FROM cards c JOIN projects p ON p.id = c.project_id
    WHERE c.id = $1::uuid AND ${visibleTo("p.workspace_id", "$4::uuid", "$5")}
  ), target AS (
    SELECT col.id, col.order_epoch FROM board_columns col JOIN card ON card.project_id = col.project_id
    WHERE col.id = $2::uuid
    FOR KEY SHARE OF col
  ), written AS (
    UPDATE cards c SET column_id = t.id, sort_key = ${keyAt("t.id", "c.id", "$3::int")}, updated_at = $6::timestamptz
    FROM target t, cards old WHERE c.id = $1::uuid AND old.id = c.id AND ${epochUnchanged("t")}
    RETURNING c.*, old.column_id AS old_column_id, old.sort_key AS old_sort_key, ${ordinalOf("old")} AS old_position
  ), answer AS (
    ${writtenCard("target", "moved", "$6")}
  ), ${cardEvent(
    "card.moved",
    "card",
    actorSql("$7::text", "$4", "$8"),
    "$6",
    `json_strip_nulls(json_build_object(
      'columnId', CASE WHEN c.old_column_id <> c.column_id THEN c.old_column_id END,
      'position', CASE WHEN c.old_column_id <> c.column_id OR c.old_position <> c.position THEN c.old_position END))::text`
  )}
  SELECT * FROM answer
  UNION ALL ${nothingWritten("target")}`

// $1 card, $2 user, $3 grants, $4 the time, $5 the credential's kind, $6 its id. The event holds
// the card's last state, read in the statement's snapshot (which still has it, its labels and
// subtasks); the answer is its column, whose counts the delete changed.
export const deleteSql = `
  WITH gone AS (
    DELETE FROM cards c USING projects p
    WHERE c.id = $1::uuid AND p.id = c.project_id AND ${visibleTo("p.workspace_id", "$2::uuid", "$3")}
    RETURNING c.*, p.workspace_id, ${ordinalOf("c")} AS position
  ), ${eventInsertSql({
    name: "logged",
    from: "gone c",
    type: "'card.deleted'",
    workspace: "c.workspace_id",
    project: "c.project_id",
    card: "c.id",
    data: `concat('{"object":', ${cardJsonOf("c.position", singleCardLabels, singleCardSubtasks, singleCardAssignees, singleCardClaim("$4"))}, '}')`,
    actor: actorSql("$5::text", "$2", "$6"),
    at: "$4"
  })}
  SELECT column_id, project_id FROM gone`

/** The statements, built once: a create, a filing, and a filing under an Idempotency-Key. */
export const createSql = insertSql("member", false)
/** A create that also sets a due date or assignees: still one statement. */
export const createWithExtrasSql = insertSql("member", false, true)
export const fileSql = insertSql("filing", false)
export const fileOnceSql = insertSql("filing", true)

export type WrittenRow = CardRow & {
  found: number
  key_scale: number | null
  bucket_size: number | null
  old_column_id: string | null
  old_position: number | null
}
