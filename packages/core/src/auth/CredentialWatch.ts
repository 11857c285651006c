/**
 * Revocation reaches everything that is open (issue 28). A request is checked when it is made;
 * an event stream or an MCP session lives on after that, so each one is registered here with
 * the principal that opened it, and is ended (its `end`, called once) when:
 * - its credential is revoked (an API key deleted, an OAuth grant revoked, a web session signed
 *   out): at once, on the revocation the CredentialCache hears, the revoking process's own or,
 *   on PostgreSQL, any instance's through the revocation feed (migrations/0007);
 * - its credential expires (an OAuth access token, an API key made with `expiresAt`: `Principal.expiresAt`),
 *   at that time;
 * - its user is no longer a member of the workspace it reaches, or its web session has expired;
 * - the project it follows was deleted (issue 30; a deleted workspace ends its memberships).
 *
 * Nothing here runs per stream or per event. A sweep, only while something is open, runs every
 * `SWEEP_MS` (and at once when the revocation feed restarts, when a revocation may have been
 * missed; when it carries a membership's end, on PostgreSQL; and on `recheck`) and asks the database two
 * questions for everything open together: which of the credentials are still live, and which
 * of the (user, workspace) pairs are still memberships. The sweep is also the safety net of
 * the event-driven path: a revoke made where no notification reaches this process (a SQL
 * change on the embedded database) still ends what it opened within `SWEEP_MS`.
 */
import { Cause, Clock, Context, Effect, Layer, Queue, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { Access } from "../board/Access.ts"
import type { CredentialKind, Principal } from "../domain/Principal.ts"
import { timestampOf } from "../infra/clock.ts"
import { CredentialCache } from "./CredentialCache.ts"

/** What the revocation feed carries when a membership ends (migrations/0016), before the user id. */
export const MEMBER_PREFIX = "member:"

/** How often what is open is re-checked against the database (the 1-second budget, with room). */
export const SWEEP_MS = 400

export interface Watched {
  readonly principal: Principal
  /** The workspace it reaches: it ends when its user is no longer a member. */
  readonly workspaceId?: string | undefined
  /** The project it follows (an event stream): it ends when the project is deleted. */
  readonly projectId?: string | undefined
  /**
   * Whether the credential's own expiry ends it. An event stream: yes. An MCP session: no; it
   * is bound to the OAuth grant, whose client refreshes its access token and carries on.
   */
  readonly endsAtExpiry: boolean
  /** Ends it; called once, synchronously, with why (for the client, e.g. an SSE comment). */
  readonly end: (reason: string) => void
}

interface Hold extends Watched {
  ended: boolean
}

/** Why a revoked credential's streams end, by kind. */
const revokedReason = (via: CredentialKind) =>
  via === "oauth"
    ? "the OAuth grant was revoked"
    : via === "browser"
      ? "the web session ended (signed out, expired or revoked)"
      : "the API key was revoked"

type Revocable = "apiKey" | "oauth" | "browser"
/** The kind of a credential that can be revoked, or undefined (a bootstrap session token). */
const revocable = (p: Principal): Revocable | undefined =>
  p.credentialId !== undefined && (p.via === "apiKey" || p.via === "oauth" || p.via === "browser") ? p.via : undefined

/** The credential's table, for the sweep's liveness question. */
const liveSql: Record<Revocable, string> = {
  apiKey: "SELECT id::text AS id FROM api_keys WHERE id = ANY($1::uuid[]) AND revoked_at IS NULL",
  oauth: "SELECT id::text AS id FROM oauth_grants WHERE id = ANY($2::uuid[]) AND revoked_at IS NULL",
  browser:
    "SELECT id::text AS id FROM web_sessions WHERE id = ANY($3::uuid[]) AND revoked_at IS NULL AND expires_at > $4::timestamptz"
}
/** The projects still there, in the same statement (prefixed: ids of different tables never meet). */
const projectsSql = "SELECT 'project:' || id::text AS id FROM projects WHERE id = ANY($5::uuid[])"

export class CredentialWatch extends Context.Service<
  CredentialWatch,
  {
    /** Watches something open for as long as the scope lasts. */
    readonly watch: (watched: Watched) => Effect.Effect<void, never, Scope.Scope>
    /** Watches something open until the returned release is called (for what outlives a scope). */
    readonly watchUnsafe: (watched: Watched) => () => void
    /**
     * Re-checks everything open now, in this process, done when what lost its access has
     * ended: for a change that sends no revocation (a membership removed on the embedded
     * database) to reach what is open before its request answers.
     */
    readonly recheck: Effect.Effect<void>
    /** What is watched, and under how many credentials (for tests and metrics). */
    readonly stats: () => { readonly open: number; readonly credentials: number }
  }
>()("board/core/CredentialWatch") {
  static readonly layer = Layer.effect(
    CredentialWatch,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cache = yield* CredentialCache
      const access = yield* Access
      // by credential id, so a revocation finds its holds in one look-up; a credential without
      // an id (a bootstrap session token, which cannot be revoked) is kept under its user
      const byCredential = new Map<string, Set<Hold>>()
      const keyOf = (p: Principal) => p.credentialId ?? `user:${p.userId}`
      const wake = yield* Queue.sliding<void>(1)
      let pendingRecheck = false
      const wakeSweep = () => {
        pendingRecheck = true
        Queue.offerUnsafe(wake, undefined)
      }
      const finish = (hold: Hold, reason: string) => {
        if (hold.ended) return
        hold.ended = true
        release(hold)
        hold.end(reason)
      }

      const release = (hold: Hold) => {
        const key = keyOf(hold.principal)
        const set = byCredential.get(key)
        if (set === undefined) return
        set.delete(hold)
        if (set.size === 0) byCredential.delete(key)
      }

      const watchUnsafe = (watched: Watched) => {
        const hold: Hold = { ...watched, ended: false }
        const key = keyOf(hold.principal)
        const set = byCredential.get(key) ?? new Set<Hold>()
        set.add(hold)
        byCredential.set(key, set)
        // an expiry sooner than the next sweep: the sweep wakes for it
        if (hold.endsAtExpiry && hold.principal.expiresAt !== undefined) Queue.offerUnsafe(wake, undefined)
        return () => {
          hold.ended = true
          release(hold)
        }
      }

      const stop = cache.onRevoked((credentialId) => {
        // the feed (re)started, a revocation may have been missed meanwhile; or a membership
        // ended (`member:<user id>`, migrations/0016): the sweep answers both
        if (credentialId === undefined || credentialId.startsWith(MEMBER_PREFIX)) return wakeSweep()
        const set = byCredential.get(credentialId)
        if (set === undefined) return
        for (const hold of [...set]) finish(hold, revokedReason(hold.principal.via))
      })
      yield* Effect.addFinalizer(() => Effect.sync(stop))

      /** Ends what expired; answers the time until the next expiry (at most a sweep away). */
      const expire = (now: number) => {
        let next = SWEEP_MS
        for (const set of byCredential.values())
          for (const hold of [...set]) {
            const at = hold.endsAtExpiry ? hold.principal.expiresAt : undefined
            if (at === undefined) continue
            if (at <= now) finish(hold, "the access token expired; refresh it and reconnect")
            else next = Math.min(next, at - now)
          }
        return next
      }

      const sweep = Effect.gen(function* () {
        const holds: Array<Hold> = []
        for (const set of byCredential.values()) for (const hold of set) holds.push(hold)
        if (holds.length === 0) return
        const ids: Record<Revocable, Set<string>> = {
          apiKey: new Set(),
          oauth: new Set(),
          browser: new Set()
        }
        const pairs = new Map<string, { userId: string; workspaceId: string }>()
        const projects = new Set<string>()
        for (const { principal: p, workspaceId, projectId } of holds) {
          const kind = revocable(p)
          if (kind !== undefined) ids[kind].add(p.credentialId!)
          if (workspaceId !== undefined) pairs.set(`${p.userId}/${workspaceId}`, { userId: p.userId, workspaceId })
          if (projectId !== undefined) projects.add(projectId)
        }
        const nanos = yield* Clock.currentTimeNanos
        const live = new Set(
          (yield* sql
            .unsafe<{ id: string }>(
              `${liveSql.apiKey} UNION ALL ${liveSql.oauth} UNION ALL ${liveSql.browser} UNION ALL ${projectsSql}`,
              [[...ids.apiKey], [...ids.oauth], [...ids.browser], timestampOf(nanos), [...projects]]
            )
            .pipe(Effect.orDie)).map((r) => r.id)
        )
        const members = yield* access.members([...pairs.values()])
        for (const hold of holds) {
          const p = hold.principal
          if (revocable(p) !== undefined && !live.has(p.credentialId!)) finish(hold, revokedReason(p.via))
          else if (hold.workspaceId !== undefined && !members.has(`${p.userId}/${hold.workspaceId}`))
            finish(hold, "you no longer have access to this workspace")
          else if (hold.projectId !== undefined && !live.has(`project:${hold.projectId}`))
            finish(hold, "the project was deleted")
        }
      })

      yield* Effect.gen(function* () {
        let untilSweep = SWEEP_MS
        for (;;) {
          const now = yield* Clock.currentTimeMillis
          const nextExpiry = expire(now)
          const wait = Math.max(1, Math.min(untilSweep, nextExpiry))
          const woke = yield* Queue.take(wake).pipe(Effect.timeoutOption(wait))
          const elapsed = (yield* Clock.currentTimeMillis) - now
          untilSweep -= elapsed
          // a wake is a feed restart or a membership's end (the sweep, now) or a new expiry
          if (untilSweep <= 0 || (woke._tag === "Some" && pendingRecheck)) {
            pendingRecheck = false
            untilSweep = SWEEP_MS
            yield* sweep.pipe(
              Effect.catchCause((cause) =>
                Cause.hasInterruptsOnly(cause)
                  ? Effect.interrupt
                  : Effect.logWarning("credential watch: a sweep failed; it runs again", cause)
              )
            )
          }
        }
      }).pipe(Effect.forkScoped)

      const recheck = sweep.pipe(
        Effect.catchCause((cause) => Effect.logWarning("credential watch: a re-check failed", cause))
      )

      return CredentialWatch.of({
        watch: (watched) =>
          Effect.acquireRelease(
            Effect.sync(() => watchUnsafe(watched)),
            (off) => Effect.sync(off)
          ),
        watchUnsafe,
        recheck,
        stats: () => {
          let open = 0
          for (const set of byCredential.values()) open += set.size
          return { open, credentials: byCredential.size }
        }
      })
    })
  )
}
