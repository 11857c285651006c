/**
 * The prepared-statement cache of @effect/sql-pg, as patched here (patches/@effect__sql-pg@4.0.5.patch):
 * a statement's cache key is made once per text and parameter types instead of per call (issue 35).
 * The same text with other parameter types must still be another statement, and texts beyond
 * the cache (and beyond the keys it remembers) must still be evicted, prepared again and answer.
 * On both databases: the embedded one reaches the same driver through PGlite's socket.
 */
import { EmbeddedTemplate, startEmbedded } from "@board/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { type Backend, createTestDatabase, dialectBackends } from "./support/backends.ts"
import { embeddedTemplate } from "./support/templates.ts"
import { tmpDirs } from "./support/tmp.ts"

const tmpDir = tmpDirs("board-statement-cache-")

/** Both databases reach the driver through the same PgConnection: PostgreSQL by URL, PGlite by its socket. */
const withClient = async <A>(
  backend: Backend,
  use: (cacheSize: number) => Effect.Effect<A, unknown, SqlClient.SqlClient>
) => {
  const options = { maxConnections: 1, preparedStatementCacheSize: 4 }
  if (backend === "postgres") {
    const db = await createTestDatabase()
    try {
      return await Effect.runPromise(
        use(options.preparedStatementCacheSize).pipe(
          Effect.provide(PgClient.layer({ url: Redacted.make(db.url), ...options })),
          Effect.scoped
        )
      )
    } finally {
      await db.drop()
    }
  }
  const template = embeddedTemplate()
  return Effect.runPromise(
    Effect.gen(function* () {
      const embedded = yield* startEmbedded(tmpDir())
      return yield* use(options.preparedStatementCacheSize).pipe(
        Effect.provide(
          PgClient.layer({ stream: embedded.connect, username: "postgres", database: "postgres", ...options })
        )
      )
    }).pipe(
      Effect.provide(template === undefined ? Layer.empty : Layer.succeed(EmbeddedTemplate, template)),
      Effect.scoped
    )
  )
}

describe.each(dialectBackends)("the prepared-statement cache on %s", (backend) => {
  it("keys a text by its parameter types, evicts past its size and answers every statement right", async () => {
    const answers = await withClient(backend, (cacheSize) =>
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
        // ten times the cache's texts (more than the keys it remembers, four times its size), each twice
        for (let round = 0; round < 2; round++) {
          for (let i = 0; i < 10 * cacheSize; i++) {
            const [row] = yield* sql.unsafe<{ n: number }>(`SELECT $1::int + ${i} AS n`, [1000 * round])
            out.push(row!.n)
          }
        }
        return out
      })
    )
    const typed = answers.slice(0, 5) as Array<{ v: unknown; t: string }>
    expect(typed.map((r) => r.v)).toEqual([41, true, 42, 2.5, false])
    expect(new Set(typed.map((r) => r.t)).size).toBe(3)
    expect(answers.slice(5)).toEqual([
      ...Array.from({ length: 40 }, (_, i) => i),
      ...Array.from({ length: 40 }, (_, i) => 1000 + i)
    ])
  })
})
