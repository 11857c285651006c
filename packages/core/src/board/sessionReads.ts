/**
 * What readers see of agent sessions: one session with a page of its activities, a card's
 * sessions, a project's sessions by status. Each read checks access first (Access.ts) and shows
 * a live session whose lease has passed as `stale` at once, whether or not the sweep has reached
 * it (asRead, below).
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { type AgentSession, type AgentSessionId, type AgentSessionStatus, agentLimits } from "../domain/agentSession.ts"
import { InvalidInput } from "../domain/errors.ts"
import type { CardId, ProjectId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { type Access, checkGrant, membershipOf, type Role } from "./Access.ts"
import { LIVE } from "./claimSql.ts"
import {
  type ActivityRow,
  isLive,
  leaseTimes,
  SESSION_COLUMNS,
  type Scoped,
  type SessionRow,
  toActivity,
  toAgentSession
} from "./sessionSql.ts"

export interface ActivityPage {
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

// a read shows a passed lease as stale at once, whether or not the sweep has reached it
const asRead = (row: SessionRow, nowMillis: number): AgentSession => {
  const session = toAgentSession(row)
  return isLive(row.status) && new Date(row.lease_expires_at).getTime() <= nowMillis
    ? { ...session, status: "stale" }
    : session
}

/** AgentSessions.get, forCard and forProject. */
export const sessionReads = (sql: SqlClient.SqlClient, access: Access["Service"]) => {
  const get = Effect.fn("AgentSessions.get")(function* (
    principal: Principal,
    sessionId: AgentSessionId,
    page: ActivityPage
  ) {
    const limit = page.limit ?? agentLimits.activitiesDefault
    const offset = page.offset ?? 0
    if (!Number.isInteger(limit) || limit < 1 || limit > agentLimits.activitiesMax) {
      return yield* new InvalidInput({
        message: `limit: must be a whole number from 1 to ${agentLimits.activitiesMax}`
      })
    }
    if (!Number.isInteger(offset) || offset < 0) {
      return yield* new InvalidInput({ message: "offset: must be a whole number from 0" })
    }
    const what = `agent session ${sessionId}`
    const [row] = yield* sql
      .unsafe<Scoped & { role: Role | null }>(
        `SELECT ${SESSION_COLUMNS}, p.workspace_id, m.role FROM agent_sessions s
         JOIN projects p ON p.id = s.project_id ${membershipOf("p.workspace_id", "$2")}
         WHERE s.id = $1`,
        [sessionId, principal.userId]
      )
      .pipe(Effect.orDie)
    yield* checkGrant(principal, row?.workspace_id ?? "", row?.role ?? undefined, what, row?.project_id)
    const activities = yield* sql
      .unsafe<ActivityRow>(
        `SELECT id, session_id, type, body, created_at FROM agent_activities WHERE session_id = $1
         ORDER BY n LIMIT $2 OFFSET $3`,
        [sessionId, limit, offset]
      )
      .pipe(Effect.orDie)
    const { nowMillis } = yield* leaseTimes(agentLimits.ttlMin)
    return { ...asRead(row!, nowMillis), activities: activities.map(toActivity) }
  })

  const forCard = Effect.fn("AgentSessions.forCard")(function* (principal: Principal, cardId: CardId) {
    yield* access.resolve(principal, "card", cardId)
    const rows = yield* sql
      .unsafe<SessionRow>(
        `SELECT ${SESSION_COLUMNS} FROM agent_sessions s WHERE s.card_id = $1 ORDER BY s.created_at DESC, s.id DESC`,
        [cardId]
      )
      .pipe(Effect.orDie)
    const { nowMillis } = yield* leaseTimes(agentLimits.ttlMin)
    return rows.map((r) => asRead(r, nowMillis))
  })

  const forProject = Effect.fn("AgentSessions.forProject")(function* (
    principal: Principal,
    projectId: ProjectId,
    status?: AgentSessionStatus
  ) {
    yield* access.resolve(principal, "project", projectId)
    const { now, nowMillis } = yield* leaseTimes(agentLimits.ttlMin)
    // a live session past its lease is stale to a reader: filter on what the reader sees
    const filter =
      status === undefined
        ? ""
        : status === "stale"
          ? `AND (s.status = 'stale' OR (s.status IN ${LIVE} AND s.lease_expires_at <= $2::timestamptz))`
          : isLive(status)
            ? "AND s.status = $2 AND s.lease_expires_at > $3::timestamptz"
            : "AND s.status = $2"
    const rows = yield* sql
      .unsafe<SessionRow>(
        `SELECT ${SESSION_COLUMNS} FROM agent_sessions s WHERE s.project_id = $1 ${filter}
         ORDER BY s.created_at DESC, s.id DESC LIMIT 500`,
        status === undefined
          ? [projectId]
          : status === "stale"
            ? [projectId, now]
            : isLive(status)
              ? [projectId, status, now]
              : [projectId, status]
      )
      .pipe(Effect.orDie)
    return rows.map((r) => asRead(r, nowMillis))
  })

  return { get, forCard, forProject }
}
