/**
 * Forward-only SQL migrations from `migrations/<id>_<name>.sql`, applied in order and
 * recorded so each runs once. Effect's file-system loader ignores `.sql` files, so this
 * supplies its own loader; the run holds a transaction-scoped advisory lock so two servers
 * starting together on one PostgreSQL apply them once.
 */
import { Effect, FileSystem, Path } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { fileURLToPath } from "node:url"
import { splitSql } from "./splitSql.ts"

export const defaultMigrationsDir = fileURLToPath(new URL("../../../../migrations/", import.meta.url))

const MIGRATION_LOCK_KEY = 72_620_001

export const sqlFileLoader = (dir: string): Migrator.Loader<FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const files = yield* fs.readDirectory(dir).pipe(
      Effect.mapError((cause) =>
        new Migrator.MigrationError({ kind: "Failed", cause, message: `cannot read migrations folder ${dir}` })
      )
    )
    return files
      .flatMap((file): Array<Migrator.ResolvedMigration> => {
        const m = /^(\d+)_(.+)\.sql$/.exec(file)
        if (!m) return []
        const load = Effect.map(Effect.orDie(fs.readFileString(path.join(dir, file))), (text) =>
          Effect.gen(function*() {
            const sql = yield* SqlClient.SqlClient
            for (const statement of splitSql(text)) yield* sql.unsafe(statement)
          }))
        return [[Number(m[1]), m[2]!, load]]
      })
      .sort(([a], [b]) => a - b)
  })

const runMigrator = Migrator.make({})

/** Applies pending migrations; returns those it ran. */
export const runMigrations = (dir: string = defaultMigrationsDir) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`
        return yield* runMigrator({ loader: sqlFileLoader(dir), table: "board_migrations" })
      })
    )
  })
