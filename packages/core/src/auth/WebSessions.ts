/**
 * The web board's sessions (issue 21): what a person's browser holds after signing in, as a
 * cookie the HTTP layer sets. Rules:
 * - the secret is a scanner-friendly token (`svc_ws_…`, secretTokens.ts); only its SHA-256
 *   digest is stored (migrations/0014_web_sessions.sql);
 * - a session ends when it is revoked (sign out), after 14 days without use (the expiry slides
 *   forward on use), or 30 days after sign-in whatever the use: the cookie lives 30 days;
 * - it reaches what an API key reaches (all the user's workspaces, key management);
 * - its CSRF token is an HMAC of the secret under the server's `webCsrf` key, so it needs no
 *   storage, cannot be forged without the secret and dies with the session;
 * - resolving goes through the CredentialCache like every credential, and a revoke is heard by
 *   every instance at once through the revocation feed (the table's trigger, migrations/0014).
 */
import { Clock, Context, Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import { SqlClient } from "effect/sql"
import { InvalidInput } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { timestampOf } from "../infra/clock.ts"
import { ServerSecret } from "../infra/Secret.ts"
import { CredentialCache } from "./CredentialCache.ts"
import { digestToken, isWellFormed, mintToken } from "./secretTokens.ts"

const DAY_MS = 24 * 60 * 60 * 1000
/** A session unused for this long has ended. */
export const WEB_SESSION_IDLE_MS = 14 * DAY_MS
/** No session outlives this, used or not; the cookie's own lifetime. */
export const WEB_SESSION_LIFETIME_MS = 30 * DAY_MS
/** The consent page's sign-in (purpose 'consent'): fixed, never extended by use. */
export const CONSENT_SESSION_MS = 30 * 60_000

export interface OpenedWebSession {
  /** The cookie's value; shown to the browser once, never stored. */
  readonly secret: string
  /** The token the app echoes in X-CSRF-Token (the readable cookie's value). */
  readonly csrfToken: string
  readonly maxAgeSeconds: number
}

/** What a request with the session cookie says about itself; the HTTP layer reads it off the wire. */
export interface BrowserCredential {
  /** The session cookie's value. */
  readonly session: string
  /** The X-CSRF-Token header. */
  readonly csrfToken: string | undefined
  /** POST, PUT, PATCH, DELETE: anything but a read. */
  readonly stateChanging: boolean
  /**
   * Where the request says it comes from: `app` (Origin is the app's origin, or Sec-Fetch-Site
   * is same-origin), `elsewhere` (another origin or site), `unstated` (neither header: a
   * browser's same-origin GET over plain http to a host that is not localhost sends neither).
   */
  readonly site: "app" | "elsewhere" | "unstated"
}

const nanos = (millis: number) => BigInt(millis) * 1_000_000n

export class WebSessions extends Context.Service<
  WebSessions,
  {
    /** Opens a session for a user who just proved who they are (login, signup). */
    readonly open: (userId: string) => Effect.Effect<OpenedWebSession>
    /** The principal of a live session, or nothing (unknown, malformed, expired, revoked). */
    readonly principal: (secret: string) => Effect.Effect<Principal | undefined>
    /** Whether `token` is the CSRF token of the session `secret` (constant time). */
    readonly csrfMatches: (secret: string, token: string | undefined) => boolean
    /**
     * Ends the session making the request (sign out), and every consent-page sign-in of the
     * same person, so no browser grants a new agent without the password afterwards; a
     * request made otherwise is refused.
     */
    readonly revoke: (principal: Principal) => Effect.Effect<void, InvalidInput>
    /**
     * The consent page's own sign-in (/oauth/authorize): a row of purpose 'consent', which
     * authenticates nothing but that page, for CONSENT_SESSION_MS. Answers the cookie's secret.
     */
    readonly openConsent: (userId: string) => Effect.Effect<{ secret: string; maxAgeSeconds: number }>
    /** The user of a live consent sign-in, or undefined (unknown, expired, ended by a sign out). */
    readonly consentUser: (secret: string | undefined) => Effect.Effect<string | undefined>
    /** Ends one consent sign-in ("Use another account"). */
    readonly endConsent: (secret: string | undefined) => Effect.Effect<void>
  }
>()("board/core/WebSessions") {
  static readonly layer = Layer.effect(
    WebSessions,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const keys = yield* ServerSecret
      const cache = yield* CredentialCache

      const csrfOf = (secret: string) =>
        crypto.createHmac("sha256", keys.webCsrf).update(secret, "utf8").digest("base64url")

      const csrfMatches = (secret: string, token: string | undefined) => {
        if (token === undefined) return false
        const expected = Buffer.from(csrfOf(secret), "utf8")
        const given = Buffer.from(token, "utf8")
        return given.length === expected.length && crypto.timingSafeEqual(given, expected)
      }

      const open = Effect.fn("WebSessions.open")(function* (userId: string) {
        const now = yield* Clock.currentTimeMillis
        const at = timestampOf(nanos(now))
        const secret = mintToken("webSession")
        // the user's ended sessions go when they open a new one, so the table holds live ones
        // and a few ended ones per person, without a sweeper
        yield* sql`
          DELETE FROM web_sessions WHERE user_id = ${userId}
            AND (revoked_at IS NOT NULL OR expires_at <= ${at}::timestamptz)`.pipe(Effect.orDie)
        yield* sql`
          INSERT INTO web_sessions (user_id, digest, created_at, last_used_at, expires_at)
          VALUES (${userId}, ${digestToken(secret)}, ${at}::timestamptz, ${at}::timestamptz,
            ${timestampOf(nanos(now + WEB_SESSION_IDLE_MS))}::timestamptz)`.pipe(Effect.orDie)
        return { secret, csrfToken: csrfOf(secret), maxAgeSeconds: WEB_SESSION_LIFETIME_MS / 1000 }
      })

      const principal = Effect.fnUntraced(function* (secret: string) {
        if (!isWellFormed("webSession", secret)) return undefined
        const digest = digestToken(secret)
        return yield* cache.resolve(
          digest,
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const at = timestampOf(nanos(now))
            // the expiry slides on use: written when the cache loads the session (at most
            // every 30 s per instance), never beyond the session's lifetime
            const [row] = yield* sql<{ id: string; user_id: string; expires_at: Date }>`
              UPDATE web_sessions SET last_used_at = ${at}::timestamptz,
                expires_at = LEAST(
                  created_at + ${`${WEB_SESSION_LIFETIME_MS} milliseconds`}::interval,
                  ${timestampOf(nanos(now + WEB_SESSION_IDLE_MS))}::timestamptz)
              WHERE digest = ${digest} AND purpose = 'app' AND revoked_at IS NULL AND expires_at > ${at}::timestamptz
              RETURNING id, user_id, expires_at`.pipe(Effect.orDie)
            if (row === undefined) return undefined
            return {
              value: {
                userId: row.user_id,
                via: "browser",
                workspaces: "all",
                credentialId: row.id
              } satisfies Principal,
              credentialId: row.id,
              expiresAt: new Date(row.expires_at).getTime()
            }
          })
        )
      })

      const revoke = Effect.fn("WebSessions.revoke")(function* (p: Principal) {
        if (p.via !== "browser" || p.credentialId === undefined) {
          return yield* new InvalidInput({
            message:
              "sign out ends a web session (the session cookie of the web app); an API key is revoked with DELETE /v1/api-keys/{id}"
          })
        }
        const now = yield* Clock.currentTimeMillis
        yield* sql`
          UPDATE web_sessions SET revoked_at = ${timestampOf(nanos(now))}::timestamptz
          WHERE (id = ${p.credentialId} OR purpose = 'consent') AND user_id = ${p.userId} AND revoked_at IS NULL`.pipe(
          Effect.orDie
        )
        yield* cache.invalidate(p.credentialId)
      })

      const openConsent = Effect.fn("WebSessions.openConsent")(function* (userId: string) {
        const now = yield* Clock.currentTimeMillis
        const at = timestampOf(nanos(now))
        const secret = mintToken("webSession")
        yield* sql`
          INSERT INTO web_sessions (user_id, digest, created_at, last_used_at, expires_at, purpose)
          VALUES (${userId}, ${digestToken(secret)}, ${at}::timestamptz, ${at}::timestamptz,
            ${timestampOf(nanos(now + CONSENT_SESSION_MS))}::timestamptz, 'consent')`.pipe(Effect.orDie)
        return { secret, maxAgeSeconds: CONSENT_SESSION_MS / 1000 }
      })

      // read straight from the table, not the cache: the page is rare, and a sign out must
      // end it at once on every instance
      const consentUser = Effect.fnUntraced(function* (secret: string | undefined) {
        if (secret === undefined || !isWellFormed("webSession", secret)) return undefined
        const now = yield* Clock.currentTimeMillis
        const [row] = yield* sql<{ user_id: string }>`
          SELECT user_id FROM web_sessions WHERE digest = ${digestToken(secret)} AND purpose = 'consent'
            AND revoked_at IS NULL AND expires_at > ${timestampOf(nanos(now))}::timestamptz`.pipe(Effect.orDie)
        return row?.user_id
      })

      const endConsent = Effect.fnUntraced(function* (secret: string | undefined) {
        if (secret === undefined || !isWellFormed("webSession", secret)) return
        const now = yield* Clock.currentTimeMillis
        yield* sql`
          UPDATE web_sessions SET revoked_at = ${timestampOf(nanos(now))}::timestamptz
          WHERE digest = ${digestToken(secret)} AND purpose = 'consent' AND revoked_at IS NULL`.pipe(Effect.orDie)
      })

      return WebSessions.of({ open, principal, csrfMatches, revoke, openConsent, consentUser, endConsent })
    })
  )
}
