/**
 * The blind intake channel: a token files one card at the end of its column and learns
 * nothing back. Every way a token can be unusable answers one identical refusal. With an
 * Idempotency-Key the claim and the card commit together, so a key files at most one card,
 * also under concurrency and across instances; the first write wins.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { digestToken, isWellFormed } from "../auth/secretTokens.ts"
import { Cards } from "../board/Cards.ts"
import { InvalidInput, Unauthenticated } from "../domain/errors.ts"
import type { ColumnId } from "../domain/ids.ts"
import type { IntakeFiling } from "../domain/inputs.ts"
import { headerCharCount, limits } from "../domain/limits.ts"
import { CredentialCache } from "../auth/CredentialCache.ts"
import { sqlNow } from "../infra/clock.ts"

export interface IntakeCredential {
  readonly tokenId: string
  readonly columnId: ColumnId
  readonly createdBy: string | null
}

/** Claims are kept this long (SPEC asks at least 24 hours). */
export const IDEMPOTENCY_RETENTION_DAYS = 7

export const intakeRefusal = () => new Unauthenticated({ message: "invalid intake token", invalidToken: false })

export class Intake extends Context.Service<
  Intake,
  {
    readonly authenticate: (token: string | undefined) => Effect.Effect<IntakeCredential, Unauthenticated>
    readonly file: (
      credential: IntakeCredential,
      /** Decoded with `IntakeFiling`, as the contract does. */
      input: IntakeFiling,
      idempotencyKey: string | undefined
    ) => Effect.Effect<void, InvalidInput | Unauthenticated>
    /** One pass of the sweep of idempotency claims older than the retention (Jobs.ts runs it). */
    readonly sweepClaims: Effect.Effect<void>
  }
>()("board/core/Intake") {
  static readonly layer = Layer.effect(
    Intake,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cache = yield* CredentialCache
      const cards = yield* Cards

      const authenticate = Effect.fn("Intake.authenticate")(function* (token: string | undefined) {
        if (token === undefined || !isWellFormed("intake", token.trim())) return yield* intakeRefusal()
        const digest = digestToken(token.trim())
        const now = yield* sqlNow
        // the filing itself checks that the column is still in the token's project
        const credential = yield* cache.resolve(
          digest,
          sql<{ id: string; column_id: ColumnId; created_by: string | null; expires_at: Date | null }>`
          SELECT t.id, t.column_id, t.created_by, t.expires_at FROM intake_tokens t
          JOIN board_columns c ON c.id = t.column_id AND c.project_id = t.project_id
          WHERE t.digest = ${digest} AND t.revoked_at IS NULL
            AND (t.expires_at IS NULL OR t.expires_at > ${now}::timestamptz)`.pipe(
            Effect.orDie,
            Effect.map(([row]) =>
              row === undefined
                ? undefined
                : {
                    value: {
                      tokenId: row.id,
                      columnId: row.column_id,
                      createdBy: row.created_by
                    } satisfies IntakeCredential,
                    credentialId: row.id,
                    expiresAt: row.expires_at === null ? undefined : new Date(row.expires_at).getTime()
                  }
            )
          )
        )
        if (credential === undefined) return yield* intakeRefusal()
        return credential
      })

      const file = Effect.fn("Intake.file")(function* (
        credential: IntakeCredential,
        input: IntakeFiling,
        idempotencyKey: string | undefined
      ) {
        if (
          idempotencyKey !== undefined &&
          (idempotencyKey.length === 0 || headerCharCount(idempotencyKey) > limits.idempotencyKey)
        ) {
          return yield* new InvalidInput({
            message: `Idempotency-Key: must be 1 to ${limits.idempotencyKey} characters`
          })
        }
        // one statement: the claim and the card commit together, so a key files at most one card
        yield* cards
          .file({
            columnId: credential.columnId,
            title: input.title,
            description: input.description,
            source: "intake",
            intakeTokenId: credential.tokenId,
            createdBy: credential.createdBy,
            idempotencyKey
          })
          .pipe(Effect.catchTag("NotFound", () => Effect.fail(intakeRefusal())))
      })

      // claims older than the retention go in a sweep, off the filing's path
      // (the statement is built on each run: it carries the time of that run)
      const sweepClaims = Effect.flatMap(
        sqlNow,
        (now) =>
          sql`DELETE FROM intake_claims WHERE created_at < ${now}::timestamptz - ${`${IDEMPOTENCY_RETENTION_DAYS} days`}::interval`
      ).pipe(Effect.asVoid, Effect.orDie)

      return Intake.of({ authenticate, file, sweepClaims })
    })
  )
}
