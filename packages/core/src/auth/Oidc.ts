/**
 * Single sign-on through one OpenID provider (issue 30, CONTRACT.md "Single sign-on",
 * docs/sso.md), with `openid-client` (issuer discovery, authorization code flow with PKCE, state
 * and nonce). The HTTP layer (http/src/oidc/OidcRoutes.ts) carries the browser between here and
 * the provider; the rules are here:
 * - the flow's secrets (state, nonce, PKCE verifier, where to go after) travel in one cookie,
 *   signed with a key derived from the server's SECRET and valid for 10 minutes, so any instance
 *   can finish a flow another started and nothing is stored before the person comes back;
 * - a sign-in needs the provider's email with `email_verified` true, in OIDC_ALLOWED_DOMAINS when
 *   set, every time;
 * - the account: the one already linked to the provider's subject (oidc_identities,
 *   migrations/0021), else the account with that email, which is then linked (a password account
 *   is never duplicated), else a new account (only while SIGNUPS_OPEN; its password is unusable
 *   until reset);
 * - plain http to the provider only for a loopback issuer (Config.ts refuses any other).
 */
import { Clock, Context, Data, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import * as client from "openid-client"
import { AppConfig, isLoopbackHost, type OidcSettings } from "../Config.ts"
import { charCount } from "../domain/limits.ts"
import { sqlNow } from "../infra/clock.ts"
import { ServerSecret } from "../infra/Secret.ts"
import { isEmailAddress, normalizeEmail } from "./Accounts.ts"
import { OWASP_SCRYPT } from "./passwords.ts"

/** A sign-in through the provider that did not happen, with what the person can do about it. */
export class OidcRefused extends Data.TaggedError("OidcRefused")<{
  readonly message: string
  /** 403: this person may not sign in so; 400: the flow itself is broken or stale; 502: the provider failed. */
  readonly status: 400 | 403 | 502
}> {}

export interface SignInProvider {
  readonly id: "oidc"
  /** Shown as "Sign in with <name>". */
  readonly name: string
  /** Where the sign-in page's button goes (a path on this origin). */
  readonly startUrl: string
}

export interface OidcStarted {
  /** The provider's authorization URL to send the browser to. */
  readonly location: string
  /** The flow cookie's value. */
  readonly flow: string
  readonly maxAgeSeconds: number
}

export interface OidcSignedIn {
  readonly userId: string
  /** Where the app goes now: a path on this origin. */
  readonly next: string
  /** What happened to the account: found by its subject, linked by its email, or made. */
  readonly account: "found" | "linked" | "created"
}

export const OIDC_FLOW_SECONDS = 600
export const OIDC_CALLBACK_PATH = "/auth/oidc/callback"
export const OIDC_START_PATH = "/auth/oidc/start"

/** A path of this app to return to, never another origin (`//evil`, `/\evil`, `https:`). */
export const safeNext = (next: string | undefined): string =>
  next !== undefined && /^\/(?![/\\])/.test(next) && !/[\u0000-\u001f]/.test(next) && next.length <= 2000 ? next : "/"

interface Flow {
  readonly state: string
  readonly nonce: string
  readonly verifier: string
  readonly next: string
  readonly expiresAt: number
}

/**
 * A password hash in the stored format of a password no one knows: login verifies against it at
 * the cost of a real one (so it reveals nothing by timing) and it never matches.
 */
const unusablePasswordHash = () =>
  `$scrypt$ln=${OWASP_SCRYPT.logN},r=${OWASP_SCRYPT.r},p=${OWASP_SCRYPT.p}$${crypto.randomBytes(16).toString("base64")}$${crypto.randomBytes(32).toString("base64")}`

const fullNameOf = (claims: Record<string, unknown>, email: string): string => {
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "")
  const name =
    text(claims.name) || [text(claims.given_name), text(claims.family_name)].filter((s) => s !== "").join(" ")
  const chosen = name !== "" && !/[\u0000-\u001f\u007f]/.test(name) ? name : email.split("@")[0]!
  return charCount(chosen) > 200 ? [...chosen].slice(0, 200).join("") : chosen
}

export class Oidc extends Context.Service<
  Oidc,
  {
    /** The providers the sign-in page offers: none, or the one configured. */
    readonly providers: ReadonlyArray<SignInProvider>
    /** Begins a sign-in: the provider's URL and the flow cookie. */
    readonly start: (next: string | undefined) => Effect.Effect<OidcStarted, OidcRefused>
    /** Ends one: the provider's answer (the callback URL as received) checked against the flow cookie. */
    readonly finish: (input: {
      readonly query: string
      readonly flow: string | undefined
    }) => Effect.Effect<OidcSignedIn, OidcRefused>
  }
>()("board/core/Oidc") {
  static readonly layer = Layer.effect(
    Oidc,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const settings = config.oidc
      const refusedOff = new OidcRefused({
        message: "single sign-on is not configured on this server: sign in with your email and password",
        status: 400
      })
      if (settings === undefined) {
        return Oidc.of({ providers: [], start: () => Effect.fail(refusedOff), finish: () => Effect.fail(refusedOff) })
      }
      const sql = yield* SqlClient.SqlClient
      const keys = yield* ServerSecret
      // a key of its own, derived from the OAuth pages' CSRF key (itself derived from SECRET)
      const flowKey = Buffer.from(crypto.hkdfSync("sha256", keys.csrf, Buffer.alloc(0), "board:oidc-flow", 32))
      const redirectUri = `${config.publicUrl}${OIDC_CALLBACK_PATH}`
      return Oidc.of({
        providers: [{ id: "oidc", name: settings.name, startUrl: OIDC_START_PATH }],
        ...makeFlows(settings, redirectUri, flowKey, sql, config.signupsOpen)
      })
    })
  )
}

const makeFlows = (
  settings: OidcSettings,
  redirectUri: string,
  flowKey: Buffer,
  sql: SqlClient.SqlClient,
  signupsOpen: boolean
) => {
  const provider = settings.name
  const issuerUrl = new URL(settings.issuer)
  const insecure = issuerUrl.protocol === "http:" && isLoopbackHost(issuerUrl.hostname.replace(/^\[|\]$/g, ""))
  // discovered once, on the first sign-in (a provider down at start does not stop the server);
  // a failed discovery is tried again on the next one
  let discovered: client.Configuration | undefined
  const configuration = Effect.suspend(() =>
    discovered !== undefined
      ? Effect.succeed(discovered)
      : Effect.tryPromise({
          try: () =>
            client.discovery(
              issuerUrl,
              settings.clientId,
              settings.clientSecret,
              undefined,
              insecure ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 }
            ),
          catch: (e) =>
            new OidcRefused({
              message: `${provider} cannot be reached to sign in (${(e as Error).message}); try again later, or sign in with your email and password`,
              status: 502
            })
        }).pipe(Effect.tap((c) => Effect.sync(() => (discovered = c))))
  )

  const sign = (payload: string) => crypto.createHmac("sha256", flowKey).update(payload).digest("base64url")
  const encodeFlow = (flow: Flow) => {
    const payload = Buffer.from(JSON.stringify(flow), "utf8").toString("base64url")
    return `${payload}.${sign(payload)}`
  }
  const stale = new OidcRefused({
    message: `This sign-in with ${provider} expired or was started in another browser or at another address of this server. Go back to the sign-in page and choose "Sign in with ${provider}" again.`,
    status: 400
  })
  const decodeFlow = (text: string | undefined, now: number): Flow | undefined => {
    const [payload, mac] = (text ?? "").split(".")
    if (payload === undefined || mac === undefined) return undefined
    const expected = Buffer.from(sign(payload))
    const given = Buffer.from(mac)
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined
    try {
      const flow = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Flow
      return flow.expiresAt > now ? flow : undefined
    } catch {
      return undefined
    }
  }

  const start = Effect.fn("Oidc.start")(function* (next: string | undefined) {
    const c = yield* configuration
    const now = yield* Clock.currentTimeMillis
    const flow: Flow = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      verifier: client.randomPKCECodeVerifier(),
      next: safeNext(next),
      expiresAt: now + OIDC_FLOW_SECONDS * 1000
    }
    const challenge = yield* Effect.promise(() => client.calculatePKCECodeChallenge(flow.verifier))
    const url = client.buildAuthorizationUrl(c, {
      redirect_uri: redirectUri,
      scope: "openid email profile",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: flow.state,
      nonce: flow.nonce
    })
    return { location: url.href, flow: encodeFlow(flow), maxAgeSeconds: OIDC_FLOW_SECONDS }
  })

  const refused = (message: string) => new OidcRefused({ message, status: 403 })

  const finish = Effect.fn("Oidc.finish")(function* (input: {
    readonly query: string
    readonly flow: string | undefined
  }) {
    const now = yield* Clock.currentTimeMillis
    const flow = decodeFlow(input.flow, now)
    if (flow === undefined) return yield* stale
    const c = yield* configuration
    const callback = new URL(redirectUri)
    callback.search = input.query
    const tokens = yield* Effect.tryPromise({
      try: () =>
        client.authorizationCodeGrant(c, callback, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true
        }),
      catch: (e) =>
        e instanceof client.AuthorizationResponseError
          ? new OidcRefused({
              message: `${provider} did not sign you in: ${e.error_description ?? e.error}. Go back to the sign-in page to try again.`,
              status: e.error === "access_denied" ? 403 : 400
            })
          : new OidcRefused({
              message: `Signing in with ${provider} failed: ${(e as Error).message}. Go back to the sign-in page to try again.`,
              status: 502
            })
    })
    const idClaims = tokens.claims()!
    let claims: Record<string, unknown> = idClaims
    // many providers put the email in the userinfo answer only (the ID token carries what the
    // `claims` parameter asked for); the subject must be the ID token's
    if (typeof idClaims.email !== "string" || idClaims.email_verified === undefined) {
      const info = yield* Effect.tryPromise({
        try: () => client.fetchUserInfo(c, tokens.access_token, idClaims.sub),
        catch: (e) =>
          new OidcRefused({
            message: `${provider} did not tell this server your email (${(e as Error).message}). Try again, or sign in with your email and password.`,
            status: 502
          })
      })
      claims = {
        ...info,
        ...idClaims,
        email: idClaims.email ?? info.email,
        email_verified: idClaims.email_verified ?? info.email_verified
      }
    }
    const email = typeof claims.email === "string" ? normalizeEmail(claims.email) : ""
    if (!isEmailAddress(email))
      return yield* refused(
        `${provider} did not share an email address for your account. Allow this application to see your email at ${provider}, or sign in with your email and password.`
      )
    // a boolean per OIDC Core; a few providers send the string
    if (claims.email_verified !== true && claims.email_verified !== "true")
      return yield* refused(
        `${provider} says your email ${email} is not verified. Verify it at ${provider}, then sign in again.`
      )
    const domain = email.slice(email.lastIndexOf("@") + 1)
    if (settings.allowedDomains.length > 0 && !settings.allowedDomains.includes(domain))
      return yield* refused(
        `Accounts of ${domain} cannot sign in to this server with ${provider}: only ${settings.allowedDomains.join(", ")}. Sign in with an account of one of these domains, or ask an administrator.`
      )
    const issuer = c.serverMetadata().issuer
    const account = yield* accountFor({ issuer, subject: idClaims.sub, email, fullName: fullNameOf(claims, email) })
    if (account === undefined)
      return yield* refused(
        `No account on this server has the email ${email}, and new accounts are closed. Ask an administrator of this server to add you, then sign in with ${provider} again.`
      )
    return { userId: account.userId, account: account.how, next: flow.next }
  })

  /** The account of this identity: by subject, else by email (linked), else made (when signups are open). */
  const accountFor = (who: { issuer: string; subject: string; email: string; fullName: string }) =>
    Effect.gen(function* () {
      const now = yield* sqlNow
      const [known] = yield* sql<{ user_id: string }>`
        UPDATE oidc_identities SET last_used_at = ${now}::timestamptz, email = ${who.email}
        WHERE issuer = ${who.issuer} AND subject = ${who.subject} RETURNING user_id`
      if (known !== undefined) return { userId: known.user_id, how: "found" as const }
      let [user] = yield* sql<{ id: string }>`SELECT id FROM users WHERE email = ${who.email}`
      let how: "linked" | "created" = "linked"
      if (user === undefined) {
        if (!signupsOpen) return undefined
        ;[user] = yield* sql<{ id: string }>`
          INSERT INTO users (email, full_name, password_hash, created_at, updated_at)
          VALUES (${who.email}, ${who.fullName}, ${unusablePasswordHash()}, ${now}::timestamptz, ${now}::timestamptz)
          ON CONFLICT (email) DO NOTHING RETURNING id`
        // made at this moment by a signup elsewhere: link that one
        if (user === undefined) [user] = yield* sql<{ id: string }>`SELECT id FROM users WHERE email = ${who.email}`
        else how = "created"
      }
      yield* sql`
        INSERT INTO oidc_identities (issuer, subject, user_id, email, created_at, last_used_at)
        VALUES (${who.issuer}, ${who.subject}, ${user!.id}, ${who.email}, ${now}::timestamptz, ${now}::timestamptz)
        ON CONFLICT (issuer, subject) DO NOTHING`
      return { userId: user!.id, how }
    }).pipe(sql.withTransaction, Effect.orDie)

  return { start, finish }
}
