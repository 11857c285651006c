/**
 * PostgreSQL for the benchmark: a fresh database per run on the admin server, dropped at the
 * end, and a small promise-based client for seeding (the same @effect/sql-pg client the
 * test suite uses in test/support/backends.ts).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as crypto from "node:crypto"

export interface Db {
  readonly query: <T = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>
  ) => Promise<ReadonlyArray<T>>
  readonly close: () => Promise<void>
}

export const openDb = async (url: string, maxConnections = 1): Promise<Db> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const sql = await Effect.runPromise(
      PgClient.make({ url: Redacted.make(url), maxConnections }).pipe(
        Scope.provide(scope),
        Effect.provide(Reactivity.layer)
      )
    )
    return {
      query: <T>(text: string, params: ReadonlyArray<unknown> = []) =>
        Effect.runPromise(sql.unsafe(text, params as Array<any>)) as Promise<ReadonlyArray<T>>,
      close: () => Effect.runPromise(Scope.close(scope, Exit.void))
    }
  } catch (err) {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    throw err
  }
}

const withDb = async <A>(url: string, f: (db: Db) => Promise<A>): Promise<A> => {
  const db = await openDb(url)
  try {
    return await f(db)
  } finally {
    await db.close()
  }
}

export interface BenchDatabase {
  readonly name: string
  readonly url: string
  readonly drop: () => Promise<void>
}

/** Creates `board_bench_<random>` on the server of `adminUrl`; `drop` removes it WITH (FORCE). */
export const createBenchDatabase = async (adminUrl: string): Promise<BenchDatabase> => {
  const name = `board_bench_${crypto.randomBytes(6).toString("hex")}`
  try {
    await withDb(adminUrl, (db) => db.query(`CREATE DATABASE ${name}`))
  } catch (err) {
    const cause = err instanceof Error ? err.message : String(err)
    throw new Error(
      `could not create a database on ${redactUrl(adminUrl)} (set BENCH_DATABASE_URL to a PostgreSQL server where you may CREATE DATABASE): ${cause}`
    )
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  let dropped = false
  return {
    name,
    url: url.toString(),
    drop: async () => {
      if (dropped) return
      await withDb(adminUrl, (db) => db.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
      dropped = true
    }
  }
}

/** Redacts the password of a postgres:// URL for printing. */
export const redactUrl = (raw: string): string => {
  try {
    const url = new URL(raw)
    if (url.password !== "") url.password = "***"
    return url.toString()
  } catch {
    return "(unparseable URL)"
  }
}
