/**
 * Credentials resolved once, then served from memory: an API key, an OAuth access token or an
 * intake token costs a database round trip on its first request only (issue 14).
 *
 * A revoked credential must be refused by every instance within a second, so an entry lives
 * only while this process hears of revocations:
 * - the revoking request drops its entries at once (`invalidate`, called by every revoke);
 * - on PostgreSQL, a trigger on each credential table NOTIFYs `board_revoked` with the
 *   credential's id when it is revoked or deleted (migrations/0007), also for a revoke typed
 *   in psql; every instance LISTENs and drops its entries. While that LISTEN is not up (start,
 *   a dropped connection, or 3 s without the heartbeat every instance sends each second)
 *   nothing is cached and the whole cache is dropped, because a notification may have been
 *   missed;
 * - the embedded database has one owning process, whose own revokes are the only ones;
 * - no entry outlives `ENTRY_TTL_MS` or its credential's own expiry: a change made in SQL
 *   outside the triggers still takes effect within that time.
 */
import { PgClient } from "@effect/sql-pg"
import { Cause, Clock, Context, Effect, Layer, Queue, Schedule } from "effect"
import { AppConfig } from "../Config.ts"

/** The safety net beside the revocation feed. */
export const ENTRY_TTL_MS = 30_000
/** Entries kept at most; the oldest go first. */
export const MAX_ENTRIES = 20_000
/** The channel the revocation triggers notify (migrations/0007_revocation_feed.sql). */
export const REVOCATION_CHANNEL = "board_revoked"
/** What instances send on the channel to show the feed is alive (never a credential id). */
const HEARTBEAT = "heartbeat"

export interface Resolved<A> {
  readonly value: A
  /** The id a revocation names: api key id, OAuth grant id, intake token id. */
  readonly credentialId: string
  /** When the credential itself expires (ms since the epoch), if it does. */
  readonly expiresAt?: number | undefined
}

interface Entry {
  readonly value: unknown
  readonly credentialId: string
  readonly until: number
}

export class CredentialCache extends Context.Service<
  CredentialCache,
  {
    /**
     * The value cached under `digest` (a SHA-256 of the secret: raw secrets are never held), or
     * what `load` resolves, cached when it resolved to something.
     */
    readonly resolve: <A, E, R>(
      digest: string,
      load: Effect.Effect<Resolved<A> | undefined, E, R>
    ) => Effect.Effect<A | undefined, E, R>
    /** Forgets every entry of a credential (after its revoke committed). */
    readonly invalidate: (credentialId: string) => Effect.Effect<void>
    /**
     * Registers a listener told of every revocation this process hears (its own revokes and,
     * on PostgreSQL, every instance's), synchronously; `undefined` when the revocation feed
     * (re)starts, as one may have been missed meanwhile. Returns its removal. What a
     * credential opened (event streams, MCP sessions) ends through this (CredentialWatch.ts).
     */
    readonly onRevoked: (listener: (credentialId: string | undefined) => void) => () => void
  }
>()("board/core/CredentialCache") {
  static readonly layer = Layer.effect(
    CredentialCache,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const entries = new Map<string, Entry>()
      // the embedded database has one owning process: every revoke happens here
      let live = config.databaseUrl === undefined

      // bumped by every revocation heard: a load that overlapped one is not cached
      let revocations = 0
      const listeners = new Set<(credentialId: string | undefined) => void>()
      const tell = (credentialId: string | undefined) => {
        for (const listener of listeners) listener(credentialId)
      }
      const dropCredential = (credentialId: string) => {
        revocations++
        for (const [digest, entry] of entries) if (entry.credentialId === credentialId) entries.delete(digest)
        tell(credentialId)
      }

      const resolve = <A, E, R>(digest: string, load: Effect.Effect<Resolved<A> | undefined, E, R>) =>
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const hit = entries.get(digest)
          if (hit !== undefined && hit.until > now && live) return hit.value as A
          if (hit !== undefined) entries.delete(digest)
          const before = revocations
          const wasLive = live
          const found = yield* load
          if (found === undefined) return undefined
          // cached only if the feed was up for the whole load and no revoke came during it
          if (wasLive && live && before === revocations) {
            if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
            entries.set(digest, {
              value: found.value,
              credentialId: found.credentialId,
              until: Math.min(now + ENTRY_TTL_MS, found.expiresAt ?? Number.POSITIVE_INFINITY)
            })
          }
          return found.value
        })

      if (config.databaseUrl !== undefined) {
        const pg = yield* PgClient.PgClient
        const listenOnce = Effect.scoped(
          Effect.gen(function* () {
            const queue = yield* pg.listen(REVOCATION_CHANNEL)
            // a LISTEN connection can die without a word (a partition, a failover): each instance
            // says it is alive on the channel every second, and 3 s of silence ends this listener
            yield* pg.notify(REVOCATION_CHANNEL, HEARTBEAT).pipe(
              Effect.catchCause(() => Effect.void),
              Effect.repeat(Schedule.spaced("1 second")),
              Effect.forkScoped
            )
            entries.clear()
            revocations++
            live = true
            tell(undefined)
            for (;;) {
              const { payload } = yield* Queue.take(queue).pipe(Effect.timeout("3 seconds"))
              // a credential's id, or `member:<user id>` when a membership ended (migrations/0016:
              // it matches no entry; CredentialWatch re-checks the streams)
              if (payload !== HEARTBEAT) dropCredential(payload)
            }
          })
        ).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              live = false
              revocations++
              entries.clear()
            })
          ),
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.interrupt
              : Effect.logWarning("credential cache: the revocation feed dropped; not caching until it is back", cause)
          )
        )
        yield* listenOnce.pipe(Effect.repeat(Schedule.spaced("1 second")), Effect.forkScoped)
      }

      return CredentialCache.of({
        resolve,
        invalidate: (credentialId) => Effect.sync(() => dropCredential(credentialId)),
        onRevoked: (listener) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        }
      })
    })
  )
}
