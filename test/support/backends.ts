/**
 * The databases a test file runs against. Every HTTP suite runs on the embedded database
 * (`backends`); the suites that exercise what differs between it and PostgreSQL (concurrency,
 * locks, the event horizon, two instances, durability, the driver's types: the list and the rule
 * are in docs/development.md, "Test layers") run on PostgreSQL too when DATABASE_URL is set
 * (`dialectBackends`). Each server gets a database of its own, created for the run and dropped
 * after it, so runs never touch databases they did not create.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import type { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import { afterAll } from "vitest"

export type Backend = "pglite" | "postgres"

export const postgresUrl = process.env.DATABASE_URL

/** The embedded database: what every HTTP suite runs on. */
export const backends: ReadonlyArray<Backend> = ["pglite"]

/** The embedded database, and PostgreSQL when DATABASE_URL is set: for what differs between them. */
export const dialectBackends: ReadonlyArray<Backend> = postgresUrl === undefined ? ["pglite"] : ["pglite", "postgres"]

if (postgresUrl === undefined && process.env.BOARD_TEST_QUIET === undefined) {
  process.stderr.write(
    "note: DATABASE_URL is not set; the PostgreSQL runs of the dialect suites are skipped (embedded database only)\n"
  )
}

/** Names the migrated PostgreSQL database of this run (templates.ts makes it; the workers inherit it). */
export const POSTGRES_TEMPLATE_ENV = "BOARD_TEST_POSTGRES_TEMPLATE"

export const admin = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* PgClient.make({ url: Redacted.make(postgresUrl!), maxConnections: 1 })
        return yield* f(sql)
      })
    ).pipe(Effect.provide(Reactivity.layer), Effect.orDie)
  )

/**
 * A fresh database on the PostgreSQL server of DATABASE_URL; returns its URL and a dropper. Empty
 * unless `migrated`: then a copy of the run's migrated template (templates.ts), when there is one.
 */
export const createTestDatabase = async ({
  migrated = false
}: {
  readonly migrated?: boolean
} = {}): Promise<{
  url: string
  drop: () => Promise<void>
}> => {
  const name = `board_test_${crypto.randomBytes(6).toString("hex")}`
  const template = migrated ? process.env[POSTGRES_TEMPLATE_ENV] : undefined
  await admin((sql) => sql.unsafe(`CREATE DATABASE ${name}${template === undefined ? "" : ` TEMPLATE ${template}`}`))
  const url = new URL(postgresUrl!)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined)
  }
}

/**
 * The environment of servers that share one database across restarts, for a file's tests: on
 * PostgreSQL a migrated database of its own, on the embedded database a fresh DATA_DIR (from
 * `tmpDir`, tmp.ts). Each is removed when the file's tests end.
 */
export const restartableDatabases = (
  backend: Backend,
  tmpDir: () => string
): (() => Promise<Record<string, string>>) => {
  const drops: Array<() => Promise<void>> = []
  afterAll(async () => {
    for (const drop of drops) await drop()
  })
  return async (): Promise<Record<string, string>> => {
    if (backend !== "postgres") return { DATA_DIR: tmpDir() }
    const db = await createTestDatabase({ migrated: true })
    drops.push(db.drop)
    return { DATABASE_URL: db.url }
  }
}
