/**
 * Minting, listing and revoking intake tokens: members of the project's workspace, by API key,
 * session or an OAuth token whose grant covers the workspace (CONTRACT.md).
 */
import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { digestToken, mintToken } from "../auth/secretTokens.ts"
import { type Conflict, type Forbidden, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { IntakeTokenMint } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { Access } from "../board/Access.ts"
import { iso } from "../board/rows.ts"
import { CredentialCache } from "../auth/CredentialCache.ts"
import { sqlNow } from "../infra/clock.ts"

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict

export interface IntakeTokenView {
  readonly id: string
  readonly columnId: string
  readonly projectId: string
  readonly name: string | null
  readonly expiresAt: string | null
  readonly revokedAt: string | null
  readonly createdAt: string
  readonly updatedAt: string
}

type Row = {
  id: string
  column_id: string
  project_id: string
  name: string | null
  expires_at: Date | null
  revoked_at: Date | null
  created_at: Date
  updated_at: Date
}
const view = (r: Row): IntakeTokenView => ({
  id: r.id,
  columnId: r.column_id,
  projectId: r.project_id,
  name: r.name,
  expiresAt: r.expires_at === null ? null : iso(r.expires_at),
  revokedAt: r.revoked_at === null ? null : iso(r.revoked_at),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export class IntakeTokens extends Context.Service<
  IntakeTokens,
  {
    readonly mint: (
      principal: Principal,
      /** Decoded with `IntakeTokenMint`, as the contract does. */
      input: IntakeTokenMint
    ) => Effect.Effect<IntakeTokenView & { token: string }, InvalidInput | WriteError>
    readonly list: (
      principal: Principal,
      projectId: string
    ) => Effect.Effect<ReadonlyArray<IntakeTokenView>, AccessError>
    readonly revoke: (principal: Principal, id: string) => Effect.Effect<void, WriteError>
  }
>()("board/core/IntakeTokens") {
  static readonly layer = Layer.effect(
    IntakeTokens,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cache = yield* CredentialCache
      const access = yield* Access

      const mint = Effect.fn("IntakeTokens.mint")(function* (principal: Principal, input: IntakeTokenMint) {
        let expiresAt: Date | null = null
        if (input.expiresAt !== undefined) {
          expiresAt = new Date(input.expiresAt)
          if (Number.isNaN(expiresAt.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(input.expiresAt)) {
            return yield* new InvalidInput({
              message: "expiresAt: must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z"
            })
          }
          if (expiresAt.getTime() <= (yield* Clock.currentTimeMillis))
            return yield* new InvalidInput({ message: "expiresAt: must be in the future" })
        }
        const column = yield* access.write(principal, "column", input.columnId, { action: "manage intake tokens" })
        const token = mintToken("intake")
        const now = yield* sqlNow
        const [row] = yield* sql<Row>`
          INSERT INTO intake_tokens (digest, name, column_id, project_id, created_by, expires_at, created_at, updated_at)
          VALUES (${digestToken(token)}, ${input.name?.trim() || null}, ${input.columnId}, ${column.projectId!}, ${principal.userId}, ${expiresAt},
            ${now}::timestamptz, ${now}::timestamptz)
          RETURNING id, column_id, project_id, name, expires_at, revoked_at, created_at, updated_at`.pipe(Effect.orDie)
        return { ...view(row!), token }
      })

      const list = Effect.fn("IntakeTokens.list")(function* (principal: Principal, projectId: string) {
        yield* access.resolve(principal, "project", projectId)
        const rows = yield* sql<Row>`
          SELECT id, column_id, project_id, name, expires_at, revoked_at, created_at, updated_at FROM intake_tokens
          WHERE project_id = ${projectId} ORDER BY created_at, id`.pipe(Effect.orDie)
        return rows.map(view)
      })

      const revoke = Effect.fn("IntakeTokens.revoke")(function* (principal: Principal, id: string) {
        const [row] = yield* sql<{ project_id: string }>`SELECT project_id FROM intake_tokens WHERE id = ${id}`.pipe(
          Effect.orDie
        )
        if (row === undefined) return yield* new NotFound({ message: `intake token ${id} not found` })
        yield* access.write(principal, "project", row.project_id, {
          what: `intake token ${id}`,
          action: "revoke intake tokens",
          deletes: true
        })
        const now = yield* sqlNow
        yield* sql`
          UPDATE intake_tokens SET revoked_at = COALESCE(revoked_at, ${now}::timestamptz), updated_at = ${now}::timestamptz
          WHERE id = ${id}`.pipe(Effect.orDie)
        yield* cache.invalidate(id)
      })

      return IntakeTokens.of({ mint, list, revoke })
    })
  )
}
