/** Migrations apply once, in order, and two servers starting together on one PostgreSQL apply them once. */
import { runMigrations } from "@board/core"
import { NodeServices } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { createTestDatabase, postgresUrl } from "./support/backends.ts"

describe.skipIf(postgresUrl === undefined)("migrations on PostgreSQL", () => {
  it("concurrent runs apply each migration exactly once; a later run applies nothing", async () => {
    const db = await createTestDatabase()
    try {
      const client = () =>
        Layer.mergeAll(PgClient.layer({ url: Redacted.make(db.url), maxConnections: 2 }), NodeServices.layer)
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => Effect.runPromise(runMigrations().pipe(Effect.provide(client()))))
      )
      const applied = runs.flat().map(([id]) => id)
      expect(new Set(applied).size).toBe(applied.length)
      expect(applied).toContain(1)
      const again = await Effect.runPromise(runMigrations().pipe(Effect.provide(client())))
      expect(again).toEqual([])
      const rows = await Effect.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ migration_id: number }>`SELECT migration_id FROM board_migrations ORDER BY migration_id`
        }).pipe(Effect.provide(client()))
      )
      expect(rows.map((r) => r.migration_id)).toEqual([...new Set(applied)].sort((a, b) => a - b))
    } finally {
      await db.drop()
    }
  })
})
