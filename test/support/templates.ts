/**
 * Migrated databases to clone, made once per suite run (globalSetup.ts), so a test server does
 * not pay for a fresh database: a fresh PGlite runs initdb (about 3 s of CPU, more than the
 * whole start-up of a server on an existing database) and then every migration. A clone is
 * what those steps make, byte for byte, less initdb's template0 and template1 databases, which
 * nothing of the board reads (dropped to make the dump smaller: buildEmbedded), and the server
 * still runs its migrator on it (nothing is pending). Suites about a fresh database or the migrations themselves (migrations, startup,
 * schema, instances' racing migrations) keep starting from nothing.
 *
 * - the embedded database: a dump of a migrated PGlite (`embeddedTemplate()`, loaded by an
 *   in-process server through core's `EmbeddedTemplate`), and its data directory, copied into a
 *   DATA_DIR for a spawned `board serve` (`migratedDataDir(dir)`);
 * - PostgreSQL (when DATABASE_URL is set): a migrated database of this run,
 *   `CREATE DATABASE … TEMPLATE` of it (backends.ts `createTestDatabase({ migrated: true })`).
 *
 * `BOARD_TEST_TEMPLATES=0` turns them off. The embedded template is kept between runs in the system's temp directory, named by a hash of
 * the migrations and PGlite's version; the PostgreSQL one is this run's and dropped after it.
 */
import { NodeServices } from "@effect/platform-node"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EmbeddedDatabase, layerEmbedded } from "../../packages/core/src/infra/Database.ts"
import { defaultMigrationsDir, runMigrations } from "../../packages/core/src/infra/Migrations.ts"
import { admin, POSTGRES_TEMPLATE_ENV } from "./backends.ts"
import { repoRoot } from "./spawn.ts"

/** Set by `makeTemplates` for the whole run (the workers inherit the environment). */
const EMBEDDED_ENV = "BOARD_TEST_EMBEDDED_TEMPLATE"

/** What the embedded template depends on: the migrations' text, PGlite's version and how it is built. */
const embeddedKey = (): string => {
  const hash = crypto.createHash("sha256")
  for (const f of fs.readdirSync(defaultMigrationsDir).sort()) {
    if (!/^\d+_.+\.sql$/.test(f)) continue
    hash.update(f).update(fs.readFileSync(path.join(defaultMigrationsDir, f)))
  }
  const pglite = JSON.parse(
    fs.readFileSync(path.join(repoRoot, "node_modules/@electric-sql/pglite/package.json"), "utf8")
  ) as { version: string }
  // the last part names how the template is built (buildEmbedded): a change to it renames the cache
  return hash.update(pglite.version).update("without template databases").digest("hex").slice(0, 16)
}

/** Migrates a fresh embedded database in `dir/data` and dumps it to `dir/embedded.tar`. */
const buildEmbedded = (dir: string) =>
  Effect.gen(function* () {
    yield* runMigrations()
    const sql = yield* SqlClient.SqlClient
    // initdb's template0 and template1 are two thirds of the catalog's pages and nothing of the
    // board's reads them: without them the dump is 27 MB instead of 42, and loading it into a
    // server's memory costs about 320 ms of CPU instead of 450, on each of the suite's ~200 starts
    yield* sql`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`
    yield* sql`DROP DATABASE template0`
    yield* sql`DROP DATABASE template1`
    yield* sql`CHECKPOINT`
    const { db } = yield* EmbeddedDatabase
    const dump = yield* Effect.promise(() => db.dumpDataDir("none"))
    const bytes = new Uint8Array(yield* Effect.promise(() => dump.arrayBuffer()))
    fs.writeFileSync(path.join(dir, "embedded.tar"), bytes)
  }).pipe(
    Effect.provide(Layer.mergeAll(layerEmbedded(path.join(dir, "data")), NodeServices.layer)),
    Effect.scoped,
    Effect.orDie
  )

const makeEmbedded = async (): Promise<string> => {
  const root = path.join(os.tmpdir(), "board-test-templates")
  const dir = path.join(root, embeddedKey())
  if (fs.existsSync(path.join(dir, "embedded.tar"))) return dir
  fs.mkdirSync(root, { recursive: true })
  const building = fs.mkdtempSync(path.join(root, "building-"))
  await Effect.runPromise(buildEmbedded(building))
  // the lock and sockets of the closed database are no part of a template
  for (const f of fs.readdirSync(path.join(building, "data"))) {
    if (f !== "pgdata") fs.rmSync(path.join(building, "data", f), { recursive: true, force: true })
  }
  try {
    fs.renameSync(building, dir)
  } catch {
    // another run made it meanwhile: use theirs
    fs.rmSync(building, { recursive: true, force: true })
  }
  return dir
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/** A migrated PostgreSQL database of this run on DATABASE_URL's server; returns its dropper. */
const makePostgres = async (postgresUrl: string): Promise<() => Promise<void>> => {
  const name = `board_test_template_${crypto.randomBytes(6).toString("hex")}`
  await admin((sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  await Effect.runPromise(
    runMigrations().pipe(
      Effect.provide(
        Layer.mergeAll(
          PgClient.layer({ url: Redacted.make(withDatabase(postgresUrl, name)), maxConnections: 1 }),
          NodeServices.layer
        )
      ),
      Effect.orDie
    )
  )
  process.env[POSTGRES_TEMPLATE_ENV] = name
  return () => admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined)
}

/** Makes the templates (once per run, whatever the number of projects); returns the teardown. */
export const makeTemplates = async (): Promise<() => Promise<void>> => {
  // BOARD_TEST_TEMPLATES=0: every server starts from an empty database (to compare, or to debug)
  if (process.env[EMBEDDED_ENV] !== undefined || process.env.BOARD_TEST_TEMPLATES === "0") return async () => {}
  process.env[EMBEDDED_ENV] = await makeEmbedded()
  const postgresUrl = process.env.DATABASE_URL
  return postgresUrl === undefined ? async () => {} : makePostgres(postgresUrl)
}

/**
 * The dump as a Blob whose `arrayBuffer()` is one copy of bytes already in memory. PGlite reads
 * `loadDataDir` with `arrayBuffer()` at every start, and Node's own Blob answers it by streaming
 * its 27 MB in small chunks and joining them: about 170 ms of CPU per test server, against about
 * 10 for a copy. A fresh copy each time, so no server can change another's template. Only the
 * two whole reads are served: the Blob underneath is empty, so the streaming reads throw rather
 * than answer nothing (a PGlite that read the dump another way would fail loudly, not load an
 * empty database).
 */
class DumpBlob extends Blob {
  readonly #dump: Uint8Array
  constructor(dump: Uint8Array) {
    super([])
    this.#dump = dump
    Object.defineProperty(this, "size", { value: dump.byteLength })
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(new Uint8Array(this.#dump).buffer)
  }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return Promise.resolve(new Uint8Array(this.#dump))
  }
  override stream(): never {
    throw new Error("DumpBlob: only arrayBuffer() and bytes() read the template")
  }
  override text(): never {
    throw new Error("DumpBlob: only arrayBuffer() and bytes() read the template")
  }
  override slice(): never {
    throw new Error("DumpBlob: only arrayBuffer() and bytes() read the template")
  }
}

let loaded: Blob | undefined
/** The migrated embedded database as a dump, for `EmbeddedTemplate` (undefined outside a run that made it). */
export const embeddedTemplate = (): Blob | undefined => {
  const dir = process.env[EMBEDDED_ENV]
  if (dir === undefined) return undefined
  loaded ??= new DumpBlob(fs.readFileSync(path.join(dir, "embedded.tar")))
  return loaded
}

/**
 * Fills the fresh directory `dataDir` with a migrated embedded database, for a spawned `board
 * serve` whose test is not about a first start (on an empty directory or `memory:` it would run
 * initdb and every migration, about 5 s of CPU); returns `dataDir`. Without a template (a file
 * run outside the layers' globalSetup) it stays empty and the server makes the database itself.
 */
export const migratedDataDir = (dataDir: string): string => {
  const dir = process.env[EMBEDDED_ENV]
  if (dir === undefined) return dataDir
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  fs.cpSync(path.join(dir, "data", "pgdata"), path.join(dataDir, "pgdata"), { recursive: true })
  return dataDir
}
