/**
 * The one-statement writes of cards (see Cards.ts and orderKeys.ts): the access rule folded in,
 * the destination column locked FOR KEY SHARE, the key drawn between the neighbours of the
 * statement's own snapshot, and the card answered in its REST shape from what was written, as
 * the JSON text that also goes into its event (cardView.ts's `cardJsonOf`: one description of
 * the card, from its schema). Parameters are named (infra/statement.ts).
 * The access rule is Access.ts's `writableBy` (a role that works the boards, a project not
 * archived); a filing, too, lands only in a project that is not archived.
 * A statement that wrote nothing answers one row with `card` NULL and `found` telling whether
 * its target was there (then its snapshot was stale: run it again) or not (then say why).
 */
import { Schema } from "effect"
import { Card } from "../domain/card.ts"
import type { Priority } from "../domain/enums.ts"
import { actorSql, eventInsertSql } from "../events/EventLog.ts"
import { type Statement, statement } from "../infra/statement.ts"
import { writableBy } from "./Access.ts"
import {
  bucketsBefore,
  bucketSize,
  cardJson,
  cardJsonOf,
  cardsInColumn,
  ordinalOf,
  singleCardAssignees,
  singleCardLabels,
  singleCardSubtasks,
  withinBucket
} from "./cardView.ts"
import { singleCardClaim } from "./claimSql.ts"
import { epochUnchanged, keyAt, lastKeyOf } from "./orderKeys.ts"

/** What the event's actor is read from: the user, the credential's kind and its id. */
interface ActorParams {
  readonly user: string
  /** Access.ts's `reachOf`: NULL for a credential that reaches all the user's workspaces. */
  readonly grants: ReadonlyArray<string> | null
  readonly kind: string
  readonly credential: string | null
}

/** A card's fields as a create or a filing writes them, and the time (infra/clock.ts). */
interface InsertParams {
  readonly column: string
  readonly title: string
  readonly description: string | null
  readonly priority: Priority
  readonly source: string
  readonly intakeToken: string | null
  readonly createdBy: string | null
  readonly now: string
}

/** A member's create: the project it names, and who acts. */
export interface CreateParams extends InsertParams, ActorParams {
  readonly project: string
}

/** A create that names a due date or assignees (uuids, distinct). */
export interface CreateWithExtrasParams extends CreateParams {
  readonly dueAt: string | null
  readonly assignees: ReadonlyArray<string>
}

/** A filing through intake token `intakeToken`. */
export type FileParams = InsertParams

/** A filing under an Idempotency-Key. */
export interface FileOnceParams extends FileParams {
  readonly idempotencyKey: string
}

/** A move to `to` at `position` (NULL: the end). */
export interface MoveParams extends ActorParams {
  readonly card: string
  readonly to: string
  readonly position: number | null
  readonly now: string
}

export interface DeleteParams extends ActorParams {
  readonly card: string
  readonly now: string
}

// The end of a statement that wrote a card: the card's JSON text, the count of rows its target
// CTE found, its key's scale and how many cards its counting bucket holds (both say when the
// column wants a rebalance). `position` counts in the statement's snapshot, which holds no
// version of a created card and the old version of a moved one (`moved` subtracts it). A created
// card is appended (lastKeyOf): its position is the count of its column's cards. What a new card
// cannot have yet (labels, subtasks, a claim) is written as such; `assignees` is the JSON text
// of what the statement assigned (a moved card's are its rows).
// `b` counts the position once: `OFFSET 0` keeps the planner from pulling the subquery up, which
// would copy the counts into each of the position's two uses (the column and the card's JSON).
const writtenCard = (found: string, count: "created" | "moved", now: string, assignees: string) => {
  const counted =
    count === "created"
      ? cardsInColumn("c")
      : `${bucketsBefore("c")} + ${withinBucket("c")} - (c.old_column_id = c.column_id AND c.old_sort_key < c.sort_key)::int`
  const card =
    count === "created"
      ? cardJsonOf({
          position: "b.position",
          labels: "'[]'",
          subtasks: "'[]'",
          assigneeIds: assignees,
          claim: "'null'"
        })
      : cardJsonOf({
          position: "b.position",
          labels: singleCardLabels,
          subtasks: singleCardSubtasks,
          assigneeIds: assignees,
          claim: singleCardClaim(now)
        })
  return `
  SELECT (SELECT count(*) FROM ${found})::int AS found, c.id, c.project_id, c.column_id, b.position,
    (${card})::json AS card, scale(c.sort_key) AS key_scale, ${bucketSize("c")}::int AS bucket_size,
    ${count === "moved" ? "c.old_column_id" : "NULL::uuid"} AS old_column_id,
    ${count === "moved" ? "c.old_position" : "NULL::int"} AS old_position
  FROM written c CROSS JOIN LATERAL (SELECT (${counted})::int AS position OFFSET 0) b`
}

/** The columns of writtenCard()'s row after `found`. */
const WRITTEN_COLUMNS = 9

// The card's event, logged in the same statement from the answer's row (alias c): `data` holds
// the card as the answer wrote it, `scope` names the CTE that carries the workspace id.
const cardEvent = (
  type: "card.created" | "card.moved",
  scope: string,
  actor: string,
  at: string,
  previous?: string,
  cause?: string
) =>
  eventInsertSql({
    name: "logged",
    from: `answer c CROSS JOIN ${scope} w`,
    type: `'${type}'`,
    workspace: "w.workspace_id",
    project: "c.project_id",
    card: "c.id",
    data: `concat('{"object":', c.card${previous === undefined ? "" : `, ',"previous":', ${previous}`}${
      cause === undefined ? "" : `, CASE WHEN ${cause}::text IS NULL THEN '' ELSE ',"cause":' || ${cause}::text END`
    }, '}')`,
    actor,
    at
  })

// The "nothing written" row: the columns of writtenCard(), NULL but for `found`.
const nothingWritten = (found: string) => `
  SELECT (SELECT count(*) FROM ${found})::int, ${Array.from({ length: WRITTEN_COLUMNS }, () => "NULL").join(", ")}
  WHERE NOT EXISTS (SELECT 1 FROM written)`

type AllInsertParams = CreateWithExtrasParams & FileOnceParams

// A member's create names the project and acts as the member; a filing names only the column
// (its token's project) and acts as the intake token. A create `withExtras` (one that names a
// due date or assignees) also writes those; a target whose workspace lacks one of the assignees
// is no target: nothing is written, and Cards.create names the reason. A filing answers nothing
// about the card (the channel is blind), but its event carries the card.
const lastKey = lastKeyOf("t.id", "last")

const insertSql = (mode: "member" | "filing", claim: boolean, withExtras = false) =>
  statement<AllInsertParams>(
    (p) => `
  WITH target AS (
    SELECT col.id, col.project_id, col.order_epoch, p.ref_prefix, p.workspace_id
    FROM board_columns col JOIN projects p ON p.id = col.project_id
    WHERE col.id = ${p.column}::uuid AND ${
      mode === "member"
        ? `col.project_id = ${p.project}::uuid AND ${writableBy("p.workspace_id", `${p.user}::uuid`, p.grants)}`
        : `col.project_id = (SELECT project_id FROM intake_tokens WHERE id = ${p.intakeToken}::uuid) AND p.archived_at IS NULL`
    }${
      withExtras
        ? ` AND NOT EXISTS (SELECT 1 FROM unnest(${p.assignees}::uuid[]) u(id) WHERE NOT EXISTS (
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
    SELECT ${p.intakeToken}::uuid, ${p.idempotencyKey}, gen_random_uuid(), ${p.now}::timestamptz FROM ready
    ON CONFLICT DO NOTHING RETURNING card_id
  )`
      : ""
  }, written AS (
    INSERT INTO cards (${claim ? "id, " : ""}project_id, column_id, sort_key, ref_number, ref, title, description, priority, source, intake_token_id, created_by, created_at, updated_at${withExtras ? ", due_at" : ""})
    SELECT ${claim ? "claim.card_id, " : ""}t.project_id, t.id, ${lastKey.next}, r.n, t.ref_prefix || '-' || r.n,
      ${p.title}, ${p.description}, ${p.priority}, ${p.source}, ${p.intakeToken}::uuid, ${p.createdBy}::uuid,
      ${p.now}::timestamptz, ${p.now}::timestamptz${withExtras ? `, ${p.dueAt}::timestamptz` : ""}
    FROM ready t ${claim ? "CROSS JOIN claim" : ""} ${lastKey.join}
      CROSS JOIN LATERAL (SELECT board_next_ref(t.project_id)::int AS n) r
    RETURNING *
  )${
    withExtras
      ? `, assigned AS (
    INSERT INTO card_assignees (card_id, user_id, created_at)
    SELECT w.id, u.id, ${p.now}::timestamptz FROM written w CROSS JOIN unnest(${p.assignees}::uuid[]) u(id)
    RETURNING user_id
  )`
      : ""
  }, answer AS (
    ${writtenCard(
      "target",
      "created",
      p.now,
      withExtras
        ? `'[' || COALESCE((SELECT string_agg('"' || a.user_id || '"', ',' ORDER BY a.user_id) FROM assigned a), '') || ']'`
        : "'[]'"
    )}
  ), ${cardEvent(
    "card.created",
    "target",
    mode === "member" ? actorSql(`${p.kind}::text`, p.user, p.credential) : actorSql("'intake'", "NULL", p.intakeToken),
    p.now
  )}
  SELECT * FROM answer
  UNION ALL ${nothingWritten("target")}`
  )

/** The service's move: only a card whose column is of one of `fromKinds` (forward only). */
export interface SystemMoveParams extends MoveParams {
  readonly fromKinds: ReadonlyArray<string>
  /** The event's `data.cause` as JSON text (a forge's automation: the pull request), or null. */
  readonly cause: string | null
}

// The old position is counted in the statement's snapshot, which holds the card where it was. An
// archived card is no target (Cards.move says why: restore it first). A member's move checks access in the statement; the service's own (a forge's automation, issue
// 31) has no member: its actor is `kind` alone (`forge:github`), it finds the card by id, and it
// moves it only from a column of `fromKinds`, checked again on the row it updates (so of two
// such moves at once, the second finds the card moved and writes nothing).
const moveStatement = (mode: "member" | "system") =>
  statement<SystemMoveParams>((p) => {
    const fromKind = (alias: string) =>
      mode === "system"
        ? ` AND (SELECT k.kind FROM board_columns k WHERE k.id = ${alias}.column_id) = ANY(${p.fromKinds}::text[])`
        : ""
    return `
  WITH card AS (
    SELECT c.id, c.project_id, p.workspace_id FROM cards c JOIN projects p ON p.id = c.project_id
    WHERE c.id = ${p.card}::uuid AND c.archived_at IS NULL${mode === "member" ? ` AND ${writableBy("p.workspace_id", `${p.user}::uuid`, p.grants)}` : fromKind("c")}
  ), target AS (
    SELECT col.id, col.order_epoch FROM board_columns col JOIN card ON card.project_id = col.project_id
    WHERE col.id = ${p.to}::uuid
    FOR KEY SHARE OF col
  ), written AS (
    UPDATE cards c SET column_id = t.id, sort_key = ${keyAt("t.id", "c.id", `${p.position}::int`)}, updated_at = ${p.now}::timestamptz
    FROM target t, cards old WHERE c.id = ${p.card}::uuid AND old.id = c.id AND ${epochUnchanged("t")}${fromKind("c")}
    RETURNING c.*, old.column_id AS old_column_id, old.sort_key AS old_sort_key, ${ordinalOf("old")} AS old_position
  ), answer AS (
    ${writtenCard("target", "moved", p.now, singleCardAssignees)}
  ), ${cardEvent(
    "card.moved",
    "card",
    mode === "member" ? actorSql(`${p.kind}::text`, p.user, p.credential) : actorSql(`${p.kind}::text`, "NULL", "NULL"),
    p.now,
    `json_strip_nulls(json_build_object(
      'columnId', CASE WHEN c.old_column_id <> c.column_id THEN c.old_column_id END,
      'position', CASE WHEN c.old_column_id <> c.column_id OR c.old_position <> c.position THEN c.old_position END))::text`,
    mode === "system" ? p.cause : undefined
  )}
  SELECT * FROM answer
  UNION ALL ${nothingWritten("target")}`
  })

export const moveSql = moveStatement("member") as Statement<MoveParams>
/** The service's move (no member: `user`, `grants` and `credential` are unused). */
export const systemMoveSql = moveStatement("system")

// The event holds the card's last state, read in the statement's snapshot (which still has it,
// its labels and subtasks); the answer is its column, whose counts the delete changed.
export const deleteSql = statement<DeleteParams>(
  (p) => `
  WITH gone AS (
    DELETE FROM cards c USING projects p
    WHERE c.id = ${p.card}::uuid AND p.id = c.project_id AND ${writableBy("p.workspace_id", `${p.user}::uuid`, p.grants)}
    RETURNING c.*, p.workspace_id, ${ordinalOf("c")} AS position
  ), ${eventInsertSql({
    name: "logged",
    from: "gone c",
    type: "'card.deleted'",
    workspace: "c.workspace_id",
    project: "c.project_id",
    card: "c.id",
    data: `concat('{"object":', ${cardJson(p.now, "c.position")}, '}')`,
    actor: actorSql(`${p.kind}::text`, p.user, p.credential),
    at: p.now
  })}
  SELECT column_id, project_id FROM gone`
)

/** The statements, built once: a create, a filing, and a filing under an Idempotency-Key. */
export const createSql = insertSql("member", false) as Statement<CreateParams>
/** A create that also sets a due date or assignees: still one statement. */
export const createWithExtrasSql = insertSql("member", false, true) as Statement<CreateWithExtrasParams>
export const fileSql = insertSql("filing", false) as Statement<FileParams>
export const fileOnceSql = insertSql("filing", true) as Statement<FileOnceParams>

/** The row of a write: what Cards.ts reads of it (the card; what to tell and whether to rebalance). */
export const WrittenRow = Schema.Struct({
  found: Schema.Number,
  card: Schema.NullOr(Card),
  key_scale: Schema.NullOr(Schema.Number),
  bucket_size: Schema.NullOr(Schema.Number),
  old_column_id: Schema.NullOr(Schema.String)
})
export type WrittenRow = typeof WrittenRow.Type

/** The row of a delete: the column and project it changed. */
export const DeletedRow = Schema.Struct({ column_id: Schema.String, project_id: Schema.String })
