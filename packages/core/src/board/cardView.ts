/**
 * The card as clients see it, read in one statement with its labels and subtasks, so a card,
 * a column of cards or a search page costs one query however many cards it holds.
 */
import type { AgentSessionId } from "../domain/agentSession.ts"
import type { Card, Label, Subtask } from "../domain/card.ts"
import type { Actor } from "../domain/event.ts"
import type { Priority } from "../domain/enums.ts"
import type { CardId, ColumnId, IntakeTokenId, LabelId, ProjectId, SubtaskId, UserId } from "../domain/ids.ts"
import { claimColumn } from "./claimSql.ts"
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
 * the statement's snapshot); those of its own bucket are counted, an index-only range scan.
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

/** The cards of `alias`'s column in its own bucket, before it. */
export const withinBucket = (alias: string): string =>
  `(SELECT count(*) FROM cards o WHERE o.column_id = ${alias}.column_id
    AND o.sort_key >= ${bucketOf(alias)} * ${ORDER_BUCKET} AND o.sort_key < ${alias}.sort_key)`

/** Card `alias`'s assignees as a JSON array of ids, in the order they were assigned (then by id). */
export const assigneesOf = (alias: string): string =>
  `COALESCE((SELECT json_agg(ca.user_id ORDER BY ca.created_at, ca.user_id) FROM card_assignees ca WHERE ca.card_id = ${alias}.id), '[]'::json)`

/**
 * Select list for `FROM cards c`; append WHERE / ORDER BY. `now` is the operation's time as an SQL
 * expression (a parameter: infra/clock.ts), which decides whether a lease still holds the card;
 * `position` defaults to the count above; `assignees` to the card's rows (a statement that writes
 * them gives what it wrote: its own snapshot does not hold them).
 */
export const cardColumns = (
  now: string,
  position: string = ordinalOf("c"),
  assignees: string = assigneesOf("c")
): string => `
  c.id, c.project_id, c.column_id, ${position} AS position, c.ref, c.title, c.description, c.priority,
  c.source, c.intake_token_id, c.created_at, c.updated_at, c.due_at, ${assignees} AS assignee_ids,
  COALESCE((SELECT json_agg(json_build_object('id', l.id, 'projectId', l.project_id, 'name', l.name, 'color', l.color,
      'createdAt', l.created_at, 'updatedAt', l.updated_at) ORDER BY lower(l.name), l.id)
    FROM card_labels cl JOIN labels l ON l.id = cl.label_id WHERE cl.card_id = c.id), '[]'::json) AS labels,
  COALESCE((SELECT json_agg(json_build_object('id', s.id, 'cardId', s.card_id, 'title', s.title, 'completed', s.completed,
      'position', s.position, 'createdAt', s.created_at, 'updatedAt', s.updated_at) ORDER BY s.position, s.id)
    FROM subtasks s WHERE s.card_id = c.id), '[]'::json) AS subtasks,
  ${claimColumn(now)} AS claim`

export interface CardRow {
  readonly id: string
  readonly project_id: string
  readonly column_id: string
  readonly position: number
  readonly ref: string
  readonly title: string
  readonly description: string | null
  readonly priority: Priority
  readonly source: string
  readonly intake_token_id: string | null
  readonly created_at: Date
  readonly updated_at: Date
  readonly due_at: Date | null
  readonly assignee_ids: unknown
  readonly labels: unknown
  readonly subtasks: unknown
  readonly claim: unknown
}

const parseJson = <T>(v: unknown): T => (typeof v === "string" ? JSON.parse(v) : v) as T

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

export const toCard = (r: CardRow): CardView => ({
  id: r.id as CardId,
  projectId: r.project_id as ProjectId,
  columnId: r.column_id as ColumnId,
  position: r.position,
  ref: r.ref,
  title: r.title,
  description: r.description,
  priority: r.priority,
  labels: parseJson<Array<Parameters<typeof toLabel>[0]>>(r.labels).map(toLabel),
  subtasks: parseJson<Array<Parameters<typeof toSubtask>[0]>>(r.subtasks).map(toSubtask),
  assigneeIds: parseJson<Array<UserId>>(r.assignee_ids),
  dueAt: r.due_at === null ? null : iso(r.due_at),
  source: r.source,
  intakeTokenId: r.intake_token_id as IntakeTokenId | null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  claim: toClaim(r.claim)
})

/** An actor from a session's columns, in the Actor schema's key order. */
export const sessionActor = (type: string, userId: string, name: string | null): Actor =>
  (name === null ? { type, userId } : { type, userId, name }) as Actor

const toClaim = (v: unknown): Card["claim"] => {
  if (v === null || v === undefined) return null
  const c = parseJson<{
    sessionId: string
    actorType: string
    userId: string
    name: string | null
    leaseExpiresAt: string
  }>(v)
  return {
    sessionId: c.sessionId as AgentSessionId,
    actor: sessionActor(c.actorType, c.userId as UserId, c.name),
    leaseExpiresAt: iso(c.leaseExpiresAt)
  }
}
