/**
 * The agent_sessions rows and the statements every session path shares (AgentSessions.ts, the
 * queue in agentQueue.ts, the sweep in leaseSweep.ts): the row shapes and their views, the lease
 * times, opening a session, marking a card's passed leases stale, a status change, and the
 * owner's locked read of a live session. The rules they keep are written in AgentSessions.ts's
 * header.
 */
import { Clock, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import {
  type Activity,
  type ActivityId,
  type ActivityType,
  AgentSession,
  type AgentSessionId,
  type AgentSessionStatus,
  agentLimits
} from "../domain/agentSession.ts"
import { Conflict, NotFound } from "../domain/errors.ts"
import type { CardId, ProjectId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { actorParams, actorSql, type EventInput, type EventLog } from "../events/EventLog.ts"
import { timestampOf } from "../infra/clock.ts"
import { checkRow, membershipOf, projectStateColumns, type Role } from "./Access.ts"
import { sessionActor } from "./cardView.ts"
import { actorJsonText, LIVE } from "./claimSql.ts"
import { jsonObject } from "./jsonSql.ts"
import { iso } from "./rows.ts"

export interface SessionRow {
  readonly id: string
  readonly card_id: string
  readonly project_id: string
  readonly user_id: string
  readonly credential_kind: string
  readonly credential_id: string | null
  readonly actor_type: string
  readonly actor_name: string | null
  readonly actor_on_behalf_of: string | null
  readonly status: AgentSessionStatus
  readonly ttl_seconds: number
  readonly lease_expires_at: Date | string
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

export type Scoped = SessionRow & { readonly workspace_id: string }

export interface ActivityRow {
  readonly id: string
  readonly session_id: string
  readonly type: ActivityType
  readonly body: string
  readonly created_at: Date | string
}

export const SESSION_COLUMNS = `s.id, s.card_id, s.project_id, s.user_id, s.credential_kind, s.credential_id, s.actor_type,
  s.actor_name, s.actor_on_behalf_of, s.status, s.ttl_seconds, s.lease_expires_at, s.created_at, s.updated_at`

export const toAgentSession = (r: SessionRow): AgentSession => ({
  id: r.id as AgentSessionId,
  cardId: r.card_id as CardId,
  projectId: r.project_id as ProjectId,
  actor: sessionActor(r.actor_type, r.user_id, r.actor_name, r.actor_on_behalf_of),
  status: r.status,
  leaseExpiresAt: iso(r.lease_expires_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export const toActivity = (r: ActivityRow): Activity => ({
  id: r.id as ActivityId,
  sessionId: r.session_id as AgentSessionId,
  type: r.type,
  body: r.body,
  createdAt: iso(r.created_at)
})

export const isLive = (status: AgentSessionStatus) =>
  status === "active" || status === "awaitingInput" || status === "error"

/** Whether the principal is the session's actor: the same user through the same credential. */
export const ownedBy = (row: SessionRow, principal: Principal) => {
  const [kind, , credential] = actorParams(principal)
  return row.user_id === principal.userId && row.credential_kind === kind && row.credential_id === (credential ?? null)
}

/** The time now and a lease's end, as the SQL parameters take them (infra/clock.ts). */
export const leaseTimes = (ttlSeconds: number) =>
  Effect.map(Clock.currentTimeNanos, (nanos) => ({
    now: timestampOf(nanos),
    nowMillis: Number(nanos / 1_000_000n),
    until: timestampOf(nanos + BigInt(ttlSeconds) * 1_000_000_000n)
  }))

/**
 * The INSERT that opens a session, as SQL over `from`'s rows: `actor` is the actor's JSON
 * (`actorSql`), the other fields SQL expressions (parameters). Nothing is written when a live
 * session holds the card (the unique index's guard). A direct claim (below) and the queue
 * (agentQueue.ts) open sessions with it.
 */
export const openSessionSql = (v: {
  readonly card: string
  readonly project: string
  readonly user: string
  readonly kind: string
  readonly credential: string
  readonly ttl: string
  readonly now: string
  readonly until: string
  readonly actor: string
  readonly from: string
}): string => `
  INSERT INTO agent_sessions (card_id, project_id, user_id, credential_kind, credential_id, actor_type, actor_name,
    actor_on_behalf_of, status, ttl_seconds, lease_expires_at, created_at, updated_at)
  SELECT ${v.card}, ${v.project}, ${v.user}::uuid, ${v.kind}, ${v.credential}::uuid, ${v.actor}->>'type', ${v.actor}->>'name',
    (${v.actor}->>'onBehalfOf')::uuid, 'active', ${v.ttl}, ${v.until}::timestamptz,
    ${v.now}::timestamptz, ${v.now}::timestamptz
  FROM ${v.from}
  ON CONFLICT (card_id) WHERE status IN ${LIVE} DO NOTHING
  RETURNING ${SESSION_COLUMNS.replaceAll("s.", "")}`

// $1 card, $2 user, $3 credential kind, $4 credential id, $5 ttl, $6 the time, $7 the lease's end, $8 project.
const openSql = openSessionSql({
  card: "$1::uuid",
  project: "$8::uuid",
  user: "$2",
  kind: "$3",
  credential: "$4",
  ttl: "$5",
  now: "$6",
  until: "$7",
  actor: "a.j",
  from: `(SELECT ${actorSql("$3::text", "$2", "$4")} AS j) a`
})

/** Session `s` (an agent_sessions row) as JSON text in the AgentSession schema's shape, as `toAgentSession` makes it. */
export const sessionJson = jsonObject(AgentSession, "s", { actor: actorJsonText })

/** The shared statements, on the layer's SQL client and event log. */
export const sessionStatements = (sql: SqlClient.SqlClient, events: EventLog["Service"]) => {
  const changing = events.changing

  const sessionEvent = (type: EventInput["type"], row: Scoped): EventInput => ({
    type,
    workspaceId: row.workspace_id,
    projectId: row.project_id,
    cardId: row.card_id,
    object: toAgentSession(row)
  })

  /** Marks the passed leases of one card stale (on the caller's transaction), with their events. */
  const expireCard = (cardId: string, now: string, workspaceId: string) =>
    Effect.gen(function* () {
      const rows = yield* sql
        .unsafe<SessionRow>(
          `UPDATE agent_sessions s SET status = 'stale', updated_at = $2::timestamptz
           WHERE s.card_id = $1::uuid AND s.status IN ${LIVE} AND s.lease_expires_at <= $2::timestamptz
           RETURNING ${SESSION_COLUMNS}`,
          [cardId, now]
        )
        .pipe(Effect.orDie)
      yield* events.record(
        "system",
        rows.map((r) => sessionEvent("agent_session.stale", { ...r, workspace_id: workspaceId }))
      )
    })

  /** Opens a session on a locked card whose passed leases are already stale; undefined if a live one holds it. */
  const open = (principal: Principal, cardId: string, projectId: string, ttl: number, now: string, until: string) => {
    const [kind, user, credential] = actorParams(principal)
    return sql.unsafe<SessionRow>(openSql, [cardId, user, kind, credential, ttl, now, until, projectId]).pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0])
    )
  }

  const setStatus = (row: Scoped, status: AgentSessionStatus, now: string, until?: string) =>
    sql
      .unsafe<SessionRow>(
        `UPDATE agent_sessions s SET status = $2, updated_at = $3::timestamptz,
           lease_expires_at = COALESCE($4::timestamptz, s.lease_expires_at)
         WHERE s.id = $1::uuid RETURNING ${SESSION_COLUMNS}`,
        [row.id, status, now, until ?? null]
      )
      .pipe(
        Effect.orDie,
        Effect.map((rows): Scoped => ({ ...rows[0]!, workspace_id: row.workspace_id }))
      )

  /** A session the principal owns, locked, with its workspace; others' are not found. */
  const owned = (principal: Principal, sessionId: AgentSessionId) =>
    Effect.gen(function* () {
      const what = `agent session ${sessionId}`
      // the card first, then the session: the order claims take them in, so the two never deadlock
      yield* sql`SELECT 1 FROM cards WHERE id = (SELECT card_id FROM agent_sessions WHERE id = ${sessionId}) FOR NO KEY UPDATE`.pipe(
        Effect.orDie
      )
      const [row] = yield* sql
        .unsafe<Scoped & { role: Role | null; archived: boolean; project_name: string }>(
          `SELECT ${SESSION_COLUMNS}, p.workspace_id, m.role, ${projectStateColumns()} FROM agent_sessions s
           JOIN projects p ON p.id = s.project_id ${membershipOf("p.workspace_id", "$2")}
           WHERE s.id = $1 FOR NO KEY UPDATE OF s`,
          [sessionId, principal.userId]
        )
        .pipe(Effect.orDie)
      yield* checkRow(principal, row, what, { action: "work agent sessions" })
      if (!ownedBy(row!, principal)) return yield* new NotFound({ message: `${what} not found` })
      return row!
    })

  /**
   * Runs `f` on the principal's live session, whose lease has not passed: a passed lease is
   * marked stale (committed, with its event) and refused with 409, as is an ended session.
   */
  const onLive = <A, E>(
    principal: Principal,
    sessionId: AgentSessionId,
    f: (row: Scoped, now: string) => Effect.Effect<A, E>
  ) =>
    Effect.gen(function* () {
      const outcome = yield* changing(
        Effect.gen(function* () {
          const row = yield* owned(principal, sessionId)
          const { now, nowMillis } = yield* leaseTimes(agentLimits.ttlMin)
          if (!isLive(row.status)) {
            return {
              conflict: `agent session ${sessionId} has ended (${row.status}); claim the card again to start a new one`
            } as const
          }
          if (new Date(row.lease_expires_at).getTime() <= nowMillis) {
            yield* expireCard(row.card_id, now, row.workspace_id)
            return {
              conflict: `agent session ${sessionId} is stale: its lease ended at ${iso(row.lease_expires_at)} and the card may be someone else's; claim it again`
            } as const
          }
          return { value: yield* f(row, now) } as const
        })
      )
      if (outcome.conflict !== undefined) return yield* new Conflict({ message: outcome.conflict })
      return outcome.value
    })

  return { sessionEvent, expireCard, open, setStatus, onLive }
}

export type SessionStatements = ReturnType<typeof sessionStatements>
