/** Starts the real server layer in this process on a free port, for HTTP-level tests. */
import { type AppConfigValues, type CoreServices, EmbeddedTemplate, makePasswordHasher, parseConfig } from "@board/core"
import type { HttpRouter } from "effect/http"
import { makeRequestLogger, serverLayer } from "@board/http"
import { Clock, Effect, Layer, ManagedRuntime, References } from "effect"
import { SqlClient } from "effect/sql"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { type Backend, createTestDatabase } from "./backends.ts"
import { findSecrets, linesWithSecrets } from "./leaks.ts"
import { embeddedTemplate, migratedDataDir } from "./templates.ts"

/** Whether 127.0.0.1:port can be listened on now. */
const canListen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const srv = net.createServer()
    srv.once("error", () => resolve(false))
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)))
  })

/**
 * A port for a server a test starts. Drawn at random below Linux's ephemeral range (32768-60999
 * by default), not by listening on port 0: the kernel hands ephemeral ports to outgoing
 * connections too (to PostgreSQL, Redis, other test servers), so a port 0 gave us could be some
 * connection's source port by the time the server binds it, and two workers' draws rarely meet.
 */
export const freePort = async (): Promise<number> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (await canListen(port)) return port
  }
  throw new Error("no free port found between 20000 and 32000")
}

// Production scrypt costs ~0.4 s per hash; the HTTP suites sign up many users, so they use a
// cheaper cost. passwords.test.ts checks the production parameters themselves.
export const testHasher = makePasswordHasher({ logN: 10, r: 8, p: 1 })

export interface TestServer {
  readonly baseUrl: string
  readonly config: AppConfigValues
  readonly logLines: Array<string>
  /** Reads the server's own database, to check what a request really wrote. */
  readonly query: <T = any>(text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<T>>
  /** Runs an effect against the server's own core services (e.g. with a test-only principal). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  readonly stop: () => Promise<void>
}

/** How a test wants its server; every field is optional. */
export interface ServerOptions {
  /** The database (support/backends.ts); the embedded one unless named. */
  readonly backend?: Backend
  /** Configuration over the suites' defaults (the names of docs/configuration.md). */
  readonly env?: Record<string, string>
  /** Routes of the test's own, served beside the API. */
  readonly extraRoutes?: Layer.Layer<never, never, HttpRouter.HttpRouter | CoreServices>
  /** Services handed to the server's layers, e.g. a stub of a Context.Reference (the webhook resolver). */
  readonly services?: Layer.Layer<never>
  /** A test's own clock for the whole server (support/shiftedClock.ts). */
  readonly clock?: Clock.Clock
  /**
   * Start from an empty database and migrate it, as a first start does. By default the database
   * is a copy of one migrated once per run (templates.ts): the same tables and rows, without
   * initdb and the migrations' seconds of CPU per server.
   */
  readonly emptyDatabase?: boolean
}

/**
 * Starts a server on a free port. `startServer({ backend, env, clock })` is the form to use;
 * the positional form (`startServer(backend, env, extraRoutes, services, { clock })`) stays for
 * the suites written with it.
 */
export function startServer(options?: ServerOptions): Promise<TestServer>
export function startServer(
  backend: Backend,
  env?: Record<string, string>,
  extraRoutes?: Layer.Layer<never, never, HttpRouter.HttpRouter | CoreServices>,
  services?: Layer.Layer<never>,
  options?: { readonly clock?: Clock.Clock }
): Promise<TestServer>
export function startServer(
  first: Backend | ServerOptions = {},
  env?: Record<string, string>,
  extraRoutes?: Layer.Layer<never, never, HttpRouter.HttpRouter | CoreServices>,
  services?: Layer.Layer<never>,
  options: { readonly clock?: Clock.Clock } = {}
): Promise<TestServer> {
  return start(typeof first === "string" ? { backend: first, env, extraRoutes, services, ...options } : first)
}

const start = async ({
  backend = "pglite",
  env = {},
  extraRoutes,
  services,
  clock,
  emptyDatabase = false
}: ServerOptions): Promise<TestServer> => {
  const port = await freePort()
  const database = backend === "postgres" ? await createTestDatabase({ migrated: !emptyDatabase }) : undefined
  const template = emptyDatabase ? undefined : embeddedTemplate()
  // a data directory of the test's own that holds no database yet gets the migrated one too
  const dataDir = env.DATA_DIR
  if (!emptyDatabase && backend === "pglite" && dataDir !== undefined && dataDir !== "memory:") {
    if (!fs.existsSync(path.join(dataDir, "pgdata"))) migratedDataDir(dataDir)
  }
  const config = parseConfig({
    DATA_DIR: "memory:",
    PORT: String(port),
    LOG_FORMAT: "json",
    // suites make many requests as one user; the rate-limit suite sets its own budget
    RATE_LIMIT: "1000000/60s",
    REGISTRATION_LIMIT: "100000/1h",
    ...(database !== undefined ? { DATABASE_URL: database.url } : {}),
    ...env
  })
  const logLines: Array<string> = []
  const logger = makeRequestLogger({
    level: config.logLevel,
    format: "json",
    write: (line) => void logLines.push(line)
  })
  const runtime = ManagedRuntime.make(
    serverLayer(config, { hasher: testHasher, logger, ...(extraRoutes ? { extraRoutes } : {}) }).pipe(
      Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn")),
      services === undefined ? (l) => l : Layer.provide(services),
      Layer.provide(template === undefined ? Layer.empty : Layer.succeed(EmbeddedTemplate, template)),
      // a test's own clock for the whole server (support/shiftedClock.ts)
      Layer.provide(clock === undefined ? Layer.empty : Layer.succeed(Clock.Clock, clock)),
      Layer.orDie
    )
  )
  await runtime.runPromise(Effect.void)
  const databaseLeaks = () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const tables = yield* sql<{ name: string }>`
        SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
        const leaks: Array<string> = []
        for (const { name } of tables) {
          // only rows that could hold one: a token prefix, a JWT header or the suites' password
          const rows = yield* sql.unsafe<{ row: string }>(
            `SELECT t::text AS row FROM "${name}" t WHERE t::text ~ 'svc_|eyJ|correct horse battery'`
          )
          for (const { row } of rows) if (findSecrets(row).length > 0) leaks.push(`table ${name}: ${row.slice(0, 300)}`)
        }
        return leaks
      }).pipe(Effect.orDie)
    )
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    config,
    logLines,
    query: (text, params = []) =>
      runtime.runPromise(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql.unsafe(text, params as Array<any>)
        }).pipe(Effect.orDie)
      ) as any,
    run: (effect) => runtime.runPromise(effect as Effect.Effect<any, any, never>),
    stop: async () => {
      // issue 9 part 6, after every suite: no raw secret in a log line or in the database
      const leaks = [...linesWithSecrets(logLines).map((l) => `log: ${l}`), ...(await databaseLeaks())]
      await runtime.dispose()
      await database?.drop()
      if (leaks.length > 0) throw new Error(`raw secrets leaked:\n${leaks.slice(0, 10).join("\n")}`)
    }
  }
}
