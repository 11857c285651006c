/**
 * Forward-only SQL migrations from `migrations/<id>_<name>.sql`, applied in order and
 * recorded so each runs once. Effect's file-system loader ignores `.sql` files, so this
 * supplies its own loader; the run holds a transaction-scoped advisory lock so two servers
 * starting together on one PostgreSQL apply them once.
 */
import { Effect, FileSystem, Path } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import * as nodeFs from "node:fs"
import * as nodePath from "node:path"
import { fileURLToPath } from "node:url"
import { cardJsonFunctionBody, cardJsonFunctionSql, cardJsonTriggerSql } from "../board/cardView.ts"
import { splitSql } from "./splitSql.ts"

/**
 * The repository's `migrations/`: the nearest one above this module, which is
 * `packages/core/src/infra/` when run from source and `dist/` (or `dist/chunks/`) in the bundle.
 */
const findMigrationsDir = (from: string): string => {
  for (let dir = from; ; dir = nodePath.dirname(dir)) {
    const candidate = nodePath.join(dir, "migrations")
    if (nodeFs.existsSync(nodePath.join(candidate, "0001_init.sql"))) return candidate + nodePath.sep
    if (nodePath.dirname(dir) === dir) return nodePath.join(from, "migrations") + nodePath.sep
  }
}

export const defaultMigrationsDir = findMigrationsDir(nodePath.dirname(fileURLToPath(import.meta.url)))

const MIGRATION_LOCK_KEY = 72_620_001

/** A migration file's number and name (`0031_card_json.sql`), or undefined for any other file. */
export const migrationFile = (file: string): { readonly id: number; readonly name: string } | undefined => {
  const m = /^(\d+)_(.+)\.sql$/.exec(file)
  return m ? { id: Number(m[1]), name: m[2]! } : undefined
}

export const sqlFileLoader = (dir: string): Migrator.Loader<FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const files = yield* fs
      .readDirectory(dir)
      .pipe(
        Effect.mapError(
          (cause) =>
            new Migrator.MigrationError({ kind: "Failed", cause, message: `cannot read migrations folder ${dir}` })
        )
      )
    return files
      .flatMap((file): Array<Migrator.ResolvedMigration> => {
        const m = migrationFile(file)
        if (!m) return []
        const load = Effect.map(Effect.orDie(fs.readFileString(path.join(dir, file))), (text) =>
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            for (const statement of splitSql(text)) yield* sql.unsafe(statement)
          })
        )
        return [[m.id, m.name, load]]
      })
      .sort(([a], [b]) => a - b)
  })

const runMigrator = Migrator.make({})

/** The newest migration in `dir`: how far this build's schema goes. */
const newestMigration = (dir: string): number =>
  Math.max(0, ...nodeFs.readdirSync(dir).flatMap((f) => migrationFile(f)?.id ?? []))

/**
 * Puts the card JSON trigger in place as the Card schema makes its function
 * (migrations/0031_card_json.sql, board/cardView.ts) and, when the function or the trigger was
 * not that (a new database, a server whose Card has changed, a trigger dropped or disabled by
 * hand), rewrites every card's stored parts: an UPDATE fires the trigger. Run in the migration's
 * transaction, under its lock: a reader sees the old parts or the new, never a mix. The table is
 * locked against writers first, so the rewrite waits for them rather than meeting their row locks
 * in another order (a deadlock). (Here rather than in a migration file so the shape stays
 * written once, in the schema.)
 *
 * A build older than the database (the database has a migration this build does not) leaves the
 * function and the parts alone: in a rolling upgrade, an old server starting after a new one
 * must not undo its shape, and every card written meanwhile gets the new shape from the trigger.
 * Two builds with the same migrations but different Card shapes would each rewrite the cards
 * when they start (operations.md says to upgrade in one step then).
 */
const syncCardJson = (dir: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [state] = yield* sql<{ columns: boolean; level: number | null; body: string | null; trigger: string | null }>`
      SELECT EXISTS (SELECT 1 FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'cards' AND column_name = 'json_1') AS columns,
        (SELECT max(migration_id) FROM board_migrations) AS level,
        (SELECT p.prosrc FROM pg_proc p WHERE p.proname = 'board_card_json'
          AND p.pronamespace = current_schema()::regnamespace) AS body,
        (SELECT t.tgenabled::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE c.oid = to_regclass('cards') AND t.tgname = 'cards_json') AS trigger`
    // no columns: migration 0031 has not run (a run over another folder of migrations, in tests)
    if (state === undefined || !state.columns) return
    if ((state.level ?? 0) > newestMigration(dir)) return
    // 'O': fires in ordinary sessions (pg_trigger.tgenabled)
    if (state.body === cardJsonFunctionBody && state.trigger === "O") return
    yield* sql`LOCK TABLE cards IN SHARE ROW EXCLUSIVE MODE`
    yield* sql.unsafe(cardJsonFunctionSql)
    yield* sql`DROP TRIGGER IF EXISTS cards_json ON cards`
    yield* sql.unsafe(cardJsonTriggerSql)
    yield* sql`UPDATE cards SET json_1 = NULL`
  })

/**
 * Applies pending migrations; returns those it ran. Then sets the event clock ahead of every
 * event when the database came from another PostgreSQL server (migrations/0030_event_clock.sql)
 * and puts the cards' stored JSON in step with the Card schema (`syncCardJson`): every path to a
 * served database (serve, `board migrate`, the operator commands) runs this first.
 */
export const runMigrations = (dir: string = defaultMigrationsDir) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`
        const ran = yield* runMigrator({ loader: sqlFileLoader(dir), table: "board_migrations" })
        yield* sql`SELECT board_rebase_event_clock()`
        yield* syncCardJson(dir)
        return ran
      })
    )
  })
