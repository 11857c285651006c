/**
 * PostgreSQL alone: what the database does on this machine without any HTTP, measured in the
 * benchmark's own database during the same run. An INSERT into a card-shaped table (one row, no
 * event row, commit included) and a primary-key SELECT on one. The API is rated against the thin
 * service (bench/thin-server.ts), which does a create's durable work over HTTP; these two rows
 * say how much of that floor is PostgreSQL's and how much is HTTP and the driver's.
 *
 * pgbench is the driver when it is on PATH; otherwise a loop of queries over @effect/sql-pg
 * stands in (it costs more per query than pgbench, so its floor is lower, and its label says so).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { type Db, openDb } from "./db.ts"
import { type Drive, type Driven, latencyFigures, type LoadResult } from "./load.ts"

export const floorIds = ["floor-insert", "floor-select"] as const

export interface Floor {
  readonly id: (typeof floorIds)[number]
  readonly label: string
  readonly drive: Drive
}

const insertTable = "bench_floor_insert"
const selectTable = "bench_floor_select"

/** The executable `name` on PATH, or undefined. */
export const findOnPath = (name: string): string | undefined => {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue
    const candidate = path.join(dir, name)
    try {
      fs.accessSync(candidate, fs.constants.X_OK)
      return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/**
 * Creates the floors' tables: the INSERT one empty, with the cards table's shape and its two
 * B-tree indexes that every create maintains (order within a column, cards of a project); the
 * SELECT one filled with `selectRows` card-like rows, then VACUUM ANALYZE.
 */
export const prepareFloors = async (db: Db, selectRows: number): Promise<void> => {
  await dropFloors(db)
  await db.query(`CREATE TABLE ${insertTable} (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(), project_id uuid NOT NULL, column_id uuid NOT NULL,
    sort_key numeric NOT NULL, title text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`)
  await db.query(`CREATE INDEX ${insertTable}_order ON ${insertTable} (column_id, sort_key)`)
  await db.query(`CREATE INDEX ${insertTable}_project ON ${insertTable} (project_id)`)
  await db.query(`CREATE TABLE ${selectTable} (
    id integer PRIMARY KEY, project_id uuid NOT NULL, column_id uuid NOT NULL, sort_key numeric NOT NULL,
    title text NOT NULL, description text, created_at timestamptz NOT NULL DEFAULT now())`)
  await db.query(
    `INSERT INTO ${selectTable} (id, project_id, column_id, sort_key, title, description)
     SELECT i, $1::uuid, $2::uuid, i, 'Card ' || i || ' fix login timeout', 'Reported by ' || md5(i::text) || ' after the rollout; steps to reproduce are in the linked thread.'
     FROM generate_series(1, $3::int) AS i`,
    [crypto.randomUUID(), crypto.randomUUID(), selectRows]
  )
  await db.query(`VACUUM ANALYZE ${selectTable}`)
}

/** Drops the floors' tables, so later scenarios (and autovacuum) never see them. */
export const dropFloors = async (db: Db): Promise<void> => {
  await db.query(`DROP TABLE IF EXISTS ${insertTable}`)
  await db.query(`DROP TABLE IF EXISTS ${selectTable}`)
}

let activePgbench: ChildProcess | undefined

/** Stops a running pgbench (cleanup on failure or signal). */
export const stopActivePgbench = () => {
  if (activePgbench?.pid === undefined || activePgbench.exitCode !== null) return
  try {
    process.kill(-activePgbench.pid, "SIGTERM")
  } catch {
    // already gone
  }
}

/** A run's pgbench output, in LoadResult's terms (a transaction is a response, a failed one an error). */
const parsePgbench = (
  stdout: string,
  latenciesMs: ReadonlyArray<number>,
  failures: ReadonlyArray<string>
): LoadResult => {
  const tps = /^tps = ([\d.]+) \(without initial connection time\)$/m.exec(stdout)
  const processed = /^number of transactions actually processed: (\d+)/m.exec(stdout)
  if (tps === null || processed === null) throw new Error(`pgbench printed no tps line:\n${stdout.slice(-2000)}`)
  const failed = Number(/^number of failed transactions: (\d+)/m.exec(stdout)?.[1] ?? 0)
  const rps = Number(tps[1])
  const responses = Number(processed[1])
  return {
    responses,
    elapsedSeconds: rps > 0 ? responses / rps : 0,
    rps,
    ...latencyFigures(latenciesMs),
    non2xx: 0,
    errors: failed,
    timeouts: 0,
    statusCodes: {},
    samples: failures.slice(0, 5)
  }
}

/** Transaction latencies in ms from pgbench's per-transaction logs (`-l`: the third field is µs). */
const readPgbenchLogs = (dir: string): Array<number> => {
  const out: Array<number> = []
  for (const file of fs.readdirSync(dir).filter((f) => f.startsWith("tx."))) {
    for (const line of fs.readFileSync(path.join(dir, file), "utf8").split("\n")) {
      const us = Number(line.split(" ")[2])
      if (line !== "" && Number.isFinite(us)) out.push(us / 1000)
    }
  }
  return out
}

// Run through sh: once sh has waited for pgbench, its own /proc stat holds pgbench's CPU time
// (cutime, cstime), which Node cannot get for a child. `printf` marks that line in the output.
const shWrapper = `"$0" "$@"; status=$?; printf '\\nsh-stat '; cat /proc/$$/stat; exit $status`

/** Clock ticks (1/100 s) of the waited-for children in the wrapper's stat line. */
const childTicks = (stdout: string): number => {
  const line = /^sh-stat (.*)$/m.exec(stdout)?.[1]
  if (line === undefined) return 0
  const fields = line.slice(line.lastIndexOf(")") + 2).split(" ")
  return Number(fields[13]) + Number(fields[14])
}

/** One pgbench run of `script` for `seconds`, its transactions logged to a fresh folder under `workDir`. */
const runPgbench = async (
  o: { pgbench: string; url: string; script: string; connections: number; workDir: string },
  seconds: number
): Promise<Driven> => {
  const dir = fs.mkdtempSync(path.join(o.workDir, "run-"))
  try {
    const scriptPath = path.join(dir, "script.sql")
    fs.writeFileSync(scriptPath, o.script)
    // pgbench prints no rate when no transaction ended in the window: on a loaded machine 50
    // clients may take most of a short run to connect, so a timed run lasts at least 3 s; a
    // smoke run (under a second per scenario) runs a fixed 20 transactions per client instead,
    // which always ends with a rate and does not hold both cores for seconds
    const args = [
      "-n",
      "-M",
      "prepared",
      "-c",
      String(o.connections),
      "-j",
      "2",
      ...(seconds < 1 ? ["-t", "20"] : ["-T", String(Math.max(3, seconds))]),
      "-f",
      scriptPath,
      "-l",
      `--log-prefix=${path.join(dir, "tx")}`,
      o.url
    ]
    // its own process group, so a stop reaches pgbench and not only the shell
    const child = spawn("/bin/sh", ["-c", shWrapper, o.pgbench, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    activePgbench = child
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (d) => (stdout += d))
    child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-65_536)))
    const guard = setTimeout(stopActivePgbench, (seconds + 60) * 1000)
    const code = await new Promise<number | null>((resolve) => {
      child.once("exit", (c) => resolve(c))
      child.once("error", (err) => {
        stderr += `spawn error: ${err.message}\n`
        resolve(null)
      })
    }).finally(() => {
      clearTimeout(guard)
      activePgbench = undefined
    })
    if (code !== 0) throw new Error(`pgbench exited with ${code}:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`)
    const failures = stderr.split("\n").filter((l) => /error|abort/i.test(l))
    return { result: parsePgbench(stdout, readPgbenchLogs(dir), failures), childCpuSeconds: childTicks(stdout) / 100 }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Without pgbench: `connections` concurrent loops of `statement` over one @effect/sql-pg pool for
 * `seconds`. The loop runs in this process, so the load generator's CPU figure covers it.
 */
const runDriverLoop = async (
  o: { url: string; connections: number },
  statement: () => [string, ReadonlyArray<unknown>],
  seconds: number
): Promise<Driven> => {
  const db = await openDb(o.url, o.connections)
  try {
    const latencies: Array<number> = []
    const failures: Array<string> = []
    const started = performance.now()
    const deadline = started + seconds * 1000
    await Promise.all(
      Array.from({ length: o.connections }, async () => {
        while (performance.now() < deadline) {
          const [text, params] = statement()
          const t0 = performance.now()
          try {
            await db.query(text, params)
            latencies.push(performance.now() - t0)
          } catch (err) {
            failures.push(err instanceof Error ? err.message : String(err))
          }
        }
      })
    )
    const elapsedSeconds = (performance.now() - started) / 1000
    return {
      result: {
        responses: latencies.length,
        elapsedSeconds,
        rps: latencies.length / elapsedSeconds,
        ...latencyFigures(latencies),
        non2xx: 0,
        errors: failures.length,
        timeouts: 0,
        statusCodes: {},
        samples: [...new Set(failures)].slice(0, 5)
      }
    }
  } finally {
    await db.close()
  }
}

/**
 * The two floors against the database at `url`, at `connections` connections. `selectRows` is
 * the SELECT table's size (prepareFloors must have filled it with as many).
 */
export const makeFloors = (o: {
  url: string
  connections: number
  selectRows: number
  workDir: string
  pgbench: string | undefined
}): ReadonlyArray<Floor> => {
  // one column of one project, as the create scenario appends to; a random key per row, like the API's
  const projectId = crypto.randomUUID()
  const columnId = crypto.randomUUID()
  const insertSql = `INSERT INTO ${insertTable} (project_id, column_id, sort_key, title) VALUES ('${projectId}', '${columnId}', :k, 'Bench card ' || :k::text);`
  const selectSql = `SELECT id, project_id, column_id, sort_key, title, description, created_at FROM ${selectTable} WHERE id = :id;`
  const pgbench = o.pgbench
  if (pgbench !== undefined) {
    const drive =
      (script: string): Drive =>
      (seconds) =>
        runPgbench({ pgbench, url: o.url, script, connections: o.connections, workDir: o.workDir }, seconds)
    return [
      {
        id: "floor-insert",
        label: "PostgreSQL alone: pgbench INSERT (card-shaped table)",
        drive: drive(`\\set k random(1, 1000000000)\n${insertSql}\n`)
      },
      {
        id: "floor-select",
        label: "PostgreSQL alone: pgbench primary-key SELECT",
        drive: drive(`\\set id random(1, ${o.selectRows})\n${selectSql}\n`)
      }
    ]
  }
  const random = (n: number) => 1 + Math.floor(Math.random() * n)
  const asParams = (sql: string, name: string) => sql.replaceAll(`:${name}`, "$1").replace(/;$/, "")
  return [
    {
      id: "floor-insert",
      label: "PostgreSQL alone: INSERT (card-shaped table), @effect/sql-pg loop as pgbench is not on PATH",
      drive: (seconds) => runDriverLoop(o, () => [asParams(insertSql, "k"), [random(1_000_000_000)]], seconds)
    },
    {
      id: "floor-select",
      label: "PostgreSQL alone: primary-key SELECT, @effect/sql-pg loop as pgbench is not on PATH",
      drive: (seconds) => runDriverLoop(o, () => [asParams(selectSql, "id"), [random(o.selectRows)]], seconds)
    }
  ]
}
