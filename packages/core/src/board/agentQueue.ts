/**
 * The work queue (issue 19): claim the best unclaimed card of a project, with a filter. One
 * statement checks the caller's write access, picks the card and locks it, skipping cards
 * another caller holds, so concurrent callers take different cards, opens its session as
 * AgentSessions.claim does (sessionSql.ts), logs the session's event and answers the session and
 * the card: one round trip a claim (issue 35; it was six, BEGIN to COMMIT). Only when it finds
 * no card does a second look (`Access.write`, the column) say why, or answer that none waits.
 * Column kinds decide what waits (CONTRACT.md).
 */
import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { AgentSession, agentLimits } from "../domain/agentSession.ts"
import { Card } from "../domain/card.ts"
import { InvalidInput } from "../domain/errors.ts"
import type { ProjectId } from "../domain/ids.ts"
import type { QueueFilter } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { actorParams, actorSql, eventInsertSql, type EventLog } from "../events/EventLog.ts"
import { findOne, statement } from "../infra/statement.ts"
import { type Access, reachOf, scopesFor, type WriteNeeds, writableBy } from "./Access.ts"
import { cardJson, ordinalOf, storedCard } from "./cardView.ts"
import { claimJsonText, LIVE } from "./claimSql.ts"
import { leaseTimes, openSessionSql, sessionJson } from "./sessionSql.ts"

/** Queue attempts before giving up with 204: each lost race means another caller took a card. */
const QUEUE_ATTEMPTS = 20

/** The queue's order of priorities, written exactly as migrations/0013's cards_queue index has it. */
const priorityRank = `(CASE c.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END)`

/** The queue statement's parameters: who claims (the event's and the session's actor), what and when. */
interface QueueParams {
  readonly project: string
  readonly user: string
  /** The credential's reach for a claim (`reachOf`). */
  readonly reach: ReadonlyArray<string> | null
  readonly kind: string
  readonly credential: string | null
  readonly ttl: number
  readonly now: string
  readonly until: string
  /** NULL: any column of kind `todo`. */
  readonly column: string | null
  /** NULL: any labels. */
  readonly labels: ReadonlyArray<string> | null
  readonly assignee: "me" | "unassigned" | null
}

// What the answer's card is written from: the version `pick` locked. When a change committed
// after the statement's snapshot, PostgreSQL locks the card's newest version and checks the
// conditions again on it; `pick` gives that version's columns, where joining `cards` again would
// read the snapshot's older one.
const PICKED_COLUMNS = [
  "c.id",
  "c.column_id",
  "c.sort_key",
  ...Array.from({ length: storedCard.count }, (_, i) => `c.json_${i + 1}`)
].join(", ")

// One statement takes the next card (issue 35: a claim was six round trips, BEGIN to COMMIT).
// `pick`: the best unclaimed card, locked; cards another queue call has locked are skipped, so
// concurrent callers take different cards. The caller must be able to write the project
// (`writableBy`: a role that works the boards, the scopes, a project not archived), and a column
// must be the project's (`c.project_id` with `c.column_id`). Within one column the order is the
// cards_queue index's, so the statement walks that index and stops at the first card it can
// take; across columns it sorts the project's cards. `NOT c.claimed` (the flag the agent_sessions
// trigger keeps, migrations/0013) matches the index's predicate, so the walk never passes the
// column's claimed cards (nor archived ones: `archived_at IS NULL` too); the lease check stays
// for correctness. So a card whose lease has passed is left to the queue until the sweep marks
// its session stale (about a second); a direct claim checks the lease itself and takes it at once.
// Without a column the queue takes work waiting only: cards in `todo` columns (CONTRACT.md,
// Column kinds), never one under way or done, whatever the columns are called or where they sit.
// No lease to expire before the session opens, unlike a direct claim: the card was taken
// unclaimed (`NOT c.claimed` on its latest version, which `pick` locked), so no live session of
// it exists, passed or not, and one opened meanwhile cannot commit before this does (the session
// trigger's UPDATE of the card waits for the lock). `opened`: the session, as sessionSql.ts's
// open writes it; nothing when a live session holds the card after all (the unique index's
// guard), and then the caller runs the statement again. A claim committed after the snapshot
// does not get there: it set the card's flag, which `pick` checks again on the version it locks.
// So only a flag made wrong by hand (false beside a live session) does, at every attempt on
// that card, and the queue answers 204 until the sweep ends that session (about a second).
// `answer`: the session's JSON (the AgentSession schema's) and the card's, its claim the new
// session (the snapshot cannot see it yet), and the session's event logged from them.
const queueSql = (oneColumn: boolean) =>
  statement<QueueParams>(
    (p) => `
  WITH pick AS MATERIALIZED (
    SELECT ${PICKED_COLUMNS}, p.workspace_id FROM cards c
    JOIN projects p ON p.id = c.project_id
    ${oneColumn ? "" : "JOIN board_columns col ON col.id = c.column_id"}
    WHERE c.project_id = ${p.project}::uuid AND ${writableBy("p.workspace_id", `${p.user}::uuid`, p.reach, "p")}
      AND ${oneColumn ? `c.column_id = ${p.column}::uuid` : `${p.column}::uuid IS NULL AND col.kind = 'todo'`}
      AND (${p.labels}::uuid[] IS NULL OR (SELECT count(*) FROM card_labels cl WHERE cl.card_id = c.id AND cl.label_id = ANY(${p.labels}::uuid[])) = cardinality(${p.labels}::uuid[]))
      AND (${p.assignee}::text IS NULL
        OR (${p.assignee} = 'me' AND EXISTS (SELECT 1 FROM card_assignees a WHERE a.card_id = c.id AND a.user_id = ${p.user}::uuid))
        OR (${p.assignee} = 'unassigned' AND NOT EXISTS (SELECT 1 FROM card_assignees a WHERE a.card_id = c.id)))
      AND NOT c.claimed AND c.archived_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM agent_sessions s WHERE s.card_id = c.id AND s.status IN ${LIVE} AND s.lease_expires_at > ${p.now}::timestamptz)
    ORDER BY ${oneColumn ? `c.column_id, ${priorityRank}, c.sort_key, c.id` : `${priorityRank}, col.position, col.id, c.sort_key, c.id`}
    LIMIT 1
    FOR NO KEY UPDATE OF c SKIP LOCKED
  ), actor AS MATERIALIZED (
    SELECT ${actorSql(`${p.kind}::text`, p.user, p.credential)} AS j
  ), opened AS (
    ${openSessionSql({ card: "pick.id", project: `${p.project}::uuid`, user: p.user, kind: p.kind, credential: p.credential, ttl: p.ttl, now: p.now, until: p.until, actor: "actor.j", from: "pick CROSS JOIN actor" })}
  ), answer AS MATERIALIZED (
    SELECT s.card_id, s.project_id, c.workspace_id, ${sessionJson} AS session, ${cardJson(p.now, ordinalOf("c"), claimJsonText)} AS card
    FROM opened s JOIN pick c ON c.id = s.card_id
  ), ${eventInsertSql({
    name: "logged",
    from: "answer e CROSS JOIN actor",
    type: "'agent_session.created'",
    workspace: "e.workspace_id",
    project: "e.project_id",
    card: "e.card_id",
    data: `concat('{"object":', e.session, '}')`,
    actor: "actor.j",
    at: p.now
  })}
  SELECT (SELECT count(*) FROM pick)::int AS picked, e.session::json AS session, e.card::json AS card
  FROM (SELECT 1) one LEFT JOIN answer e ON true`
  )
const queueInColumn = queueSql(true)
const queueInProject = queueSql(false)

/** A queue statement's row: whether it found a card, and, when it claimed it, the session and the card. */
const QueueRow = Schema.Struct({
  picked: Schema.Number,
  session: Schema.NullOr(AgentSession),
  card: Schema.NullOr(Card)
})

const CLAIM: WriteNeeds & { readonly action: string } = { action: "claim cards" }

/** AgentSessions.claimNext: the session and its card, or undefined when no card matches. */
export const claimNextCard = (deps: {
  readonly sql: SqlClient.SqlClient
  readonly access: Access["Service"]
  readonly events: EventLog["Service"]
}) => {
  const { sql, access, events } = deps
  const inColumn = findOne(sql, queueInColumn, QueueRow)
  const inProject = findOne(sql, queueInProject, QueueRow)
  return Effect.fn("AgentSessions.claimNext")(function* (
    principal: Principal,
    projectId: ProjectId,
    filter: QueueFilter
  ) {
    // the second look, when the statement took nothing: a refusal (404, 403, 409, 400), or none waits
    const noCard = Effect.gen(function* () {
      const project = yield* access.write(principal, "project", projectId, CLAIM)
      if (filter.columnId !== undefined) {
        const column = yield* access.resolve(principal, "column", filter.columnId)
        if (column.projectId !== project.projectId) {
          return yield* new InvalidInput({
            message: `columnId: column ${filter.columnId} belongs to another project`
          })
        }
      }
      return undefined
    })
    const [kind, , credential] = actorParams(principal)
    const labelIds = filter.labelIds ?? []
    const ttl = filter.ttlSeconds ?? agentLimits.ttlDefault
    for (let attempt = 0; attempt < QUEUE_ATTEMPTS; attempt++) {
      const times = yield* leaseTimes(ttl)
      const row = yield* (filter.columnId === undefined ? inProject : inColumn)({
        project: projectId,
        user: principal.userId,
        // read as well as write: the answer carries the card
        reach: reachOf(principal, ["read", ...scopesFor(CLAIM)]),
        kind,
        credential,
        ttl,
        now: times.now,
        until: times.until,
        column: filter.columnId ?? null,
        labels: labelIds.length === 0 ? null : labelIds,
        assignee: filter.assignee ?? null
      }).pipe(Effect.orDie)
      if (row.picked === 0) return yield* noCard
      if (row.session !== null && row.card !== null) {
        events.committed(projectId)
        return { session: row.session, card: row.card }
      }
      // a live session held the card after all (see `opened` above): try again
    }
    return yield* noCard
  })
}
