/** Signup, login and API keys: the account bootstrap of SPEC.md. */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../Config.ts"
import { isUuid, requireScopes, scopesFor } from "../board/Access.ts"
import type { ProjectId } from "../domain/ids.ts"
import type { ApiKeyScope, KeyLimitsInput } from "../domain/keyLimits.ts"
import { KEY_LIMIT_COLUMNS, type KeyLimitRow, limitsView, settleLimits } from "./keyLimits.ts"
import { iso } from "../board/rows.ts"
import { Conflict, Forbidden, InvalidInput, NotFound, TooManyRequests, Unauthenticated } from "../domain/errors.ts"
import type { CredentialKind, Principal } from "../domain/Principal.ts"
import { charCount } from "../domain/limits.ts"
import { sqlNow } from "../infra/clock.ts"
import { RateBudget } from "../infra/RateBudget.ts"
import { ServerSecret } from "../infra/Secret.ts"
import * as crypto from "node:crypto"
import { COMMON_PASSWORD_MESSAGE, emailCharacterProblem, isCommonPassword } from "./credentialRules.ts"
import { makePasswordHasher, type PasswordHasher, passwordLength } from "./passwords.ts"
import { digestToken, mintToken } from "./secretTokens.ts"
import { SESSION_TTL_SECONDS, signSession } from "./sessionJwt.ts"
import { CredentialCache } from "./CredentialCache.ts"
import { Invitations } from "../board/Invitations.ts"

export interface AuthSession {
  readonly session: {
    readonly access_token: string
    readonly token_type: "bearer"
    readonly expires_in: number
    readonly expires_at: string
  }
  readonly user: { readonly id: string; readonly email: string; readonly full_name: string }
}

/** Who the calling credential acts for, and which kind of credential it is. */
export interface Me {
  readonly id: string
  readonly email: string
  readonly full_name: string
  readonly credential: CredentialKind
}

/** A key's limits (issue 33), as its answers say them. */
export interface KeyLimitsView {
  readonly scopes: ReadonlyArray<ApiKeyScope>
  readonly projectIds: ReadonlyArray<ProjectId> | null
  readonly expiresAt: string | null
}

export interface CreatedApiKey extends KeyLimitsView {
  readonly id: string
  readonly name: string
  readonly rawKey: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** An API key as its owner sees it later: never the key itself, which is shown once. */
export interface ApiKeyInfo extends KeyLimitsView {
  readonly id: string
  readonly name: string
  readonly createdAt: string
  readonly updatedAt: string
  /** Whether this is the key making the request. */
  readonly current: boolean
}

/** Lower-cased and trimmed: `A@X.io` and `a@x.io` are one account. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Whether a normalised email has the shape of an address (signup's check, and adding a member's). */
export const isEmailAddress = (email: string): boolean =>
  charCount(email) <= 254 && EMAIL.test(email) && emailCharacterProblem(email) === undefined

/**
 * The per-account login limit (issue 28), beside the per-address budget every credential-less
 * request pays: more addresses must not mean more guesses at one account.
 * - LOGIN_FAILURES wrong passwords for one email within LOGIN_FAILURE_WINDOW_MS lock that email
 *   (429 with Retry-After) until its window ends: at most 15 minutes after the first failure.
 *   Unknown emails count alike, so the 429 does not tell which accounts exist.
 * - While locked, an address that signed in to this account within the last 30 days is still
 *   let through to the password check (its failures count as well): a third person who keeps
 *   the account's budget spent locks out guessers, not the owner at their usual address.
 * - Counted in the RateBudget's store: Redis when REDIS_URL is set, so shared by every instance;
 *   keyed by a digest of the email, so no address is written to Redis. A lost store fails open.
 */
export const LOGIN_FAILURES = 10
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000
const accountKey = (email: string) =>
  crypto.createHash("sha256").update(`login:${email}`).digest("base64url").slice(0, 24)

export class Accounts extends Context.Service<
  Accounts,
  {
    /** With `invitation` (a token), the account joins that workspace at once, even with signups closed. */
    readonly signup: (input: {
      email: string
      password: string
      full_name: string
      invitation?: string | undefined
    }) => Effect.Effect<AuthSession, InvalidInput | Conflict | Forbidden | NotFound | TooManyRequests>
    /** `address`: the client's address, for the per-account limit's known addresses. */
    readonly login: (input: {
      email: string
      password: string
      address?: string
    }) => Effect.Effect<AuthSession, Unauthenticated | TooManyRequests>
    readonly createApiKey: (
      principal: Principal,
      input: { readonly name: string } & KeyLimitsInput
    ) => Effect.Effect<CreatedApiKey, InvalidInput | Forbidden | NotFound>
    /** The caller's live API keys, oldest first. */
    readonly apiKeys: (principal: Principal) => Effect.Effect<ReadonlyArray<ApiKeyInfo>, Forbidden>
    /** Revokes one of the caller's keys at once (the calling key included); NotFound for any other id. */
    readonly revokeApiKey: (principal: Principal, keyId: string) => Effect.Effect<void, NotFound | Forbidden>
    /** The account's id, email and name, or nothing when it is gone. */
    readonly profile: (userId: string) => Effect.Effect<ReadonlyArray<{ id: string; email: string; full_name: string }>>
    /** The caller's own account (`GET /v1/me`): who a credential acts for. */
    readonly me: (principal: Principal) => Effect.Effect<Me, NotFound>
  }
>()("board/core/Accounts") {
  static readonly layerWith = (hasher: PasswordHasher) =>
    Layer.effect(
      Accounts,
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const cache = yield* CredentialCache
        const config = yield* AppConfig
        const keys = yield* ServerSecret
        const budget = yield* RateBudget
        const invitations = yield* Invitations

        const issue = Effect.fnUntraced(function* (user: { id: string; email: string; full_name: string }) {
          const now = yield* Clock.currentTimeMillis
          const token = yield* signSession(keys.session, config.publicUrl, user.id, now)
          return {
            session: {
              access_token: token,
              token_type: "bearer" as const,
              expires_in: SESSION_TTL_SECONDS,
              expires_at: new Date(now + SESSION_TTL_SECONDS * 1000).toISOString()
            },
            user: { id: user.id, email: user.email, full_name: user.full_name }
          }
        })

        const signup = Effect.fn("Accounts.signup")(function* (input: {
          email: string
          password: string
          full_name: string
          invitation?: string | undefined
        }) {
          // an invitation opens the door that SIGNUPS_OPEN=false closes
          if (!config.signupsOpen && input.invitation === undefined) {
            return yield* new Forbidden({
              message: "signups are closed on this server; ask a member of a workspace for an invitation link"
            })
          }
          const email = normalizeEmail(input.email)
          const invisible = emailCharacterProblem(email)
          if (invisible !== undefined) return yield* new InvalidInput({ message: invisible })
          if (!isEmailAddress(email)) {
            return yield* new InvalidInput({ message: "email: expected an email address such as ada@example.com" })
          }
          const length = passwordLength(input.password)
          if (length < 8 || length > 128) {
            return yield* new InvalidInput({ message: `password: must be 8 to 128 characters long (got ${length})` })
          }
          if (yield* isCommonPassword(input.password))
            return yield* new InvalidInput({ message: COMMON_PASSWORD_MESSAGE })
          const fullName = input.full_name.trim()
          if (fullName === "" || charCount(fullName) > 200) {
            return yield* new InvalidInput({ message: "full_name: must be 1 to 200 characters and not blank" })
          }
          // a dead link or one for another address costs no signup attempt
          if (input.invitation !== undefined) yield* invitations.check(input.invitation, email)
          // The interval is claimed in the database so it holds across every instance.
          const now = yield* sqlNow
          const claimed = yield* sql<{ email: string }>`
            INSERT INTO signup_attempts (email, attempted_at) VALUES (${email}, ${now}::timestamptz)
            ON CONFLICT (email) DO UPDATE SET attempted_at = EXCLUDED.attempted_at
              WHERE signup_attempts.attempted_at <= ${now}::timestamptz - ${`${config.signupIntervalMs} milliseconds`}::interval
            RETURNING email`.pipe(Effect.orDie)
          if (claimed.length === 0) {
            const [row] = yield* sql<{ wait: number }>`
              SELECT ceil(extract(epoch FROM
                attempted_at + ${`${config.signupIntervalMs} milliseconds`}::interval - ${now}::timestamptz))::int AS wait
              FROM signup_attempts WHERE email = ${email}`.pipe(Effect.orDie)
            const wait = Math.max(1, row?.wait ?? 1)
            return yield* new TooManyRequests({
              message: `a signup for this email was already attempted; try again in ${wait} seconds`,
              retryAfterSeconds: wait
            })
          }
          const existing = yield* sql`SELECT 1 FROM users WHERE email = ${email}`.pipe(Effect.orDie)
          if (existing.length > 0)
            return yield* new Conflict({ message: "an account with this email already exists; log in instead" })
          const passwordHash = yield* hasher.hash(input.password)
          const invitation = input.invitation
          // the account and its membership are made together: a link used up meanwhile makes neither
          const user = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const rows = yield* sql<{ id: string; email: string; full_name: string }>`
                  INSERT INTO users (email, full_name, password_hash, created_at, updated_at)
                  VALUES (${email}, ${fullName}, ${passwordHash}, ${now}::timestamptz, ${now}::timestamptz)
                  ON CONFLICT (email) DO NOTHING
                  RETURNING id, email, full_name`
                if (rows.length === 0)
                  return yield* new Conflict({ message: "an account with this email already exists; log in instead" })
                if (invitation !== undefined) yield* invitations.join(invitation, rows[0]!)
                return rows[0]!
              })
            )
            .pipe(Effect.catchTag("SqlError", Effect.die))
          return yield* issue(user)
        })

        const wrongCredentials = new Unauthenticated({ message: "wrong email or password", invalidToken: false })

        const failures = { limit: LOGIN_FAILURES, windowMs: LOGIN_FAILURE_WINDOW_MS }
        const knownAddress = { limit: 1, windowMs: KNOWN_ADDRESS_MS }

        const login = Effect.fn("Accounts.login")(function* (input: {
          email: string
          password: string
          address?: string
        }) {
          const email = normalizeEmail(input.email)
          // no account's email holds a NUL (signup refuses control characters), and PostgreSQL's
          // text cannot take one: the consent page's form reaches here without the REST schema
          if (email.includes("\u0000")) {
            yield* hasher.verifyDummy(input.password)
            return yield* wrongCredentials
          }
          const key = accountKey(email)
          const known = `login-ok:${key}:${input.address ?? "unknown"}`
          // read, not spend: only a wrong password spends
          const state = yield* budget.charge(`login-fail:${key}`, { ...failures, tokens: 0 }).pipe(Effect.orDie)
          if (state !== undefined && state.remaining === 0) {
            const seen = yield* budget.charge(known, { ...knownAddress, tokens: 0 }).pipe(Effect.orDie)
            if (input.address === undefined || seen === undefined || seen.remaining > 0) {
              const wait = Math.max(1, state.resetSeconds)
              return yield* new TooManyRequests({
                message: `too many failed sign-ins for this account: ${LOGIN_FAILURES} in ${LOGIN_FAILURE_WINDOW_MS / 60_000} minutes; try again in ${Math.ceil(wait / 60)} minute(s)`,
                retryAfterSeconds: wait
              })
            }
          }
          const failed = budget
            .charge(`login-fail:${key}`, failures)
            .pipe(Effect.ignore, Effect.andThen(Effect.fail(wrongCredentials)))
          const [user] = yield* sql<{ id: string; email: string; full_name: string; password_hash: string }>`
            SELECT id, email, full_name, password_hash FROM users WHERE email = ${email}`.pipe(Effect.orDie)
          if (user === undefined) {
            yield* hasher.verifyDummy(input.password)
            return yield* failed
          }
          const ok = yield* hasher.verify(input.password, user.password_hash)
          if (!ok) return yield* failed
          // this address now knows the account: a later lock does not shut it out (limit 1 per
          // 30 days, so a repeat is "exceeded" and ignored; the first success's mark stands)
          if (input.address !== undefined) yield* Effect.ignore(budget.charge(known, knownAddress))
          return yield* issue(user)
        })

        // API keys are managed by the account's own credentials (the web board's session among
        // them), never by an agent's OAuth token
        // (issue 33) with the scopes of the operation: listing reads; making and revoking keys is
        // managing them (admin), revoking deletes
        const keyManager = (principal: Principal, action: "created" | "listed" | "revoked") =>
          principal.via === "session" || principal.via === "apiKey" || principal.via === "browser"
            ? requireScopes(
                principal,
                action === "listed" ? ["read"] : scopesFor({ needed: "admin", deletes: action === "revoked" }),
                `${action === "created" ? "create" : action === "listed" ? "list" : "revoke"} API keys`
              )
            : Effect.fail(
                new Forbidden({ message: `API keys can only be ${action} with a session token or an API key` })
              )

        const createApiKey = Effect.fn("Accounts.createApiKey")(function* (
          principal: Principal,
          input: { readonly name: string } & KeyLimitsInput
        ) {
          const name = input.name
          yield* keyManager(principal, "created")
          // an agent's keys are made for it by an admin or its creator (POST /v1/agents/{id}/api-keys)
          if (principal.agent === true) {
            return yield* new Forbidden({
              message:
                "an agent cannot create its own keys; an admin or its creator makes them with POST /v1/agents/{id}/api-keys"
            })
          }
          const trimmed = name.trim()
          if (trimmed === "" || charCount(trimmed) > 200) {
            return yield* new InvalidInput({ message: "name: must be 1 to 200 characters and not blank" })
          }
          const rawKey = mintToken("apiKey")
          const now = yield* sqlNow
          const limits = yield* settleLimits(sql, principal, principal.userId, input, now)
          const [row] = yield* sql
            .unsafe<{ id: string; created_at: Date; updated_at: Date } & KeyLimitRow>(
              `INSERT INTO api_keys (user_id, name, digest, scopes, project_ids, expires_at, created_at, updated_at)
               VALUES ($1::uuid, $2, $3, $4::text[], $5::uuid[], $6::timestamptz, $7::timestamptz, $7::timestamptz)
               RETURNING id, created_at, updated_at, ${KEY_LIMIT_COLUMNS}`,
              [principal.userId, trimmed, digestToken(rawKey), limits.scopes, limits.projectIds, limits.expiresAt, now]
            )
            .pipe(Effect.orDie)
          return {
            id: row!.id,
            name: trimmed,
            rawKey,
            ...limitsView(row!),
            createdAt: iso(row!.created_at),
            updatedAt: iso(row!.updated_at)
          }
        })

        const apiKeys = Effect.fn("Accounts.apiKeys")(function* (principal: Principal) {
          yield* keyManager(principal, "listed")
          const rows = yield* sql<{ id: string; name: string; created_at: Date; updated_at: Date } & KeyLimitRow>`
            SELECT id, name, created_at, updated_at, ${sql.literal(KEY_LIMIT_COLUMNS)} FROM api_keys
            WHERE user_id = ${principal.userId} AND revoked_at IS NULL ORDER BY created_at, id`.pipe(Effect.orDie)
          return rows.map((r) => ({
            id: r.id,
            name: r.name,
            ...limitsView(r),
            createdAt: iso(r.created_at),
            updatedAt: iso(r.updated_at),
            current: principal.via === "apiKey" && principal.credentialId === r.id
          }))
        })

        const revokeApiKey = Effect.fn("Accounts.revokeApiKey")(function* (principal: Principal, keyId: string) {
          yield* keyManager(principal, "revoked")
          const missing = new NotFound({ message: isUuid(keyId) ? `API key ${keyId} not found` : "API key not found" })
          if (!isUuid(keyId)) return yield* missing
          const now = yield* sqlNow
          const rows = yield* sql`
            UPDATE api_keys SET revoked_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
            WHERE id = ${keyId} AND user_id = ${principal.userId} AND revoked_at IS NULL RETURNING id`.pipe(
            Effect.orDie
          )
          if (rows.length === 0) return yield* missing
          yield* cache.invalidate(keyId)
        })

        const profile = (userId: string) =>
          sql<{ id: string; email: string; full_name: string }>`
            SELECT id, email, full_name FROM users WHERE id = ${userId}`.pipe(Effect.orDie)

        const me = Effect.fn("Accounts.me")(function* (principal: Principal) {
          const [user] = yield* profile(principal.userId)
          // a credential outliving its account (the row deleted by an operator) finds no one
          if (user === undefined) return yield* new NotFound({ message: "account not found" })
          return { ...user, credential: principal.via }
        })

        return Accounts.of({ signup, login, createApiKey, apiKeys, revokeApiKey, profile, me })
      })
    )

  static readonly layer = Accounts.layerWith(makePasswordHasher())
}
