/**
 * Turns the credential headers of a request into a Principal. Which credential kinds an
 * endpoint accepts is the caller's to say; every refusal is an `Unauthenticated` whose message
 * tells the person what to send instead, except a web session cookie used from elsewhere than
 * the app or without its CSRF token: `Forbidden` (the person is signed in; the request is not
 * the app's).
 *
 * An API key or a bearer token wins over the web session cookie: a script that sends its key
 * from a browser that happens to hold the cookie acts as the key, and needs no CSRF token.
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../Config.ts"
import { CredentialCache } from "./CredentialCache.ts"
import { Forbidden, Unauthenticated } from "../domain/errors.ts"
import type { ApiKeyScope } from "../domain/keyLimits.ts"
import type { CredentialKind, Principal } from "../domain/Principal.ts"
import { ServerSecret } from "../infra/Secret.ts"
import { OAuth } from "../oauth/OAuth.ts"
import { claimedKindOf, digestToken, isWellFormed, tokenKindOf } from "./secretTokens.ts"
import { verifySession } from "./sessionJwt.ts"
import { type BrowserCredential, WebSessions } from "./WebSessions.ts"

export interface PresentedCredentials {
  readonly apiKey: string | undefined
  readonly authorization: string | undefined
  readonly intakeKey: string | undefined
  /** The web board's session cookie, with what the request says about its origin. */
  readonly browser?: BrowserCredential | undefined
}

export type UserCredentialKind = Exclude<CredentialKind, "intake">

interface KeyPrincipalRow {
  readonly id: string
  readonly user_id: string
  readonly kind: string
  readonly scopes: ReadonlyArray<string> | null
  readonly project_ids: ReadonlyArray<string> | null
  readonly expires_at: Date | string | null
  readonly project_workspaces: ReadonlyArray<string> | null
}

/**
 * An API key's principal with its limits (issue 33): its scopes, its projects (and so the
 * workspaces it reaches: those projects'), its expiry (which also ends what it opened:
 * CredentialWatch.ts).
 */
const keyPrincipal = (row: KeyPrincipalRow) => {
  const expiresAt = row.expires_at === null ? undefined : new Date(row.expires_at).getTime()
  const value: Principal = {
    userId: row.user_id,
    via: "apiKey",
    workspaces: row.project_ids === null ? "all" : new Set(row.project_workspaces ?? []),
    credentialId: row.id,
    ...(row.kind === "agent" ? { agent: true } : {}),
    ...(row.scopes === null ? {} : { scopes: new Set(row.scopes as ReadonlyArray<ApiKeyScope>) }),
    ...(row.project_ids === null ? {} : { projects: new Set(row.project_ids) }),
    ...(expiresAt === undefined ? {} : { expiresAt })
  }
  return { value, credentialId: row.id, expiresAt }
}

const refuse = (message: string, invalidToken = true) => new Unauthenticated({ message, invalidToken })

const describe = (accepts: ReadonlyArray<UserCredentialKind>): string => {
  const parts: Array<string> = []
  if (accepts.includes("apiKey")) parts.push("an API key in X-API-Key")
  if (accepts.includes("oauth")) parts.push("an OAuth access token as Authorization: Bearer")
  if (accepts.includes("session")) parts.push("a session token as Authorization: Bearer")
  return parts.join(" or ")
}

const bearerOf = (authorization: string): string | undefined => {
  const m = /^Bearer +(\S+) *$/i.exec(authorization)
  return m?.[1]
}

export class Credentials extends Context.Service<
  Credentials,
  {
    readonly resolve: (
      presented: PresentedCredentials,
      accepts: ReadonlyArray<UserCredentialKind>
    ) => Effect.Effect<Principal, Unauthenticated | Forbidden>
  }
>()("board/core/Credentials") {
  static readonly layer = Layer.effect(
    Credentials,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const keys = yield* ServerSecret
      const oauth = yield* OAuth
      const cache = yield* CredentialCache
      const webSessions = yield* WebSessions

      const browserPrincipal = Effect.fnUntraced(function* (browser: BrowserCredential) {
        // SameSite=Lax keeps the cookie off cross-site subrequests in current browsers; these
        // checks hold for older ones and for a same-site neighbour (another subdomain)
        if (browser.site === "elsewhere") {
          return yield* new Forbidden({
            message: "the web session cookie is accepted only from the web app's own origin; elsewhere send an API key"
          })
        }
        if (browser.stateChanging) {
          // a browser always sends Origin with a state-changing request: one without it is no
          // request of the app's
          if (browser.site !== "app") {
            return yield* new Forbidden({ message: "a change made with the web session cookie needs an Origin header" })
          }
          if (!webSessions.csrfMatches(browser.session, browser.csrfToken)) {
            return yield* new Forbidden({
              message:
                "missing or wrong X-CSRF-Token: a change made with the web session cookie must send the board_csrf cookie's value in X-CSRF-Token"
            })
          }
        }
        const principal = yield* webSessions.principal(browser.session)
        if (principal === undefined) {
          return yield* refuse("your web session has ended (signed out, expired or revoked); sign in again", false)
        }
        return principal
      })

      const apiKeyPrincipal = Effect.fnUntraced(function* (key: string) {
        if (!isWellFormed("apiKey", key)) return yield* refuse("invalid API key: it is malformed or mistyped")
        const digest = digestToken(key)
        const principal = yield* cache.resolve(
          digest,
          sql<KeyPrincipalRow>`
          SELECT k.id, k.user_id, u.kind, k.scopes, k.project_ids, k.expires_at,
            (SELECT array_agg(DISTINCT p.workspace_id) FROM projects p WHERE p.id = ANY(k.project_ids)) AS project_workspaces
          FROM api_keys k JOIN users u ON u.id = k.user_id
          WHERE k.digest = ${digest} AND k.revoked_at IS NULL`.pipe(
            Effect.orDie,
            Effect.map(([row]) => (row === undefined ? undefined : keyPrincipal(row)))
          )
        )
        if (principal === undefined) return yield* refuse("invalid API key: unknown or revoked")
        // an expired key (issue 33): refused from its expiry on (a cached entry ends then too)
        const now = yield* Clock.currentTimeMillis
        if (principal.expiresAt !== undefined && principal.expiresAt <= now) {
          return yield* refuse(
            `this API key expired at ${new Date(principal.expiresAt).toISOString()}: make a new one (POST /v1/api-keys)`
          )
        }
        return principal
      })

      const resolve = Effect.fnUntraced(function* (
        presented: PresentedCredentials,
        accepts: ReadonlyArray<UserCredentialKind>
      ) {
        const intakeOnly = "intake tokens are accepted only by POST /v1/intake"
        if (presented.intakeKey !== undefined) return yield* refuse(intakeOnly)
        if (presented.apiKey !== undefined) {
          const key = presented.apiKey.trim()
          if (tokenKindOf(key) === "intake") return yield* refuse(intakeOnly)
          if (!accepts.includes("apiKey")) {
            return yield* refuse(`this endpoint does not accept API keys; send ${describe(accepts)}`, false)
          }
          return yield* apiKeyPrincipal(key)
        }
        if (presented.authorization !== undefined) {
          const token = bearerOf(presented.authorization)
          if (token === undefined) {
            return yield* refuse(`malformed Authorization header; send ${describe(accepts)}`)
          }
          const kind = tokenKindOf(token)
          const claimed = kind ?? (token.includes(".") ? undefined : claimedKindOf(token))
          if (claimed === "apiKey") {
            return yield* refuse(
              "API keys are not accepted as Authorization: Bearer; send the key in the X-API-Key header"
            )
          }
          if (claimed === "oauthRefresh" || claimed === "authCode") {
            return yield* refuse(
              `a ${claimed === "authCode" ? "authorization code" : "refresh token"} is not an access token: exchange it at /oauth/token`
            )
          }
          if (kind === undefined && claimed === "oauthAccess")
            return yield* refuse("invalid OAuth access token: it is malformed or mistyped")
          if (kind === undefined && claimed === "intake") return yield* refuse(intakeOnly)
          if (kind === "intake") return yield* refuse(intakeOnly)
          if (kind === "oauthAccess") {
            if (!accepts.includes("oauth")) {
              return yield* refuse(
                `this endpoint does not accept OAuth access tokens; send ${describe(accepts)}`,
                false
              )
            }
            const principal = yield* oauth.accessPrincipal(token)
            if (principal === undefined) return yield* refuse("invalid OAuth access token: unknown, expired or revoked")
            return principal
          }
          const now = yield* Clock.currentTimeMillis
          const session = yield* verifySession(keys.session, config.publicUrl, token, now)
          if (session === undefined)
            return yield* refuse("invalid bearer token: not a live session or OAuth access token")
          if (!accepts.includes("session")) {
            return yield* refuse(
              `session tokens only work on the account bootstrap endpoints; create an API key (POST /v1/api-keys) and send it in X-API-Key`,
              false
            )
          }
          const [user] = yield* sql`SELECT 1 FROM users WHERE id = ${session.userId}`.pipe(Effect.orDie)
          if (user === undefined) return yield* refuse("invalid session: the account no longer exists")
          return { userId: session.userId, via: "session", workspaces: "all" } satisfies Principal
        }
        if (presented.browser !== undefined && accepts.includes("browser")) {
          return yield* browserPrincipal(presented.browser)
        }
        return yield* refuse(`missing credential: send ${describe(accepts)}`, false)
      })

      return Credentials.of({ resolve })
    })
  )
}
