/**
 * The prepared-statement cache of @effect/sql-pg, as patched here (patches/@effect__sql-pg@4.0.5.patch):
 * a statement's cache key is made once per text and parameter types instead of per call (issue 35).
 * The same text with other parameter types must still be another statement, and texts beyond
 * the cache (and beyond the keys it remembers) must still be evicted, prepared again and answer.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { createTestDatabase, postgresUrl } from "./support/backends.ts"

describe.skipIf(postgresUrl === undefined)("the prepared-statement cache on PostgreSQL", () => {
  it("keys a text by its parameter types, evicts past its size and answers every statement right", async () => {
    const db = await createTestDatabase()
    try {
      const answers = await Effect.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const out: Array<unknown> = []
          // one text, parameters of three types in turn: three statements, each its own answer type
          for (const value of [41, true, 42, 2.5, false]) {
            const [row] = yield* sql.unsafe<{ v: unknown; t: string }>("SELECT $1 AS v, pg_typeof($1)::text AS t", [
              value
            ])
            out.push(row)
          }
          // 40 texts through a cache of 4 (its key memory holds 16): each twice, every answer its own
          for (let round = 0; round < 2; round++) {
            for (let i = 0; i < 40; i++) {
              const [row] = yield* sql.unsafe<{ n: number }>(`SELECT $1::int + ${i} AS n`, [1000 * round])
              out.push(row!.n)
            }
          }
          return out
        }).pipe(
          Effect.provide(
            PgClient.layer({ url: Redacted.make(db.url), maxConnections: 1, preparedStatementCacheSize: 4 })
          ),
          Effect.scoped
        )
      )
      const typed = answers.slice(0, 5) as Array<{ v: unknown; t: string }>
      expect(typed.map((r) => r.v)).toEqual([41, true, 42, 2.5, false])
      expect(new Set(typed.map((r) => r.t)).size).toBe(3)
      expect(answers.slice(5)).toEqual([
        ...Array.from({ length: 40 }, (_, i) => i),
        ...Array.from({ length: 40 }, (_, i) => 1000 + i)
      ])
    } finally {
      await db.drop()
    }
  })
})
