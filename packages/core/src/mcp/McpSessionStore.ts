/**
 * The MCP sessions of the revisions before 2026-07-28, in the database (issue 33,
 * migrations/0024_mcp_sessions.sql), so that any instance serves any session: the MCP layer
 * (http/src/mcp/McpAuth.ts) asks here on every request that names a session, and rebuilds
 * the session in its own MCP server from what was stored when it was opened.
 *
 * Rules, all decided here:
 * - a session is its user's: a request of another user finds nothing (404, as for any unknown
 *   session), so a leaked session id lets no one else use or end it;
 * - it lasts while the credential that opened it does: the look-up checks that API key or
 *   OAuth grant is not revoked, so a revocation ends it on every instance at once (the
 *   CredentialWatch also ends it where it is open, with its requests in flight);
 * - it ends when idle for MCP_SESSION_IDLE, and a user's least recently used sessions beyond
 *   MCP_SESSIONS_PER_USER end when they open another. The rows of ended sessions are deleted
 *   when any session opens, so the table holds live sessions and no sweeper is needed.
 *
 * Times come from Effect's Clock (infra/clock.ts), so a test clock moves the idle limit.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../Config.ts"
import type { Principal } from "../domain/Principal.ts"
import { timestampOf } from "../infra/clock.ts"

/** What was stored of a session when it opened: enough to rebuild it on another instance. */
export interface StoredMcpSession {
  readonly protocolVersion: string
  /** The client's initialize params, as it sent them. */
  readonly initialize: unknown
  /** The principal of the credential that opened it, for the CredentialWatch. */
  readonly opener: Principal
}

/** The time now and the idle cut-off, as timestamptz literals (microseconds keep the order of uses). */
const times = (idleMs: number) =>
  Effect.map(Clock.currentTimeNanos, (nanos) => ({
    now: timestampOf(nanos),
    cutoff: timestampOf(nanos - BigInt(idleMs) * 1_000_000n)
  }))

export class McpSessionStore extends Context.Service<
  McpSessionStore,
  {
    /**
     * Records a session just opened by `principal`; answers the sessions of that user it ended
     * to stay within MCP_SESSIONS_PER_USER (least recently used first).
     */
    readonly open: (input: {
      readonly sessionId: string
      readonly principal: Principal
      readonly protocolVersion: string
      readonly initialize: unknown
    }) => Effect.Effect<ReadonlyArray<string>>
    /** The live session `sessionId` of `userId`, counted as used now; undefined if there is none. */
    readonly use: (sessionId: string, userId: string) => Effect.Effect<StoredMcpSession | undefined>
    /** Ends a session its user closed (DELETE); answers whether it was live. */
    readonly close: (sessionId: string, userId: string) => Effect.Effect<boolean>
    /** Forgets sessions ended otherwise (their credential revoked). */
    readonly forget: (sessionIds: ReadonlyArray<string>) => Effect.Effect<void>
  }
>()("board/core/McpSessionStore") {
  static readonly layer = Layer.effect(
    McpSessionStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const idleMs = config.mcpSessionIdleMs

      const open = Effect.fn("McpSessionStore.open")(function* (input: {
        readonly sessionId: string
        readonly principal: Principal
        readonly protocolVersion: string
        readonly initialize: unknown
      }) {
        const { now, cutoff } = yield* times(idleMs)
        const p = input.principal
        yield* sql`DELETE FROM mcp_sessions WHERE last_used_at <= ${cutoff}::timestamptz`
        yield* sql`
          INSERT INTO mcp_sessions (id, user_id, credential_kind, credential_id, protocol_version, initialize, created_at, last_used_at)
          VALUES (${input.sessionId}, ${p.userId}, ${p.via}, ${p.credentialId ?? null}, ${input.protocolVersion},
            ${JSON.stringify(input.initialize ?? {})}::jsonb, ${now}::timestamptz, ${now}::timestamptz)
          ON CONFLICT (id) DO NOTHING`
        const ended = yield* sql<{ id: string }>`
          DELETE FROM mcp_sessions WHERE id IN (
            SELECT id FROM mcp_sessions WHERE user_id = ${p.userId}
            ORDER BY last_used_at DESC, created_at DESC OFFSET ${config.mcpSessionsPerUser})
          RETURNING id::text AS id`
        return ended.map((r) => r.id)
      }, Effect.orDie)

      const use = Effect.fn("McpSessionStore.use")(function* (sessionId: string, userId: string) {
        if (!UUID.test(sessionId)) return undefined
        const { now, cutoff } = yield* times(idleMs)
        // one statement: the look-up is also the use (exact least-recently-used order for the
        // per-user limit), and finds nothing for another user, an idle session or a revoked opener
        const [row] = yield* sql<{
          protocol_version: string
          initialize: unknown
          credential_kind: string
          credential_id: string | null
        }>`
          UPDATE mcp_sessions s SET last_used_at = ${now}::timestamptz
          WHERE s.id = ${sessionId} AND s.user_id = ${userId} AND s.last_used_at > ${cutoff}::timestamptz
            AND CASE s.credential_kind
              WHEN 'apiKey' THEN EXISTS (SELECT 1 FROM api_keys k WHERE k.id = s.credential_id AND k.revoked_at IS NULL
                AND (k.expires_at IS NULL OR k.expires_at > ${now}::timestamptz))
              WHEN 'oauth' THEN EXISTS (SELECT 1 FROM oauth_grants g WHERE g.id = s.credential_id AND g.revoked_at IS NULL)
              ELSE true END
          RETURNING s.protocol_version, s.initialize, s.credential_kind, s.credential_id::text AS credential_id`
        if (row === undefined) return undefined
        const initialize = typeof row.initialize === "string" ? JSON.parse(row.initialize) : row.initialize
        return {
          protocolVersion: row.protocol_version,
          initialize,
          opener: {
            userId,
            via: row.credential_kind,
            workspaces: "all",
            ...(row.credential_id === null ? {} : { credentialId: row.credential_id })
          } as Principal
        } satisfies StoredMcpSession
      }, Effect.orDie)

      const close = Effect.fn("McpSessionStore.close")(function* (sessionId: string, userId: string) {
        if (!UUID.test(sessionId)) return false
        const ended = yield* sql<{ id: string }>`
          DELETE FROM mcp_sessions WHERE id = ${sessionId} AND user_id = ${userId} RETURNING id::text AS id`
        return ended.length > 0
      }, Effect.orDie)

      const forget = (sessionIds: ReadonlyArray<string>) =>
        sessionIds.length === 0
          ? Effect.void
          : sql
              .unsafe("DELETE FROM mcp_sessions WHERE id = ANY($1::uuid[])", [[...sessionIds]])
              .pipe(Effect.asVoid, Effect.orDie)

      return McpSessionStore.of({ open, use, close, forget })
    })
  )
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
