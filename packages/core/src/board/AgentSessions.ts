/**
 * Claims, agent sessions and the work queue (issue 19). An agent claims a card by opening a
 * session on it with a lease; the session is live (`active`, `awaitingInput`, `error`) until it
 * ends (`complete`, `released`) or its lease passes (`stale`). A live session whose lease has not
 * passed holds its card: at most one per card, which the partial unique index on live sessions
 * guarantees (migrations/0013_agent_sessions.sql), whatever the requests race.
 *
 * Expiry needs no request: a sweep in every server marks passed leases stale each second (rows
 * taken FOR UPDATE SKIP LOCKED, so instances share the work; Jobs.ts runs it) and logs
 * `agent_session.stale`.
 * Correctness does not wait for it: every claim first marks its card's passed leases stale in its
 * own transaction, and every read shows a claim only while its lease is unexpired (claimSql.ts).
 *
 * The owner of a session is its actor: the user and the credential acting (an API key, an OAuth
 * grant, a web session). The same user through another credential is another actor, so an agent
 * holding a card through an OAuth grant is not taken over by its person's API key.
 *
 * Every change runs with its events in one transaction (`EventLog.withEvents`); a refusal that
 * follows a change (a heartbeat that found its lease passed, which marks it stale) commits the
 * change and its event first, then fails.
 *
 * This file is the service and its writes; beside it: the rows and shared statements
 * (sessionSql.ts), the reads (sessionReads.ts), the work queue's statement and loop
 * (agentQueue.ts), the lease sweep's pass (leaseSweep.ts).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import {
  type Activity,
  type ActivityType,
  type AgentSession,
  type AgentSessionDetail,
  type AgentSessionStatus,
  type AgentSessionId,
  agentLimits
} from "../domain/agentSession.ts"
import {
  Conflict,
  type Forbidden,
  type InvalidInput,
  type NotFound,
  type WorkspaceNotGranted
} from "../domain/errors.ts"
import type { ForgeProvider } from "../domain/forge.ts"
import type { CardId, ProjectId } from "../domain/ids.ts"
import type { ActivityInput, ClaimInput, QueueFilter, ReleaseInput } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { actorParams, EventLog, type EventInput } from "../events/EventLog.ts"
import { Access, checkRow, membershipOf, projectStateColumns, type Role } from "./Access.ts"
import { claimNextCard } from "./agentQueue.ts"
import { Cards } from "./Cards.ts"
import type { CardView } from "./cardView.ts"
import { LIVE } from "./claimSql.ts"
import { leaseSweep } from "./leaseSweep.ts"
import { type ActivityPage, sessionReads } from "./sessionReads.ts"
import { iso } from "./rows.ts"
import {
  type ActivityRow,
  leaseTimes,
  ownedBy,
  SESSION_COLUMNS,
  type Scoped,
  type SessionRow,
  sessionStatements,
  toActivity,
  toAgentSession
} from "./sessionSql.ts"

export type { ActivityPage }
export { toAgentSession }

type AccessError = NotFound | WorkspaceNotGranted
/** A write also answers the role (403) and an archived project (409, a Conflict). */
type WriteError = AccessError | Forbidden

export class AgentSessions extends Context.Service<
  AgentSessions,
  {
    /** Claims a card: a new session (`created`), or the caller's own live one back with its lease renewed. */
    readonly claim: (
      principal: Principal,
      cardId: CardId,
      input: ClaimInput
    ) => Effect.Effect<
      { readonly created: boolean; readonly session: AgentSession },
      InvalidInput | Conflict | WriteError
    >
    /** Claims the best unclaimed card of a project; undefined when none matches. */
    readonly claimNext: (
      principal: Principal,
      projectId: ProjectId,
      filter: QueueFilter
    ) => Effect.Effect<
      { readonly session: AgentSession; readonly card: CardView } | undefined,
      InvalidInput | Conflict | WriteError
    >
    readonly heartbeat: (
      principal: Principal,
      sessionId: AgentSessionId
    ) => Effect.Effect<AgentSession, Conflict | WriteError>
    readonly report: (
      principal: Principal,
      sessionId: AgentSessionId,
      activity: ActivityInput
    ) => Effect.Effect<Activity, Conflict | WriteError>
    readonly release: (
      principal: Principal,
      sessionId: AgentSessionId,
      input: ReleaseInput
    ) => Effect.Effect<AgentSession, InvalidInput | Conflict | WriteError>
    readonly get: (
      principal: Principal,
      sessionId: AgentSessionId,
      page: ActivityPage
    ) => Effect.Effect<AgentSessionDetail, InvalidInput | AccessError>
    readonly forCard: (principal: Principal, cardId: CardId) => Effect.Effect<ReadonlyArray<AgentSession>, AccessError>
    readonly forProject: (
      principal: Principal,
      projectId: ProjectId,
      status?: AgentSessionStatus
    ) => Effect.Effect<ReadonlyArray<AgentSession>, AccessError>
    /**
     * A person answered on the card (a comment): its `awaitingInput` session with an unexpired
     * lease is `active` again. Runs on the caller's SQL client, so inside the comment's
     * transaction (`EventLog.withEvents`) it commits with it. Nothing happens for an agent's
     * comment (an OAuth grant) or the session's own actor's.
     */
    readonly resumeOnComment: (principal: Principal, cardId: string) => Effect.Effect<void>
    /**
     * A forge's feedback on the card's pull request (changes requested, checks failed, issue 31):
     * a `feedback` activity, by the forge, on the card's live session whose lease has not
     * passed, which is `active` again (the agent must go on); with none live, on the card's
     * latest session, left as it ended: the agent that worked the card and has let it go (a
     * runner's `--follow-up`) reads it there. Runs on the caller's SQL client, so inside the
     * delivery's transaction. Answers whether a session was told.
     */
    readonly feedback: (cardId: string, body: string, forge: ForgeProvider) => Effect.Effect<boolean>
    /** Marks every passed lease stale now (the sweep's one pass); answers how many. */
    readonly sweep: Effect.Effect<number>
  }
>()("board/core/AgentSessions") {
  static readonly layer = Layer.effect(
    AgentSessions,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog
      const changing = events.changing
      const cards = yield* Cards

      const statements = sessionStatements(sql, events)
      const { sessionEvent, expireCard, open, setStatus, onLive } = statements

      const holderMessage = (row: SessionRow, ref: string) =>
        `card ${ref} is claimed by ${row.actor_name ?? `a ${row.actor_type}`} (session ${row.id}) until ${iso(
          row.lease_expires_at
        )}; claim another card, or ask them to release it`

      const claim = Effect.fn("AgentSessions.claim")(function* (
        principal: Principal,
        cardId: CardId,
        { ttlSeconds }: ClaimInput
      ) {
        const what = `card ${cardId}`
        const outcome = yield* changing(
          Effect.gen(function* () {
            // the card's row lock orders claims of one card: the second sees the first's session
            const [card] = yield* sql
              .unsafe<{
                id: string
                ref: string
                project_id: string
                workspace_id: string
                role: Role | null
                archived: boolean
                project_name: string
                card_archived: boolean
              }>(
                `SELECT c.id, c.ref, c.project_id, p.workspace_id, m.role, ${projectStateColumns()},
                   c.archived_at IS NOT NULL AS card_archived FROM cards c
                 JOIN projects p ON p.id = c.project_id ${membershipOf("p.workspace_id", "$2")}
                 WHERE c.id = $1 FOR NO KEY UPDATE OF c`,
                [cardId, principal.userId]
              )
              .pipe(Effect.orDie)
            yield* checkRow(principal, card, what, { action: "claim cards" })
            if (card!.card_archived)
              return { conflict: `card ${card!.ref} is archived; restore it before claiming it` } as const
            const { now } = yield* leaseTimes(agentLimits.ttlDefault)
            yield* expireCard(card!.id, now, card!.workspace_id)
            const [live] = yield* sql
              .unsafe<SessionRow>(
                `SELECT ${SESSION_COLUMNS} FROM agent_sessions s WHERE s.card_id = $1::uuid AND s.status IN ${LIVE}`,
                [card!.id]
              )
              .pipe(Effect.orDie)
            if (live !== undefined) {
              if (!ownedBy(live, principal)) return { conflict: holderMessage(live, card!.ref) } as const
              // the same actor again: its session back, the lease renewed from now
              const ttl = ttlSeconds ?? live.ttl_seconds
              const times = yield* leaseTimes(ttl)
              const [renewed] = yield* sql
                .unsafe<SessionRow>(
                  `UPDATE agent_sessions s SET ttl_seconds = $2, lease_expires_at = $3::timestamptz, updated_at = $4::timestamptz
                   WHERE s.id = $1::uuid RETURNING ${SESSION_COLUMNS}`,
                  [live.id, ttl, times.until, times.now]
                )
                .pipe(Effect.orDie)
              const scoped = { ...renewed!, workspace_id: card!.workspace_id }
              yield* events.record(principal, sessionEvent("agent_session.updated", scoped))
              return { created: false, session: toAgentSession(scoped) } as const
            }
            const ttl = ttlSeconds ?? agentLimits.ttlDefault
            const times = yield* leaseTimes(ttl)
            const opened = yield* open(principal, card!.id, card!.project_id, ttl, times.now, times.until)
            // the row lock makes this unreachable; the index is the guard all the same
            if (opened === undefined) return { conflict: `card ${card!.ref} was claimed meanwhile; try again` } as const
            const scoped = { ...opened, workspace_id: card!.workspace_id }
            yield* events.record(principal, sessionEvent("agent_session.created", scoped))
            return { created: true, session: toAgentSession(scoped) } as const
          })
        )
        if (outcome.conflict !== undefined) return yield* new Conflict({ message: outcome.conflict })
        return { created: outcome.created, session: outcome.session }
      })

      const claimNext = claimNextCard({ sql, access, events })

      const heartbeat = Effect.fn("AgentSessions.heartbeat")(function* (
        principal: Principal,
        sessionId: AgentSessionId
      ) {
        return yield* onLive(principal, sessionId, (row) =>
          Effect.gen(function* () {
            const times = yield* leaseTimes(row.ttl_seconds)
            const renewed = yield* setStatus(row, row.status, times.now, times.until)
            yield* events.record(principal, sessionEvent("agent_session.updated", renewed))
            return toAgentSession(renewed)
          })
        )
      })

      // what an activity does to its session: asking waits for a person, an error marks it, an
      // answer completes it (and frees the card); a thought or an action is work, so active; a
      // forge's feedback (changes requested, checks failed) means the agent must go on
      const statusAfter: Record<ActivityType, AgentSessionStatus> = {
        feedback: "active",
        thought: "active",
        action: "active",
        elicitation: "awaitingInput",
        error: "error",
        response: "complete"
      }

      const report = Effect.fn("AgentSessions.report")(function* (
        principal: Principal,
        sessionId: AgentSessionId,
        activity: ActivityInput
      ) {
        return yield* onLive(principal, sessionId, (row, now) =>
          Effect.gen(function* () {
            const [written] = yield* sql
              .unsafe<ActivityRow>(
                `INSERT INTO agent_activities (session_id, type, body, created_at) VALUES ($1::uuid, $2, $3, $4::timestamptz)
                 RETURNING id, session_id, type, body, created_at`,
                [row.id, activity.type, activity.body, now]
              )
              .pipe(Effect.orDie)
            const made = toActivity(written!)
            const log: Array<EventInput> = [
              {
                type: "agent_activity.created",
                workspaceId: row.workspace_id,
                projectId: row.project_id,
                cardId: row.card_id,
                object: made
              }
            ]
            const next = statusAfter[activity.type]
            if (next !== row.status) {
              const changed = yield* setStatus(row, next, now)
              log.push({
                ...sessionEvent(next === "complete" ? "agent_session.completed" : "agent_session.updated", changed),
                previous: { status: row.status }
              })
            }
            yield* events.record(principal, log)
            return made
          })
        )
      })

      const release = Effect.fn("AgentSessions.release")(function* (
        principal: Principal,
        sessionId: AgentSessionId,
        input: ReleaseInput
      ) {
        const status = input.status ?? "released"
        return yield* onLive(principal, sessionId, (row, now) =>
          Effect.gen(function* () {
            const ended = yield* setStatus(row, status, now)
            yield* events.record(principal, {
              ...sessionEvent(status === "complete" ? "agent_session.completed" : "agent_session.updated", ended),
              previous: { status: row.status }
            })
            // the move is Cards.move's own statement (and its card.moved event) in this transaction
            if (input.moveTo !== undefined)
              yield* cards.move(principal, row.card_id as CardId, { columnId: input.moveTo })
            return toAgentSession(ended)
          })
        )
      })

      const { get, forCard, forProject } = sessionReads(sql, access)

      const resumeOnComment = (principal: Principal, cardId: string) =>
        Effect.gen(function* () {
          // an agent's comment is not a person's answer
          if (principal.via === "oauth") return
          const { now } = yield* leaseTimes(agentLimits.ttlMin)
          const [kind, , credential] = actorParams(principal)
          const rows = yield* sql
            .unsafe<Scoped>(
              `UPDATE agent_sessions s SET status = 'active', updated_at = $2::timestamptz FROM projects p
               WHERE s.card_id = $1::uuid AND s.status = 'awaitingInput' AND s.lease_expires_at > $2::timestamptz
                 AND p.id = s.project_id
                 AND NOT (s.user_id = $3::uuid AND s.credential_kind = $4 AND s.credential_id IS NOT DISTINCT FROM $5::uuid)
               RETURNING ${SESSION_COLUMNS}, p.workspace_id`,
              [cardId, now, principal.userId, kind, credential]
            )
            .pipe(Effect.orDie)
          yield* events.record(
            principal,
            rows.map((r) => ({ ...sessionEvent("agent_session.updated", r), previous: { status: "awaitingInput" } }))
          )
        })

      const feedback = (cardId: string, body: string, forge: ForgeProvider) =>
        Effect.gen(function* () {
          const { now } = yield* leaseTimes(agentLimits.ttlMin)
          const [row] = yield* sql
            .unsafe<Scoped & { live: boolean }>(
              `SELECT ${SESSION_COLUMNS}, p.workspace_id,
                 (s.status IN ${LIVE} AND s.lease_expires_at > $2::timestamptz) AS live
               FROM agent_sessions s JOIN projects p ON p.id = s.project_id
               WHERE s.card_id = $1::uuid
               ORDER BY live DESC, s.created_at DESC, s.id DESC LIMIT 1
               FOR NO KEY UPDATE OF s`,
              [cardId, now]
            )
            .pipe(Effect.orDie)
          if (row === undefined) return false
          const [written] = yield* sql
            .unsafe<ActivityRow>(
              `INSERT INTO agent_activities (session_id, type, body, created_at) VALUES ($1::uuid, 'feedback', $2, $3::timestamptz)
               RETURNING id, session_id, type, body, created_at`,
              [row.id, body.slice(0, agentLimits.activityBody), now]
            )
            .pipe(Effect.orDie)
          const log: Array<EventInput> = [
            {
              type: "agent_activity.created",
              workspaceId: row.workspace_id,
              projectId: row.project_id,
              cardId: row.card_id,
              object: toActivity(written!)
            }
          ]
          if (row.live && row.status !== "active") {
            const changed = yield* setStatus(row, "active", now)
            log.push({ ...sessionEvent("agent_session.updated", changed), previous: { status: row.status } })
          }
          yield* events.record({ forge }, log)
          return true
        })

      const sweep = leaseSweep(sql, events, statements)

      return AgentSessions.of({
        claim,
        claimNext,
        heartbeat,
        report,
        release,
        get,
        forCard,
        forProject,
        resumeOnComment,
        feedback,
        sweep
      })
    })
  )
}
