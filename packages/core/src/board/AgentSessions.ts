/**
 * Claims, agent sessions and the work queue (issue 19). An agent claims a card by opening a
 * session on it with a lease; the session is live (`active`, `awaitingInput`, `error`) until it
 * ends (`complete`, `released`) or its lease passes (`stale`). A live session whose lease has not
 * passed holds its card: at most one per card, which the partial unique index on live sessions
 * guarantees (migrations/0013_agent_sessions.sql), whatever the requests race.
 *
 * Expiry needs no request: a sweep in every server marks passed leases stale each second (rows
 * taken FOR UPDATE SKIP LOCKED, so instances share the work) and logs `agent_session.stale`.
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
 */
import { Clock, Context, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import {
  type Activity,
  type ActivityType,
  type AgentSession,
  type AgentSessionDetail,
  type AgentSessionId,
  type AgentSessionStatus,
  agentLimits
} from "../domain/agentSession.ts"
import type { ActivityId } from "../domain/agentSession.ts"
import { Conflict, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { CardId, ProjectId } from "../domain/ids.ts"
import type { ActivityInput, ClaimInput, QueueFilter, ReleaseInput } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { actorParams, actorSql, EventLog, type EventInput } from "../events/EventLog.ts"
import { timestampOf } from "../infra/clock.ts"
import { Access, checkGrant, grantsOf, membershipOf, type Role, visibleTo } from "./Access.ts"
import { Cards } from "./Cards.ts"
import type { CardView } from "./cardView.ts"
import { sessionActor } from "./cardView.ts"
import { LIVE } from "./claimSql.ts"
import { iso } from "./rows.ts"

type AccessError = NotFound | WorkspaceNotGranted

export interface ActivityPage {
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

interface SessionRow {
  readonly id: string
  readonly card_id: string
  readonly project_id: string
  readonly user_id: string
  readonly credential_kind: string
  readonly credential_id: string | null
  readonly actor_type: string
  readonly actor_name: string | null
  readonly status: AgentSessionStatus
  readonly ttl_seconds: number
  readonly lease_expires_at: Date | string
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

type Scoped = SessionRow & { readonly workspace_id: string }

interface ActivityRow {
  readonly id: string
  readonly session_id: string
  readonly type: ActivityType
  readonly body: string
  readonly created_at: Date | string
}

const SESSION_COLUMNS = `s.id, s.card_id, s.project_id, s.user_id, s.credential_kind, s.credential_id, s.actor_type,
  s.actor_name, s.status, s.ttl_seconds, s.lease_expires_at, s.created_at, s.updated_at`

export const toAgentSession = (r: SessionRow): AgentSession => ({
  id: r.id as AgentSessionId,
  cardId: r.card_id as CardId,
  projectId: r.project_id as ProjectId,
  actor: sessionActor(r.actor_type, r.user_id, r.actor_name),
  status: r.status,
  leaseExpiresAt: iso(r.lease_expires_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

const toActivity = (r: ActivityRow): Activity => ({
  id: r.id as ActivityId,
  sessionId: r.session_id as AgentSessionId,
  type: r.type,
  body: r.body,
  createdAt: iso(r.created_at)
})

const isLive = (status: AgentSessionStatus) => status === "active" || status === "awaitingInput" || status === "error"

/** Whether the principal is the session's actor: the same user through the same credential. */
const ownedBy = (row: SessionRow, principal: Principal) => {
  const [kind, , credential] = actorParams(principal)
  return row.user_id === principal.userId && row.credential_kind === kind && row.credential_id === (credential ?? null)
}

/** The time now and a lease's end, as the SQL parameters take them (infra/clock.ts). */
const leaseTimes = (ttlSeconds: number) =>
  Effect.map(Clock.currentTimeNanos, (nanos) => ({
    now: timestampOf(nanos),
    nowMillis: Number(nanos / 1_000_000n),
    until: timestampOf(nanos + BigInt(ttlSeconds) * 1_000_000_000n)
  }))

/** The sessions the sweep turns stale per statement, so no statement holds many rows at once. */
const SWEEP_BATCH = 500

/** Queue attempts before giving up with 204: each lost race means another caller took a card. */
const QUEUE_ATTEMPTS = 20

/** The queue's order of priorities, written exactly as migrations/0013's cards_queue index has it. */
const priorityRank = `(CASE c.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END)`

// $1 project, $2 user, $3 grants, $4 the time, $5 column (NULL: any), $6 labels (NULL: any),
// $7 assignee filter ('me' | 'unassigned' | NULL). The best unclaimed card, locked; cards another
// queue call has locked are skipped, so concurrent callers take different cards. Within one
// column the order is the cards_queue index's, so the statement walks that index and stops at
// the first card it can take; across columns it sorts the project's cards. `NOT c.claimed` (the
// flag the agent_sessions trigger keeps, migrations/0013) matches the index's predicate, so the
// walk never passes the column's claimed cards; the lease check stays for correctness. So a card
// whose lease has passed is left to the queue until the sweep marks its session stale (about a
// second); a direct claim checks the lease itself and takes it at once.
// Without a column the queue takes work waiting only: cards in `todo` columns (CONTRACT.md,
// Column kinds), never one under way or done, whatever the columns are called or where they sit.
const nextCardSql = (oneColumn: boolean) => `
  SELECT c.id, p.workspace_id FROM cards c
  JOIN projects p ON p.id = c.project_id
  ${oneColumn ? "" : "JOIN board_columns col ON col.id = c.column_id"}
  WHERE c.project_id = $1::uuid AND ${visibleTo("p.workspace_id", "$2::uuid", "$3")}
    AND ${oneColumn ? "c.column_id = $5::uuid" : "$5::uuid IS NULL AND col.kind = 'todo'"}
    AND ($6::uuid[] IS NULL OR (SELECT count(*) FROM card_labels cl WHERE cl.card_id = c.id AND cl.label_id = ANY($6::uuid[])) = cardinality($6::uuid[]))
    AND ($7::text IS NULL
      OR ($7 = 'me' AND EXISTS (SELECT 1 FROM card_assignees a WHERE a.card_id = c.id AND a.user_id = $2::uuid))
      OR ($7 = 'unassigned' AND NOT EXISTS (SELECT 1 FROM card_assignees a WHERE a.card_id = c.id)))
    AND NOT c.claimed
    AND NOT EXISTS (SELECT 1 FROM agent_sessions s WHERE s.card_id = c.id AND s.status IN ${LIVE} AND s.lease_expires_at > $4::timestamptz)
  ORDER BY ${oneColumn ? `c.column_id, ${priorityRank}, c.sort_key, c.id` : `${priorityRank}, col.position, col.id, c.sort_key, c.id`}
  LIMIT 1
  FOR NO KEY UPDATE OF c SKIP LOCKED`
const nextInColumnSql = nextCardSql(true)
const nextInProjectSql = nextCardSql(false)

// $1 card, $2 user, $3 credential kind, $4 credential id, $5 ttl, $6 the time, $7 the lease's end,
// $8 project. Nothing is written when a live session holds the card (the unique index's guard).
const openSql = `
  INSERT INTO agent_sessions (card_id, project_id, user_id, credential_kind, credential_id, actor_type, actor_name,
    status, ttl_seconds, lease_expires_at, created_at, updated_at)
  SELECT $1::uuid, $8::uuid, $2::uuid, $3, $4::uuid, a.j->>'type', a.j->>'name', 'active', $5, $7::timestamptz,
    $6::timestamptz, $6::timestamptz
  FROM (SELECT ${actorSql("$3::text", "$2", "$4")} AS j) a
  ON CONFLICT (card_id) WHERE status IN ${LIVE} DO NOTHING
  RETURNING ${SESSION_COLUMNS.replaceAll("s.", "")}`

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
      InvalidInput | Conflict | AccessError
    >
    /** Claims the best unclaimed card of a project; undefined when none matches. */
    readonly claimNext: (
      principal: Principal,
      projectId: ProjectId,
      filter: QueueFilter
    ) => Effect.Effect<
      { readonly session: AgentSession; readonly card: CardView } | undefined,
      InvalidInput | AccessError
    >
    readonly heartbeat: (
      principal: Principal,
      sessionId: AgentSessionId
    ) => Effect.Effect<AgentSession, Conflict | AccessError>
    readonly report: (
      principal: Principal,
      sessionId: AgentSessionId,
      activity: ActivityInput
    ) => Effect.Effect<Activity, Conflict | AccessError>
    readonly release: (
      principal: Principal,
      sessionId: AgentSessionId,
      input: ReleaseInput
    ) => Effect.Effect<AgentSession, InvalidInput | Conflict | AccessError>
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
      const open = (
        principal: Principal,
        cardId: string,
        projectId: string,
        ttl: number,
        now: string,
        until: string
      ) => {
        const [kind, user, credential] = actorParams(principal)
        return sql.unsafe<SessionRow>(openSql, [cardId, user, kind, credential, ttl, now, until, projectId]).pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0])
        )
      }

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
              .unsafe<{ id: string; ref: string; project_id: string; workspace_id: string; role: Role | null }>(
                `SELECT c.id, c.ref, c.project_id, p.workspace_id, m.role FROM cards c
                 JOIN projects p ON p.id = c.project_id ${membershipOf("p.workspace_id", "$2")}
                 WHERE c.id = $1 FOR NO KEY UPDATE OF c`,
                [cardId, principal.userId]
              )
              .pipe(Effect.orDie)
            yield* checkGrant(principal, card?.workspace_id ?? "", card?.role ?? undefined, what)
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

      const claimNext = Effect.fn("AgentSessions.claimNext")(function* (
        principal: Principal,
        projectId: ProjectId,
        filter: QueueFilter
      ) {
        const project = yield* access.resolve(principal, "project", projectId)
        if (filter.columnId !== undefined) {
          const column = yield* access.resolve(principal, "column", filter.columnId)
          if (column.projectId !== project.projectId) {
            return yield* new InvalidInput({
              message: `columnId: column ${filter.columnId} belongs to another project`
            })
          }
        }
        const labelIds = filter.labelIds ?? []
        const ttl = filter.ttlSeconds ?? agentLimits.ttlDefault
        for (let attempt = 0; attempt < QUEUE_ATTEMPTS; attempt++) {
          const times = yield* leaseTimes(ttl)
          const taken = yield* changing(
            Effect.gen(function* () {
              const [card] = yield* sql
                .unsafe<{ id: string; workspace_id: string }>(
                  filter.columnId === undefined ? nextInProjectSql : nextInColumnSql,
                  [
                    projectId,
                    principal.userId,
                    grantsOf(principal),
                    times.now,
                    filter.columnId ?? null,
                    labelIds.length === 0 ? null : labelIds,
                    filter.assignee ?? null
                  ]
                )
                .pipe(Effect.orDie)
              if (card === undefined) return "none" as const
              yield* expireCard(card.id, times.now, card.workspace_id)
              const opened = yield* open(principal, card.id, projectId, ttl, times.now, times.until)
              // a claim committed after this statement's snapshot: take the next card
              if (opened === undefined) return "lost" as const
              const scoped = { ...opened, workspace_id: card.workspace_id }
              yield* events.record(principal, sessionEvent("agent_session.created", scoped))
              const [view] = yield* cards.load([card.id])
              return { session: toAgentSession(scoped), card: view! }
            })
          )
          if (taken === "none") return undefined
          if (taken !== "lost") return taken
        }
        return undefined
      })

      /** A session the principal owns, locked, with its workspace; others' are not found. */
      const owned = (principal: Principal, sessionId: AgentSessionId) =>
        Effect.gen(function* () {
          const what = `agent session ${sessionId}`
          // the card first, then the session: the order claims take them in, so the two never deadlock
          yield* sql`SELECT 1 FROM cards WHERE id = (SELECT card_id FROM agent_sessions WHERE id = ${sessionId}) FOR NO KEY UPDATE`.pipe(
            Effect.orDie
          )
          const [row] = yield* sql
            .unsafe<Scoped & { role: Role | null }>(
              `SELECT ${SESSION_COLUMNS}, p.workspace_id, m.role FROM agent_sessions s
               JOIN projects p ON p.id = s.project_id ${membershipOf("p.workspace_id", "$2")}
               WHERE s.id = $1 FOR NO KEY UPDATE OF s`,
              [sessionId, principal.userId]
            )
            .pipe(Effect.orDie)
          yield* checkGrant(principal, row?.workspace_id ?? "", row?.role ?? undefined, what)
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
      // answer completes it (and frees the card); a thought or an action is work, so active
      const statusAfter: Record<ActivityType, AgentSessionStatus> = {
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
        yield* checkGrant(principal, row?.workspace_id ?? "", row?.role ?? undefined, what)
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

      // a read shows a passed lease as stale at once, whether or not the sweep has reached it
      const asRead = (row: SessionRow, nowMillis: number): AgentSession => {
        const session = toAgentSession(row)
        return isLive(row.status) && new Date(row.lease_expires_at).getTime() <= nowMillis
          ? { ...session, status: "stale" }
          : session
      }

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

      // one pass: the passed leases, a batch at a time, each row taken by one instance only
      const sweep = Effect.gen(function* () {
        let total = 0
        for (;;) {
          const now = timestampOf(yield* Clock.currentTimeNanos)
          const stale = yield* changing(
            Effect.gen(function* () {
              const rows = yield* sql
                .unsafe<Scoped>(
                  // the card too, skipping one a taker holds: the claimed trigger updates it, and
                  // takers lock the card before its sessions, so waiting on it could deadlock
                  `WITH due AS (
                     SELECT s.id FROM agent_sessions s JOIN cards c ON c.id = s.card_id
                     WHERE s.status IN ${LIVE} AND s.lease_expires_at <= $1::timestamptz
                     ORDER BY s.lease_expires_at LIMIT ${SWEEP_BATCH}
                     FOR UPDATE OF s SKIP LOCKED FOR NO KEY UPDATE OF c SKIP LOCKED
                   ), gone AS (
                     UPDATE agent_sessions s SET status = 'stale', updated_at = $1::timestamptz FROM due
                     WHERE s.id = due.id RETURNING ${SESSION_COLUMNS}
                   )
                   SELECT s.*, p.workspace_id FROM gone s JOIN projects p ON p.id = s.project_id`,
                  [now]
                )
                .pipe(Effect.orDie)
              yield* events.record(
                "system",
                rows.map((r) => sessionEvent("agent_session.stale", r))
              )
              return rows.length
            })
          )
          total += stale
          if (stale < SWEEP_BATCH) return total
        }
      })

      yield* sweep.pipe(
        Effect.catchCause((cause) =>
          Effect.logWarning("agent sessions: a lease sweep failed; it runs again in a second", cause)
        ),
        Effect.repeat(Schedule.spaced("1 second")),
        Effect.forkScoped
      )

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
        sweep
      })
    })
  )
}
