/**
 * Password reset (issue 30, CONTRACT.md "Teams"): a one-time link, valid 1 hour, mailed to the
 * account's address when mail is configured, or printed for an operator by
 * `board admin reset-password EMAIL`. Rules:
 * - asking answers the same, in about the same time, whether or not the email has an account:
 *   the link is made by one statement that inserts nothing for an unknown email, and the mail
 *   is posted in the background (mail/Mailer.ts); at most 5 mails per email per hour;
 * - the token (`svc_pr_…`) is never stored, only its digest (migrations/0020_invitations.sql);
 * - using a link sets the password (signup's rules: length and the common-password list), ends
 *   every other reset link of the account and every web session it has (on every instance,
 *   through the revocation feed), and answers the login body (a new session token).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import { AppConfig } from "../Config.ts"
import { InvalidInput, NotFound } from "../domain/errors.ts"
import { sqlNow } from "../infra/clock.ts"
import { RateBudget } from "../infra/RateBudget.ts"
import { ServerSecret } from "../infra/Secret.ts"
import { Mailer } from "../mail/Mailer.ts"
import { passwordResetMail } from "../mail/messages.ts"
import { type AuthSession, isEmailAddress, normalizeEmail } from "./Accounts.ts"
import { CredentialCache } from "./CredentialCache.ts"
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from "./credentialRules.ts"
import { makePasswordHasher, type PasswordHasher, passwordLength } from "./passwords.ts"
import { digestToken, isWellFormed, mintToken } from "./secretTokens.ts"
import { SESSION_TTL_SECONDS, signSession } from "./sessionJwt.ts"

export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000
/** Mails per email address per hour: enough for a person, too few to flood a mailbox. */
const MAILS_PER_HOUR = 5

/** The web app's page for a reset link (the page posts the token to /v1/auth/password-reset/confirm). */
export const passwordResetUrl = (publicUrl: string, token: string) => `${publicUrl}/reset-password/${token}`

export interface PasswordResetLink {
  readonly email: string
  readonly url: string
  readonly expiresAt: string
}

/**
 * Makes a reset link for the account with `email`, or nothing when there is none, in one
 * statement either way. Needs only the database and the configuration: the operator command
 * runs it on a database no server owns.
 */
export const issuePasswordReset = (email: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const token = mintToken("passwordReset")
    const now = yield* sqlNow
    const [row] = yield* sql<{ email: string; expires_at: Date }>`
      INSERT INTO password_resets (user_id, digest, created_at, expires_at)
      SELECT id, ${digestToken(token)}, ${now}::timestamptz,
        ${now}::timestamptz + ${`${PASSWORD_RESET_TTL_MS} milliseconds`}::interval
      FROM users WHERE email = ${normalizeEmail(email)}
      RETURNING (SELECT email FROM users WHERE id = user_id) AS email, expires_at`.pipe(Effect.orDie)
    return row === undefined
      ? undefined
      : ({
          email: row.email,
          url: passwordResetUrl(config.publicUrl, token),
          expiresAt: new Date(row.expires_at).toISOString()
        } satisfies PasswordResetLink)
  })

export const RESET_GONE =
  "password reset link not found: it is unknown, already used or expired (links last 1 hour); ask for a new one"

export class PasswordResets extends Context.Service<
  PasswordResets,
  {
    /** Mails a link when the email has an account and mail is configured; says nothing either way. */
    readonly request: (email: string) => Effect.Effect<void, InvalidInput>
    readonly confirm: (input: {
      readonly token: string
      readonly password: string
    }) => Effect.Effect<AuthSession, InvalidInput | NotFound>
    /** The operator's link (no mail): NotFound when no account has the email. */
    readonly link: (email: string) => Effect.Effect<PasswordResetLink, NotFound>
  }
>()("board/core/PasswordResets") {
  static readonly layerWith = (hasher: PasswordHasher) =>
    Layer.effect(
      PasswordResets,
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const config = yield* AppConfig
        const keys = yield* ServerSecret
        const mailer = yield* Mailer
        const budget = yield* RateBudget
        const cache = yield* CredentialCache
        const context = Layer.mergeAll(Layer.succeed(SqlClient.SqlClient, sql), Layer.succeed(AppConfig, config))

        const request = Effect.fn("PasswordResets.request")(function* (email: string) {
          const normalized = normalizeEmail(email)
          // the shape alone: it tells nothing about accounts
          if (!isEmailAddress(normalized)) {
            return yield* new InvalidInput({ message: "email: expected an email address such as ada@example.com" })
          }
          // keyed by a digest: no address is written to the rate store (Redis)
          const key = crypto.createHash("sha256").update(`reset:${normalized}`).digest("base64url").slice(0, 24)
          const allowed = yield* budget
            .charge(`reset:${key}`, { limit: MAILS_PER_HOUR, windowMs: PASSWORD_RESET_TTL_MS })
            .pipe(
              Effect.as(true),
              Effect.catch(() => Effect.succeed(false))
            )
          // without mail nobody could receive the link: nothing is made (the operator's command makes one)
          if (!allowed || !mailer.configured) return
          const link = yield* issuePasswordReset(normalized).pipe(Effect.provide(context))
          if (link !== undefined) yield* mailer.post(passwordResetMail({ to: link.email, url: link.url }))
        })

        const confirm = Effect.fn("PasswordResets.confirm")(function* (input: {
          readonly token: string
          readonly password: string
        }) {
          const length = passwordLength(input.password)
          if (length < 8 || length > 128) {
            return yield* new InvalidInput({ message: `password: must be 8 to 128 characters long (got ${length})` })
          }
          if (yield* isCommonPassword(input.password))
            return yield* new InvalidInput({ message: COMMON_PASSWORD_MESSAGE })
          if (!isWellFormed("passwordReset", input.token)) return yield* new NotFound({ message: RESET_GONE })
          const passwordHash = yield* hasher.hash(input.password)
          const now = yield* sqlNow
          const done = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const [reset] = yield* sql<{ user_id: string }>`
                  UPDATE password_resets SET used_at = ${now}::timestamptz
                  WHERE digest = ${digestToken(input.token)} AND used_at IS NULL AND expires_at > ${now}::timestamptz
                  RETURNING user_id`
                if (reset === undefined) return undefined
                const [user] = yield* sql<{ id: string; email: string; full_name: string }>`
                  UPDATE users SET password_hash = ${passwordHash}, updated_at = ${now}::timestamptz
                  WHERE id = ${reset.user_id} RETURNING id, email, full_name`
                // the account's other links end with this one
                yield* sql`
                  UPDATE password_resets SET used_at = ${now}::timestamptz
                  WHERE user_id = ${reset.user_id} AND used_at IS NULL`
                // every web session (app and consent page) ends: whoever knew the old password is out
                const ended = yield* sql<{ id: string }>`
                  UPDATE web_sessions SET revoked_at = ${now}::timestamptz
                  WHERE user_id = ${reset.user_id} AND revoked_at IS NULL RETURNING id`
                return { user: user!, ended: ended.map((r) => r.id) }
              })
            )
            .pipe(Effect.orDie)
          if (done === undefined) return yield* new NotFound({ message: RESET_GONE })
          // this instance at once; the others through the revocation feed (the table's trigger)
          for (const id of done.ended) yield* cache.invalidate(id)
          const nowMs = yield* Clock.currentTimeMillis
          const token = yield* signSession(keys.session, config.publicUrl, done.user.id, nowMs)
          return {
            session: {
              access_token: token,
              token_type: "bearer" as const,
              expires_in: SESSION_TTL_SECONDS,
              expires_at: new Date(nowMs + SESSION_TTL_SECONDS * 1000).toISOString()
            },
            user: done.user
          }
        })

        const link = Effect.fn("PasswordResets.link")(function* (email: string) {
          const made = yield* issuePasswordReset(email).pipe(Effect.provide(context))
          if (made === undefined) return yield* new NotFound({ message: "no account has this email" })
          return made
        })

        return PasswordResets.of({ request, confirm, link })
      })
    )

  static readonly layer = PasswordResets.layerWith(makePasswordHasher())
}
