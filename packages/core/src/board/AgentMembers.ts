/**
 * Agents as members (issue 30): an admin makes an agent, an account of kind `agent` in one
 * workspace (users.kind, the `agents` row, a `member` membership: migrations/0022), so it is
 * assignable and claims cards as any member, and the access rule needs nothing new. Its keys
 * are API keys of its account (same format, digest and revocation), made by an admin or the
 * agent's creator, with scopes stored for issue 33 to enforce. What its keys do is recorded as
 * the agent acting on behalf of its creator (events/EventLog.ts `actorSql`).
 *
 * Deleting an agent revokes its keys (requests with them answer 401 at once; what they opened
 * ends through auth/CredentialWatch.ts), ends its membership and its assignments; its account
 * stays, so history and comments keep naming it.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import { CredentialCache } from "../auth/CredentialCache.ts"
import { digestToken, mintToken } from "../auth/secretTokens.ts"
import { KEY_LIMIT_COLUMNS, type KeyLimitRow, limitsView, settleLimits } from "../auth/keyLimits.ts"
import type { Agent, AgentCreate, AgentKey, AgentKeyCreate, AgentKeyCreated } from "../domain/agent.ts"
import { Forbidden, type InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { UserId, WorkspaceId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { EventLog } from "../events/EventLog.ts"
import { Access, isUuid, withoutArchive, requireRole, requireScopes, type Role, scopesFor } from "./Access.ts"
import { LIVE } from "./claimSql.ts"
import { SESSION_COLUMNS, type SessionRow, toAgentSession } from "./sessionSql.ts"
import { iso } from "./rows.ts"

/** No hash: the password check finds no match, so an agent's account never signs in. */
const NO_PASSWORD = "!agent: no password, no sign-in"

interface AgentRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly description: string | null
  readonly created_by: string | null
  readonly created_at: Date | string
}

const toAgent = (r: AgentRow): Agent => ({
  id: r.id as UserId,
  workspaceId: r.workspace_id as WorkspaceId,
  name: r.name,
  description: r.description,
  createdBy: r.created_by as UserId | null,
  createdAt: iso(r.created_at)
})

interface KeyRow extends KeyLimitRow {
  readonly id: string
  readonly user_id: string
  readonly name: string
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

const toKey = (r: KeyRow): AgentKey => ({
  id: r.id,
  agentId: r.user_id as UserId,
  name: r.name,
  ...limitsView(r),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

const AGENT_COLUMNS = `u.id, a.workspace_id, u.full_name AS name, a.description, a.created_by, a.created_at`

type AgentErrors = NotFound | WorkspaceNotGranted | Forbidden

export class AgentMembers extends Context.Service<
  AgentMembers,
  {
    readonly create: (
      principal: Principal,
      workspaceId: string,
      input: AgentCreate
    ) => Effect.Effect<Agent, NotFound | WorkspaceNotGranted | Forbidden>
    /** The workspace's agents (not deleted), oldest first: any member. */
    readonly list: (
      principal: Principal,
      workspaceId: string
    ) => Effect.Effect<ReadonlyArray<Agent>, NotFound | WorkspaceNotGranted>
    readonly remove: (principal: Principal, agentId: string) => Effect.Effect<void, AgentErrors>
    readonly createKey: (
      principal: Principal,
      agentId: string,
      input: AgentKeyCreate
    ) => Effect.Effect<AgentKeyCreated, AgentErrors | InvalidInput>
    readonly keys: (principal: Principal, agentId: string) => Effect.Effect<ReadonlyArray<AgentKey>, AgentErrors>
    readonly revokeKey: (principal: Principal, agentId: string, keyId: string) => Effect.Effect<void, AgentErrors>
  }
>()("board/core/AgentMembers") {
  static readonly layer = Layer.effect(
    AgentMembers,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const cache = yield* CredentialCache
      const events = yield* EventLog

      /** A live agent the caller can see, and the caller's role in its workspace. */
      const find = Effect.fnUntraced(function* (principal: Principal, agentId: string) {
        const what = `agent ${agentId}`
        if (!isUuid(agentId)) return yield* new NotFound({ message: `${what} not found` })
        const [row] = yield* sql<AgentRow>`
          SELECT ${sql.literal(AGENT_COLUMNS)} FROM agents a JOIN users u ON u.id = a.user_id
          WHERE a.user_id = ${agentId} AND a.deleted_at IS NULL`.pipe(Effect.orDie)
        if (row === undefined) return yield* new NotFound({ message: `${what} not found` })
        const { role } = yield* access.resolve(principal, "workspace", row.workspace_id, what)
        return { agent: row, role }
      })

      // keys are managed by a person's own credentials, as API keys are (auth/Accounts.ts): never
      // by an OAuth client or an agent; by an admin, or by the agent's creator
      const keyManager = (principal: Principal, agent: AgentRow, role: Role, op: "create" | "list" | "revoke") =>
        Effect.gen(function* () {
          if (principal.agent === true || principal.via === "oauth" || principal.via === "intake") {
            return yield* new Forbidden({
              message:
                "an agent's keys are managed by a person (an admin or its creator) with an API key or the web app"
            })
          }
          // the scopes of managing keys (issue 33): listing reads, making is admin, revoking deletes too
          yield* requireScopes(
            principal,
            op === "list" ? ["read"] : scopesFor({ needed: "admin", deletes: op === "revoke" }),
            `${op} an agent's keys`
          )
          if (principal.projects !== undefined) {
            return yield* new Forbidden({
              message: "this API key is limited to some projects: manage an agent's keys with a key for every project"
            })
          }
          if (principal.userId !== agent.created_by) {
            yield* requireRole(role, "admin", "manage the keys of an agent you did not create")
          }
        })

      const create = Effect.fn("AgentMembers.create")(function* (
        principal: Principal,
        workspaceId: string,
        input: AgentCreate
      ) {
        yield* withoutArchive(
          access.write(principal, "workspace", workspaceId, { needed: "admin", action: "create agents" })
        )
        const now = yield* sqlNow
        const id = crypto.randomUUID()
        const name = input.name.trim()
        const description =
          input.description === undefined || input.description.trim() === "" ? null : input.description
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`
                INSERT INTO users (id, email, full_name, password_hash, kind, created_at, updated_at)
                VALUES (${id}, ${`agent:${id}`}, ${name}, ${NO_PASSWORD}, 'agent', ${now}::timestamptz, ${now}::timestamptz)`
              yield* sql`
                INSERT INTO agents (user_id, workspace_id, description, created_by, created_at)
                VALUES (${id}, ${workspaceId}, ${description}, ${principal.userId}, ${now}::timestamptz)`
              yield* sql`
                INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
                VALUES (${workspaceId}, ${id}, 'member', ${now}::timestamptz)`
              return toAgent({
                id,
                workspace_id: workspaceId,
                name,
                description,
                created_by: principal.userId,
                created_at: now
              })
            })
          )
          .pipe(Effect.orDie)
      })

      const list = Effect.fn("AgentMembers.list")(function* (principal: Principal, workspaceId: string) {
        yield* access.resolve(principal, "workspace", workspaceId)
        const rows = yield* sql<AgentRow>`
          SELECT ${sql.literal(AGENT_COLUMNS)} FROM agents a JOIN users u ON u.id = a.user_id
          WHERE a.workspace_id = ${workspaceId} AND a.deleted_at IS NULL
          ORDER BY a.created_at, u.id`.pipe(Effect.orDie)
        return rows.map(toAgent)
      })

      const remove = Effect.fn("AgentMembers.remove")(function* (principal: Principal, agentId: string) {
        const { agent } = yield* find(principal, agentId)
        yield* withoutArchive(
          access.write(principal, "workspace", agent.workspace_id, {
            needed: "admin",
            action: "delete agents",
            deletes: true,
            what: `agent ${agentId}`
          })
        )
        const now = yield* sqlNow
        const revoked = yield* events
          .withEvents(
            Effect.gen(function* () {
              yield* sql`UPDATE agents SET deleted_at = ${now}::timestamptz WHERE user_id = ${agentId}`
              // the revocation triggers tell every instance (migrations/0016): keys answer 401,
              // streams the membership or the keys opened end
              const keys = yield* sql<{ id: string }>`
                UPDATE api_keys SET revoked_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
                WHERE user_id = ${agentId} AND revoked_at IS NULL RETURNING id`
              yield* sql`
                DELETE FROM card_assignees ca USING cards c, projects p
                WHERE ca.user_id = ${agentId} AND c.id = ca.card_id AND p.id = c.project_id
                  AND p.workspace_id = ${agent.workspace_id}`
              yield* sql`DELETE FROM workspace_members WHERE workspace_id = ${agent.workspace_id} AND user_id = ${agentId}`
              // its claims end now, not at their leases' end: released, with their events
              const released = yield* sql.unsafe<SessionRow & { readonly previous_status: string }>(
                `WITH old AS (
                   SELECT id, status FROM agent_sessions WHERE user_id = $1::uuid AND status IN ${LIVE} FOR UPDATE
                 )
                 UPDATE agent_sessions s SET status = 'released', updated_at = $2::timestamptz
                 FROM old WHERE s.id = old.id RETURNING ${SESSION_COLUMNS}, old.status AS previous_status`,
                [agentId, now]
              )
              yield* events.record(
                principal,
                released.map((r) => ({
                  type: "agent_session.updated" as const,
                  workspaceId: agent.workspace_id,
                  projectId: r.project_id,
                  cardId: r.card_id,
                  object: toAgentSession(r),
                  previous: { status: r.previous_status }
                }))
              )
              return keys
            })
          )
          .pipe(Effect.orDie)
        for (const key of revoked) yield* cache.invalidate(key.id)
      })

      const createKey = Effect.fn("AgentMembers.createKey")(function* (
        principal: Principal,
        agentId: string,
        input: AgentKeyCreate
      ) {
        const { agent, role } = yield* find(principal, agentId)
        yield* keyManager(principal, agent, role, "create")
        const rawKey = mintToken("apiKey")
        const now = yield* sqlNow
        // the projects must be the agent's workspace's; never beyond the maker's own limits
        const limits = yield* settleLimits(sql, principal, agentId, input, now)
        const [row] = yield* sql
          .unsafe<KeyRow>(
            `INSERT INTO api_keys (user_id, name, digest, scopes, project_ids, expires_at, created_at, updated_at)
             VALUES ($1::uuid, $2, $3, $4::text[], $5::uuid[], $6::timestamptz, $7::timestamptz, $7::timestamptz)
             RETURNING id, user_id, name, ${KEY_LIMIT_COLUMNS}, created_at, updated_at`,
            [agentId, input.name.trim(), digestToken(rawKey), limits.scopes, limits.projectIds, limits.expiresAt, now]
          )
          .pipe(Effect.orDie)
        return { ...toKey(row!), rawKey }
      })

      const keys = Effect.fn("AgentMembers.keys")(function* (principal: Principal, agentId: string) {
        const { agent, role } = yield* find(principal, agentId)
        yield* keyManager(principal, agent, role, "list")
        const rows = yield* sql<KeyRow>`
          SELECT id, user_id, name, ${sql.literal(KEY_LIMIT_COLUMNS)}, created_at, updated_at FROM api_keys
          WHERE user_id = ${agentId} AND revoked_at IS NULL ORDER BY created_at, id`.pipe(Effect.orDie)
        return rows.map(toKey)
      })

      const revokeKey = Effect.fn("AgentMembers.revokeKey")(function* (
        principal: Principal,
        agentId: string,
        keyId: string
      ) {
        const { agent, role } = yield* find(principal, agentId)
        yield* keyManager(principal, agent, role, "revoke")
        const missing = new NotFound({ message: `key ${keyId} of agent ${agentId} not found` })
        if (!isUuid(keyId)) return yield* missing
        const now = yield* sqlNow
        const rows = yield* sql`
          UPDATE api_keys SET revoked_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
          WHERE id = ${keyId} AND user_id = ${agentId} AND revoked_at IS NULL RETURNING id`.pipe(Effect.orDie)
        if (rows.length === 0) return yield* missing
        yield* cache.invalidate(keyId)
      })

      return AgentMembers.of({ create, list, remove, createKey, keys, revokeKey })
    })
  )
}
