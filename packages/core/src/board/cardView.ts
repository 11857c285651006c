/**
 * The card as clients see it, read in one statement with its labels, subtasks, assignees and
 * claim, so a card, a column of cards or a search page costs one query however many cards it
 * holds. The database writes each card's JSON from the Card schema's description
 * (`cardJsonOf`, jsonSql.ts): the same SQL as the board's JSON and the card events' objects, so
 * a card has one shape in SQL; rows come back as that text and are decoded by the schema
 * (`CardRow`), so it has one shape in TypeScript.
 */
import { Schema } from "effect"
import { Card, Label, Subtask } from "../domain/card.ts"
import type { Actor } from "../domain/event.ts"
import type { CardId, LabelId, ProjectId, SubtaskId } from "../domain/ids.ts"
import { singleCardClaim } from "./claimSql.ts"
import { jsonObject, type SqlJson, storedObject } from "./jsonSql.ts"
import { iso } from "./rows.ts"

/** The card as clients see it: the type of the domain's schema (`domain/card.ts`). */
export type CardView = Card
export type LabelView = Label
export type SubtaskView = Subtask

/** Key units per counting bucket (the triggers of migrations/0006_order_keys.sql use it too). */
export const ORDER_BUCKET = 128

/**
 * A card's ordinal `position` in its column: how many cards of the column sort before it. Order
 * keys are unique per column, so this is exact. The cards of the buckets before the card's are
 * summed from card_order_counts (kept by triggers in every writing transaction, so it agrees with
 * the statement's snapshot); those of its own bucket are counted, a range scan of the
 * (column, key) index (up to REBALANCE_BUCKET_SIZE entries: concurrent appends crowd a bucket).
 */
export const ordinalOf = (alias: string): string => `(${bucketsBefore(alias)} + ${withinBucket(alias)})::int`

/** The bucket of a key, exactly: a whole number divided by 128 needs no rounding. */
const bucketOf = (alias: string) => `floor(floor(${alias}.sort_key) / ${ORDER_BUCKET})`

/** The cards of `alias`'s column in the buckets before its own. */
export const bucketsBefore = (alias: string): string =>
  `(SELECT COALESCE(sum(k.delta), 0) FROM card_order_counts k WHERE k.column_id = ${alias}.column_id AND k.bucket < ${bucketOf(alias)})`

/** The cards in `alias`'s bucket (as the counts say: a few rows, without counting cards). */
export const bucketSize = (alias: string): string =>
  `(SELECT COALESCE(sum(k.delta), 0) FROM card_order_counts k WHERE k.column_id = ${alias}.column_id AND k.bucket = ${bucketOf(alias)})`

/**
 * Every card of `alias`'s column (as the counts say): the ordinal of a card appended last, whose
 * key (orderKeys.ts's lastKeyOf) is above every key of the statement's snapshot, so that all the
 * cards the snapshot sees in its column sort before it. A few rows per 128 key units, without
 * counting the cards of the last bucket, which concurrent appends crowd (they share key units).
 */
export const cardsInColumn = (alias: string): string =>
  `(SELECT COALESCE(sum(k.delta), 0) FROM card_order_counts k WHERE k.column_id = ${alias}.column_id)`

/** The cards of `alias`'s column in its own bucket, before it. */
export const withinBucket = (alias: string): string =>
  `(SELECT count(*) FROM cards o WHERE o.column_id = ${alias}.column_id
    AND o.sort_key >= ${bucketOf(alias)} * ${ORDER_BUCKET} AND o.sort_key < ${alias}.sort_key)`

/** Label `l` in its REST shape, as JSON text. */
export const labelJson = jsonObject(Label, "l", {})

/** Subtask `s` in its REST shape, as JSON text. */
export const subtaskJson = jsonObject(Subtask, "s", {})

/**
 * What a statement gives of card `c` besides its columns: its ordinal, its labels, subtasks and
 * assignees (JSON arrays' text) and its claim (JSON text or `null`). The board aggregates these
 * once for the whole board; a single card's statement reads them with `singleCard*`. They change
 * without the card's row (another card moves, a label is renamed, a lease runs out), so they are
 * the holes of the JSON the row keeps.
 */
export type CardComputed = Readonly<Record<(typeof cardHoles)[number], SqlJson>>

const cardHoles = ["position", "labels", "subtasks", "assigneeIds", "claim"] as const

/**
 * The card's JSON as its row keeps it (issue 35): the text between the holes, in columns
 * `json_1` … `json_<count>` of `cards` (migrations/0031_card_json.sql), written by the trigger
 * `board_card_json` whenever the row is, so a read concatenates four stored texts and the holes
 * instead of formatting two dozen columns per card (timestamps through to_char, text through
 * to_json): 5.7 µs a card, most of a 1,000-card board's time in PostgreSQL. The trigger's body is
 * made here from the Card schema and put in place by the migration run (`cardJsonFunctionSql`,
 * infra/Migrations.ts), which rewrites every row's parts when it changed: a new column-backed
 * field is still its schema line and its migration.
 */
export const storedCard = storedObject(Card, cardHoles)

/** The parts' columns migration 0031 made. A Card whose shape needs more must come with a migration adding them. */
export const CARD_JSON_COLUMNS = 4
if (storedCard.count > CARD_JSON_COLUMNS)
  throw new Error(
    `the Card schema's JSON needs ${storedCard.count} stored parts but cards has json_1..json_${CARD_JSON_COLUMNS}: add a migration with the missing columns and raise CARD_JSON_COLUMNS (board/cardView.ts)`
  )

/** Card `c` (a `cards` row, or a row with its columns) in its REST shape, as JSON text. */
export const cardJsonOf = (computed: CardComputed): SqlJson => storedCard.assemble((i) => `c.json_${i}`, computed)

/** The trigger function's body: each stored part of NEW, computed from the row as written. */
export const cardJsonFunctionBody = `
BEGIN
${storedCard
  .parts("NEW")
  .map((sql, i) => `  NEW.json_${i + 1} := ${sql};`)
  .join("\n")}
  RETURN NEW;
END
`

/** Puts the trigger's function in place. */
export const cardJsonFunctionSql = `CREATE OR REPLACE FUNCTION board_card_json() RETURNS trigger LANGUAGE plpgsql AS $fn$${cardJsonFunctionBody}$fn$`

/** The trigger, as migration 0031 makes it (the sync makes it again when it is gone or disabled). */
export const cardJsonTriggerSql =
  "CREATE TRIGGER cards_json BEFORE INSERT OR UPDATE ON cards FOR EACH ROW EXECUTE FUNCTION board_card_json()"

/** The labels of card `c` as a JSON array's text, in the order the REST card lists them. */
export const singleCardLabels = `'[' || COALESCE((SELECT string_agg(${labelJson}, ',' ORDER BY lower(l.name), l.id)
    FROM card_labels cl1 JOIN labels l ON l.id = cl1.label_id WHERE cl1.card_id = c.id), '') || ']'`

/** The subtasks of card `c` as a JSON array's text, in order. */
export const singleCardSubtasks = `'[' || COALESCE((SELECT string_agg(${subtaskJson}, ',' ORDER BY s.position, s.id)
    FROM subtasks s WHERE s.card_id = c.id), '') || ']'`

/** A card's assignee rows (alias `ca`) as the text of JSON strings, joined: in the order they were assigned, then by id. */
export const assigneeList = `string_agg('"' || ca.user_id || '"', ',' ORDER BY ca.created_at, ca.user_id)`

/** The assignees of card `c` as a JSON array's text. */
export const singleCardAssignees = `'[' || COALESCE((SELECT ${assigneeList}
    FROM card_assignees ca WHERE ca.card_id = c.id), '') || ']'`

/**
 * Card `c` as JSON text, its labels, subtasks, assignees and claim read for it alone. `now` is
 * the operation's time as an SQL expression (a parameter: infra/clock.ts), which decides
 * whether a lease still holds the card; `position` defaults to the count above, `claim` to the
 * live session the statement's snapshot shows (a statement that opens one gives its own).
 */
export const cardJson = (
  now: string,
  position: string = ordinalOf("c"),
  claim: SqlJson = singleCardClaim(now)
): SqlJson =>
  cardJsonOf({
    position,
    labels: singleCardLabels,
    subtasks: singleCardSubtasks,
    assigneeIds: singleCardAssignees,
    claim
  })

/**
 * `cardJson` as the select list's `card` column, typed json so the driver parses it (a parse
 * in the driver and a decode of the object cost a third of decoding the text through the schema).
 */
export const cardColumn = (now: string, position?: string): string => `(${cardJson(now, position)})::json AS card`

/** A row whose `card` column is `cardColumn`'s, decoded by the Card schema. */
export const CardRow = Schema.Struct({ card: Card })

export const toLabel = (l: {
  id: string
  projectId: string
  name: string
  color: string | null
  createdAt: string | Date
  updatedAt: string | Date
}): LabelView => ({
  id: l.id as LabelId,
  projectId: l.projectId as ProjectId,
  name: l.name,
  color: l.color,
  createdAt: iso(l.createdAt),
  updatedAt: iso(l.updatedAt)
})

export const toSubtask = (s: {
  id: string
  cardId: string
  title: string
  completed: boolean
  position: number
  createdAt: string | Date
  updatedAt: string | Date
}): SubtaskView => ({
  id: s.id as SubtaskId,
  cardId: s.cardId as CardId,
  title: s.title,
  completed: s.completed,
  position: s.position,
  createdAt: iso(s.createdAt),
  updatedAt: iso(s.updatedAt)
})

/** An actor from a session's columns, in the Actor schema's key order. */
export const sessionActor = (
  type: string,
  userId: string,
  name: string | null,
  onBehalfOf: string | null = null
): Actor =>
  ({
    type,
    userId,
    ...(name === null ? {} : { name }),
    ...(onBehalfOf === null ? {} : { onBehalfOf })
  }) as Actor
