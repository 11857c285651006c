/**
 * The work queue (issue 19): claim the best unclaimed card of a project, with a filter. One
 * statement checks the caller's write access, picks the card and locks it, skipping cards
 * another caller holds, so concurrent callers take different cards; the claim then opens its
 * session in the same transaction as AgentSessions.claim does (sessionSql.ts). Only when it finds
 * no card does a second look (`Access.write`, the column) say why, or answer that none waits:
 * a claim costs no round trips of its own for the access rule (issue 35). Column kinds decide
 * what waits (CONTRACT.md).
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { agentLimits } from "../domain/agentSession.ts"
import { InvalidInput } from "../domain/errors.ts"
import type { ProjectId } from "../domain/ids.ts"
import type { QueueFilter } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import type { EventLog } from "../events/EventLog.ts"
import { type Access, reachOf, scopesFor, type WriteNeeds, writableBy } from "./Access.ts"
import type { Cards } from "./Cards.ts"
import { LIVE } from "./claimSql.ts"
import { leaseTimes, type SessionStatements, toAgentSession } from "./sessionSql.ts"

/** Queue attempts before giving up with 204: each lost race means another caller took a card. */
const QUEUE_ATTEMPTS = 20

/** The queue's order of priorities, written exactly as migrations/0013's cards_queue index has it. */
const priorityRank = `(CASE c.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END)`

// $1 project, $2 user, $3 the credential's reach for a claim (`reachOf`), $4 the time, $5 column
// (NULL: any), $6 labels (NULL: any), $7 assignee filter ('me' | 'unassigned' | NULL). The best
// unclaimed card, locked; cards another queue call has locked are skipped, so concurrent callers
// take different cards. The caller must be able to write the project (`writableBy`: a role that
// works the boards, the scopes, a project not archived), and a column must be the project's
// (`c.project_id = $1` with `c.column_id = $5`). Within one column the order is the cards_queue index's, so the statement walks that index and stops at
// the first card it can take; across columns it sorts the project's cards. `NOT c.claimed` (the
// flag the agent_sessions trigger keeps, migrations/0013) matches the index's predicate, so the
// walk never passes the column's claimed cards (nor archived ones: `archived_at IS NULL` too); the lease check stays for correctness. So a card
// whose lease has passed is left to the queue until the sweep marks its session stale (about a
// second); a direct claim checks the lease itself and takes it at once.
// Without a column the queue takes work waiting only: cards in `todo` columns (CONTRACT.md,
// Column kinds), never one under way or done, whatever the columns are called or where they sit.
const nextCardSql = (oneColumn: boolean) => `
  SELECT c.id, p.workspace_id FROM cards c
  JOIN projects p ON p.id = c.project_id
  ${oneColumn ? "" : "JOIN board_columns col ON col.id = c.column_id"}
  WHERE c.project_id = $1::uuid AND ${writableBy("p.workspace_id", "$2::uuid", "$3", "p")}
    AND ${oneColumn ? "c.column_id = $5::uuid" : "$5::uuid IS NULL AND col.kind = 'todo'"}
    AND ($6::uuid[] IS NULL OR (SELECT count(*) FROM card_labels cl WHERE cl.card_id = c.id AND cl.label_id = ANY($6::uuid[])) = cardinality($6::uuid[]))
    AND ($7::text IS NULL
      OR ($7 = 'me' AND EXISTS (SELECT 1 FROM card_assignees a WHERE a.card_id = c.id AND a.user_id = $2::uuid))
      OR ($7 = 'unassigned' AND NOT EXISTS (SELECT 1 FROM card_assignees a WHERE a.card_id = c.id)))
    AND NOT c.claimed AND c.archived_at IS NULL
    AND NOT EXISTS (SELECT 1 FROM agent_sessions s WHERE s.card_id = c.id AND s.status IN ${LIVE} AND s.lease_expires_at > $4::timestamptz)
  ORDER BY ${oneColumn ? `c.column_id, ${priorityRank}, c.sort_key, c.id` : `${priorityRank}, col.position, col.id, c.sort_key, c.id`}
  LIMIT 1
  FOR NO KEY UPDATE OF c SKIP LOCKED`
const nextInColumnSql = nextCardSql(true)
const nextInProjectSql = nextCardSql(false)

const CLAIM: WriteNeeds & { readonly action: string } = { action: "claim cards" }

/** AgentSessions.claimNext: the session and its card, or undefined when no card matches. */
export const claimNextCard = (deps: {
  readonly sql: SqlClient.SqlClient
  readonly access: Access["Service"]
  readonly events: EventLog["Service"]
  readonly cards: Cards["Service"]
  readonly statements: SessionStatements
}) => {
  const { sql, access, events, cards } = deps
  const { open, sessionEvent } = deps.statements
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
    const labelIds = filter.labelIds ?? []
    const ttl = filter.ttlSeconds ?? agentLimits.ttlDefault
    for (let attempt = 0; attempt < QUEUE_ATTEMPTS; attempt++) {
      const times = yield* leaseTimes(ttl)
      const taken = yield* events.changing(
        Effect.gen(function* () {
          const [card] = yield* sql
            .unsafe<{ id: string; workspace_id: string }>(
              filter.columnId === undefined ? nextInProjectSql : nextInColumnSql,
              [
                projectId,
                principal.userId,
                // read as well as write: the answer carries the card
                reachOf(principal, ["read", ...scopesFor(CLAIM)]),
                times.now,
                filter.columnId ?? null,
                labelIds.length === 0 ? null : labelIds,
                filter.assignee ?? null
              ]
            )
            .pipe(Effect.orDie)
          if (card === undefined) return "none" as const
          // No lease to expire first, unlike a direct claim: the card was taken unclaimed (`NOT
          // c.claimed` on its latest version, which the statement locked), so no live session of
          // it exists, passed or not, and one opened meanwhile cannot commit before this does (the
          // session trigger's UPDATE of the card waits for the lock). A flag made wrong by hand
          // (false beside a live session) makes the open below lose on that card at every attempt,
          // so the queue answers 204 until the sweep ends that session (about a second).
          const opened = yield* open(principal, card.id, projectId, ttl, times.now, times.until)
          // a claim committed after this statement's snapshot: take the next card
          if (opened === undefined) return "lost" as const
          const scoped = { ...opened, workspace_id: card.workspace_id }
          yield* events.record(principal, sessionEvent("agent_session.created", scoped))
          const [view] = yield* cards.load([card.id])
          return { session: toAgentSession(scoped), card: view! }
        })
      )
      if (taken === "none") return yield* noCard
      if (taken !== "lost") return taken
    }
    return yield* noCard
  })
}
