/**
 * The floor's tables, made right before their scenarios as big as the cards table is then: the
 * thin service's (it creates and fills them itself under `thinPrefix`; here, how many rows) and
 * PostgreSQL alone's, pgbench's tables with the scenarios that load them (bench/floors.ts).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { cleanups } from "./cleanup.ts"
import type { Db } from "./db.ts"
import { findOnPath, makeFloors, prepareFloors } from "./floors.ts"
import { count, log } from "./log.ts"
import { connections } from "./options.ts"
import type { FloorScenario } from "./scenario-types.ts"

/** Cards in the benchmark's database (at least 1): the size of the tables the floors read. */
export const cardCount = async (db: Db) =>
  Math.max(1, (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards`))[0]?.n ?? 0)

/** The thin service's tables: `${thinPrefix}cards` and `${thinPrefix}events` in the benchmark's database. */
export const thinPrefix = "bench_thin_"

/** PostgreSQL alone: pgbench's tables (the SELECT one as big as the cards table is now) and its scenarios on them. */
export const makeFloorTables = async (db: Db, url: string) => {
  const started = performance.now()
  const selectRows = await cardCount(db)
  log(`creating the floors' tables (the SELECT one with ${count(selectRows)} rows, as many as cards)`)
  await prepareFloors(db, selectRows)
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "board-bench-floors-"))
  cleanups.push({ name: `remove ${workDir}`, run: async () => fs.rmSync(workDir, { recursive: true, force: true }) })
  const pgbench = findOnPath("pgbench")
  if (pgbench === undefined) log("  pgbench is not on PATH: the floors are query loops over @effect/sql-pg instead")
  const floors = makeFloors({ url, connections, selectRows, workDir, pgbench }).map(
    (f): FloorScenario => ({ ...f, target: "floor", connections })
  )
  return { floors, selectRows, pgbench, seconds: (performance.now() - started) / 1000 }
}
