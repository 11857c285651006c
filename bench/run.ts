/**
 * The benchmark: the real server on a fresh PostgreSQL database against a bare node:http
 * baseline, both child processes, loaded by autocannon from this process.
 *
 *   npx -y pnpm@10 bench            10 s per scenario (BENCH_DURATION=<seconds> to change)
 *   npx -y pnpm@10 bench --quick    3 s per scenario
 *
 * Env: BENCH_DATABASE_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test),
 * BENCH_DURATION, BENCH_CONNECTIONS (default 50), BENCH_QUIET_WAIT (seconds the run may wait in
 * total for other processes to leave the CPU before a scenario, default 120), BENCH_ONLY (comma-separated scenario ids:
 * health, card, board, board-1, search, search-1, create, move; the baseline always runs). Writes BENCHMARKS.md at the repository root.
 * Children are killed and the database dropped on every exit path (error, SIGINT, SIGTERM,
 * overall time limit).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { makeApi } from "./api.ts"
import { createBenchDatabase, openDb, redactUrl } from "./db.ts"
import { type LoadRequest, type LoadSpec, runLoad, stopActiveLoad } from "./load.ts"
import { freePort, postgresTicksBetween, readMachineTicks, readPostgresTicks, readProcessTicks, readRss, spawnChild, stopChild, waitForOk, waitForQuiet } from "./processes.ts"
import { disturbedPct, errorSamples, figuresTable, otherCpu, resourceTable, type Row, targetsTable } from "./report.ts"
import { boardCardCount, boardColumnCount, checkInvariants, type Seeded, searchQueries, seed } from "./seed.ts"

const repoRoot = fileURLToPath(new URL("../", import.meta.url))
const log = (line: string) => process.stderr.write(`${line}\n`)

// ---- options ---------------------------------------------------------------------------------

const args = process.argv.slice(2)
for (const a of args) {
  if (a !== "--quick" && a !== "--help") {
    log(`unknown argument ${a}; usage: npx -y pnpm@10 bench [--quick]`)
    process.exit(2)
  }
}
if (args.includes("--help")) {
  log("usage: npx -y pnpm@10 bench [--quick]\nenv: BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (default 50), BENCH_DATABASE_URL,\n     BENCH_QUIET_WAIT (s, default 120), BENCH_ONLY (health,card,board,board-1,search,search-1,create,move)")
  process.exit(0)
}
const quick = args.includes("--quick")
const positiveInt = (name: string, fallback: number, max: number) => {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > max) {
    log(`${name} must be a whole number from 1 to ${max}, got ${JSON.stringify(raw)}`)
    process.exit(2)
  }
  return n
}
const duration = quick ? 3 : positiveInt("BENCH_DURATION", 10, 120)
const warmup = 2
const connections = positiveInt("BENCH_CONNECTIONS", 50, 1000)
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
/** Seconds the whole run may spend waiting for other processes to leave the CPU before a scenario. */
const quietBudgetSeconds = process.env.BENCH_QUIET_WAIT === undefined ? 120 : Number(process.env.BENCH_QUIET_WAIT)
if (!Number.isFinite(quietBudgetSeconds) || quietBudgetSeconds < 0 || quietBudgetSeconds > 3600) {
  log(`BENCH_QUIET_WAIT must be a number of seconds from 0 to 3600`)
  process.exit(2)
}
let quietBudgetLeftMs = quietBudgetSeconds * 1000
/** BENCH_ONLY=id,id runs only those scenarios (the baseline always runs), for investigating one. */
const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim()).filter((s) => s !== "")

const [nodeMajor] = process.versions.node.split(".").map(Number)
if (nodeMajor! < 24) {
  log(`the benchmark needs the project's Node 24 (this is ${process.versions.node}); run it as: npx -y pnpm@10 bench`)
  process.exit(2)
}

// ---- cleanup on every exit path ----------------------------------------------------------------

const cleanups: Array<{ name: string; run: () => Promise<void> }> = []
let cleaning: Promise<void> | undefined
const cleanup = (): Promise<void> => {
  cleaning ??= (async () => {
    stopActiveLoad()
    while (cleanups.length > 0) {
      const step = cleanups.pop()!
      try {
        await step.run()
      } catch (err) {
        log(`cleanup: ${step.name} failed: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
  })()
  return cleaning
}
const abort = (why: string, code: number) => {
  log(why)
  void cleanup().finally(() => process.exit(code))
}
process.once("SIGINT", () => abort("interrupted (SIGINT): cleaning up", 130))
process.once("SIGTERM", () => abort("terminated (SIGTERM): cleaning up", 143))
process.on("uncaughtException", (err) => abort(`uncaught: ${err.stack ?? err}`, 1))
process.on("unhandledRejection", (err) => abort(`unhandled rejection: ${err instanceof Error ? err.stack : String(err)}`, 1))

// ---- scenarios -------------------------------------------------------------------------------

interface Scenario {
  readonly id: string
  readonly label: string
  readonly target: "baseline" | "server"
  readonly connections: number
  readonly supplementary?: boolean
  readonly spec: Omit<LoadSpec, "origin" | "connections" | "durationSeconds">
}

const scenarios = (s: Seeded & { intakeToken: string; mcpSession: string }): ReadonlyArray<Scenario> => {
  const key = { "x-api-key": s.apiKey }
  const json = { ...key, "content-type": "application/json" }
  const rotate = (paths: ReadonlyArray<string>): LoadRequest => {
    let i = 0
    return {
      path: paths[0]!,
      headers: key,
      setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! })
    }
  }
  const searchPaths = searchQueries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}`)
  const board: LoadRequest = { path: `/api/v1/board/${s.boardProjectId}`, headers: key }
  return [
    { id: "baseline", label: "baseline: node:http hello", target: "baseline", connections, spec: { requests: () => [{ path: "/" }] } },
    { id: "health", label: "GET /api/v1/health", target: "server", connections, spec: { requests: () => [{ path: "/api/v1/health" }] } },
    {
      id: "card",
      label: "GET /api/v1/cards/{id} (X-API-Key)",
      target: "server",
      connections,
      spec: { requests: () => [rotate(s.boardCardIds.map((id) => `/api/v1/cards/${id}`))] }
    },
    { id: "board", label: "GET /api/v1/board/{id} (1,000 cards)", target: "server", connections, spec: { requests: () => [board] } },
    { id: "board-1", label: "GET /api/v1/board/{id} (1,000 cards), 1 connection", target: "server", connections: 1, supplementary: true, spec: { requests: () => [board] } },
    {
      id: "search",
      label: `GET /api/v1/search?q= (100,000 cards, ${searchQueries.length} queries)`,
      target: "server",
      connections,
      spec: { requests: () => [rotate(searchPaths)] }
    },
    {
      id: "search-1",
      label: "GET /api/v1/search?q= (100,000 cards), 1 connection",
      target: "server",
      connections: 1,
      supplementary: true,
      spec: { requests: () => [rotate(searchPaths)] }
    },
    {
      id: "create",
      label: "POST /api/v1/cards",
      target: "server",
      connections,
      spec: {
        requests: () => {
          let n = 0
          const run = Math.random().toString(36).slice(2, 8)
          const body = () => JSON.stringify({ projectId: s.createProject.id, columnId: s.createProject.columnId, title: `Bench card ${run}-${++n}`, priority: "high" })
          return [{ method: "POST", path: "/api/v1/cards", headers: json, body: body(), setupRequest: (req) => ({ ...req, body: body() }) }]
        }
      }
    },
    {
      id: "intake",
      label: "POST /api/v1/intake (X-Intake-Key)",
      target: "server",
      connections,
      spec: {
        requests: () => {
          let n = 0
          const run = Math.random().toString(36).slice(2, 8)
          const body = () => JSON.stringify({ title: `Intake ${run}-${++n}`, description: "filed by the benchmark" })
          const headers = { "x-intake-key": s.intakeToken, "content-type": "application/json" }
          return [{ method: "POST", path: "/api/v1/intake", headers, body: body(), setupRequest: (req) => ({ ...req, body: body() }) }]
        }
      }
    },
    ...([["link", connections, false], ["link-1", 1, true]] as const).map(([id, conns, supplementary]): Scenario => ({
      id,
      label: `POST /api/v1/projects/{id}/links (1,000-card board)${conns === 1 ? ", 1 connection" : ""}`,
      target: "server",
      connections: conns,
      supplementary,
      spec: {
        requests: () => {
          let n = 0
          const run = Math.random().toString(36).slice(2, 8)
          // a new page each time: every submission is stored and rated against the whole board
          const body = () => JSON.stringify({ url: `https://docs.example.com/${run}/${++n}?utm_source=bench`, title: "Login timeout fix notes", note: "session handling and retries", tags: ["auth", "login"] })
          return [{ method: "POST", path: `/api/v1/projects/${s.boardProjectId}/links`, headers: json, body: body(), setupRequest: (req) => ({ ...req, body: body() }) }]
        }
      }
    })),
    {
      id: "mcp",
      label: "POST /api/mcp tools/call show_card (X-API-Key)",
      target: "server",
      connections,
      spec: {
        requests: () => {
          let n = 0
          const headers = { ...json, accept: "application/json, text/event-stream", "mcp-session-id": s.mcpSession, "mcp-protocol-version": "2025-06-18" }
          const body = () => JSON.stringify({ jsonrpc: "2.0", id: ++n, method: "tools/call", params: { name: "show_card", arguments: { card: s.boardCardIds[n % s.boardCardIds.length] } } })
          return [{ method: "POST", path: "/api/mcp", headers, body: body(), setupRequest: (req) => ({ ...req, body: body() }) }]
        }
      }
    },
    {
      id: "move",
      label: `POST /api/v1/cards/{id}/move (${s.moveCardIds.length}-card pool)`,
      target: "server",
      connections,
      spec: {
        requests: () => [{ method: "POST", path: `/api/v1/cards/${s.moveCardIds[0]}/move`, headers: json, body: JSON.stringify({ columnId: s.moveColumnIds[1] }) }],
        // each connection owns one card of the pool and moves it to the next column, at positions 0..3
        perConnection: (c) => {
          const card = s.moveCardIds[c % s.moveCardIds.length]!
          let k = c % s.moveColumnIds.length
          const body = () => {
            k++
            return JSON.stringify({ columnId: s.moveColumnIds[k % s.moveColumnIds.length], position: k % 4 })
          }
          return [{ method: "POST", path: `/api/v1/cards/${card}/move`, headers: json, body: body(), setupRequest: (req) => ({ ...req, body: body() }) }]
        }
      }
    }
  ]
}

// ---- smoke checks: each scenario's request answers 2xx with the expected shape -------------------

const smoke = async (origin: string, helloOrigin: string, s: Seeded) => {
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`smoke check: GET ${url} answered ${res.status}: ${text.slice(0, 300)}`)
    return JSON.parse(text)
  }
  const key = { "x-api-key": s.apiKey }
  await get(`${helloOrigin}/`)
  await get(`${origin}/api/v1/health`)
  const card = await get(`${origin}/api/v1/cards/${s.boardCardIds[0]}`, key)
  if (card.id !== s.boardCardIds[0]) throw new Error(`smoke check: GET /v1/cards/{id} answered another card: ${JSON.stringify(card).slice(0, 200)}`)
  const board = await get(`${origin}/api/v1/board/${s.boardProjectId}`, key)
  if (board.cards?.length !== s.boardCardIds.length) throw new Error(`smoke check: the board has ${board.cards?.length} cards, expected ${s.boardCardIds.length}`)
  const boardBytes = JSON.stringify(board).length
  const counts: Array<string> = []
  for (const q of searchQueries) {
    const found = await get(`${origin}/api/v1/search?q=${encodeURIComponent(q)}`, key)
    if (!Array.isArray(found) || found.length === 0) throw new Error(`smoke check: search "${q}" found nothing`)
    counts.push(`"${q}" ${found.length}`)
  }
  log(`  smoke checks passed: board ${board.cards.length} cards (${(boardBytes / 1024).toFixed(0)} KiB JSON); search results returned: ${counts.join(", ")}`)
  return { boardBytes }
}

// ---- one measured scenario -------------------------------------------------------------------

const measure = async (sc: Scenario, origin: string, pid: number): Promise<Row> => {
  const base = { ...sc.spec, origin, connections: sc.connections }
  // other processes on the machine (e.g. a test suite) distort the figures: wait for quiet, within a budget
  const quiet = await waitForQuiet(quietBudgetLeftMs, 15, os.cpus().length, (pct) =>
    log(`  the machine is busy outside the benchmark (${Math.round(pct)}% of a core); waiting up to ${Math.round(quietBudgetLeftMs / 1000)} s for it to calm down`))
  quietBudgetLeftMs = Math.max(0, quietBudgetLeftMs - Math.max(0, quiet.waitedMs - 1_000))
  if (quiet.busyPct !== undefined && quiet.busyPct >= 15) log(`  still busy (${Math.round(quiet.busyPct)}% of a core outside the benchmark): measuring anyway`)
  const warm = await runLoad({ ...base, durationSeconds: warmup })
  if (warm.non2xx + warm.errors > 0) log(`  warm-up of ${sc.id}: ${warm.non2xx} non-2xx, ${warm.errors} errors ${warm.samples.join(" | ")}`)
  const cpu0 = readProcessTicks(pid)
  const pg0 = readPostgresTicks()
  const m0 = readMachineTicks()
  const self0 = process.cpuUsage()
  const t0 = performance.now()
  const result = await runLoad({ ...base, durationSeconds: duration })
  const seconds = (performance.now() - t0) / 1000
  const cpu1 = readProcessTicks(pid)
  const pg1 = readPostgresTicks()
  const m1 = readMachineTicks()
  const self = process.cpuUsage(self0)
  const rss = readRss(pid)
  const ticksToPct = (ticks: number) => (ticks / 100 / seconds) * 100
  return {
    id: sc.id,
    label: sc.label,
    connections: sc.connections,
    result,
    rss,
    cpu: {
      server: cpu0 !== undefined && cpu1 !== undefined ? ticksToPct(cpu1 - cpu0) : undefined,
      postgres: ticksToPct(postgresTicksBetween(pg0, pg1)),
      loadGenerator: ((self.user + self.system) / 1e6 / seconds) * 100,
      machine: m0 !== undefined && m1 !== undefined && m1.total > m0.total ? ((m1.busy - m0.busy) / (m1.total - m0.total)) * 100 * os.cpus().length : undefined
    },
    ...(sc.supplementary ? { supplementary: true } : {})
  }
}

// ---- main ------------------------------------------------------------------------------------

const mib = (bytes: number | undefined) => (bytes === undefined ? "–" : (bytes / 1048576).toFixed(0))

const main = async () => {
  const runStarted = Date.now()
  const scenarioCount = 13
  const limitSeconds = scenarioCount * (duration + warmup + 16) + quietBudgetSeconds + 300
  const watchdog = setTimeout(() => abort(`the benchmark exceeded its ${limitSeconds} s limit: cleaning up`, 1), limitSeconds * 1000)
  watchdog.unref()

  log(`benchmark: ${duration} s per scenario after ${warmup} s warm-up, ${connections} connections; admin database ${redactUrl(adminUrl)}`)

  const database = await createBenchDatabase(adminUrl)
  cleanups.push({ name: `drop database ${database.name}`, run: async () => {
    await database.drop()
    log(`dropped database ${database.name}`)
  } })
  log(`created database ${database.name}`)

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "board-bench-"))
  cleanups.push({ name: `remove ${dataDir}`, run: async () => fs.rmSync(dataDir, { recursive: true, force: true }) })

  const baseEnv: Record<string, string> = {}
  for (const name of ["PATH", "HOME", "LANG", "TZ"]) if (process.env[name] !== undefined) baseEnv[name] = process.env[name]!

  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const server = spawnChild("board server", process.execPath, [path.join(repoRoot, "bin/board.mjs"), "serve"], {
    cwd: repoRoot,
    env: {
      ...baseEnv,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      LOG_FORMAT: "json",
      RATE_LIMIT: "100000000/60s",
      SIGNUPS_OPEN: "true"
    }
  })
  cleanups.push({ name: "stop the board server", run: () => stopChild(server) })
  await waitForOk(server, `${origin}/api/v1/health`, 60_000)
  log(`board server pid ${server.pid} on ${origin}`)

  const helloPort = await freePort()
  const helloOrigin = `http://127.0.0.1:${helloPort}`
  const hello = spawnChild("baseline server", process.execPath, [path.join(repoRoot, "bench/hello-server.ts")], {
    cwd: repoRoot,
    env: { ...baseEnv, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(helloPort) }
  })
  cleanups.push({ name: "stop the baseline server", run: () => stopChild(hello) })
  await waitForOk(hello, `${helloOrigin}/`, 15_000)
  log(`baseline server pid ${hello.pid} on ${helloOrigin}`)

  log("seeding")
  const seedStarted = performance.now()
  const db = await openDb(database.url)
  let seeded: Seeded
  let pgVersion = ""
  try {
    seeded = await seed(makeApi(`${origin}/api`), db, log)
    const problems = await checkInvariants(db)
    if (problems.length > 0) throw new Error(`seed broke an invariant:\n${problems.join("\n")}`)
    pgVersion = ((await db.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))[0]?.v) ?? ""
  } finally {
    await db.close()
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000
  log(`  seeded in ${seedSeconds.toFixed(1)} s (${Object.entries(seeded.timings).map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(", ")})`)
  const { boardBytes } = await smoke(origin, helloOrigin, seeded)
  const minted = await makeApi(`${origin}/api`).call<{ token: string }>("POST", "/v1/intake-tokens", {
    body: { columnId: seeded.createProject.columnId, name: "benchmark" },
    auth: { apiKey: seeded.apiKey }
  })
  const rssAtStart = { server: readRss(server.pid), baseline: readRss(hello.pid) }

  const rows: Array<Row> = []
  // an MCP session for the tool-call scenario: initialize, then the initialized notification
  const mcpHeaders = { "x-api-key": seeded.apiKey, "content-type": "application/json", accept: "application/json, text/event-stream" }
  const init = await fetch(`${origin}/api/mcp`, {
    method: "POST",
    headers: mcpHeaders,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } })
  })
  const mcpSession = init.headers.get("mcp-session-id") ?? ""
  await init.text()
  await fetch(`${origin}/api/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders, "mcp-session-id": mcpSession, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
  }).then((r) => r.text())
  for (const sc of scenarios({ ...seeded, intakeToken: minted.token, mcpSession }).filter((x) => only === undefined || x.id === "baseline" || only.includes(x.id))) {
    if (server.hasExited()) throw new Error(`the board server exited during the benchmark:\n${server.output()}`)
    log(`running ${sc.label} (${sc.connections} connection${sc.connections === 1 ? "" : "s"})`)
    const target = sc.target === "baseline" ? { origin: helloOrigin, pid: hello.pid } : { origin, pid: server.pid }
    let row = await measure(sc, target.origin, target.pid)
    // a run disturbed by other processes is measured again while the budget lasts; the cleanest run is kept
    let attempts = 1
    let last = row
    while ((otherCpu(row) ?? 0) > disturbedPct && attempts < 3 && quietBudgetLeftMs >= (duration + warmup) * 1000) {
      log(`  disturbed: ${Math.round(otherCpu(last)!)}% of a core went to other processes during the run (${Math.round(last.result.rps)} req/s); measuring again`)
      quietBudgetLeftMs -= (duration + warmup) * 1000
      last = await measure(sc, target.origin, target.pid)
      attempts++
      if ((otherCpu(last) ?? 0) < (otherCpu(row) ?? 0)) row = last
    }
    row = { ...row, attempts }
    rows.push(row)
    const r = row.result
    log(`  ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, non-2xx ${r.non2xx}, errors ${r.errors}; server CPU ${Math.round(row.cpu.server ?? 0)}%, postgres CPU ${Math.round(row.cpu.postgres)}%, RSS ${((row.rss ?? 0) / 1048576).toFixed(0)} MiB`)
  }
  if (server.hasExited()) throw new Error(`the board server exited during the benchmark:\n${server.output()}`)

  // after the write scenarios: the board invariants still hold and the writes landed
  const after = await openDb(database.url)
  let invariantProblems: Array<string>
  let created = 0
  try {
    invariantProblems = await checkInvariants(after)
    created = (await after.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards WHERE column_id = $1`, [seeded.createProject.columnId]))[0]?.n ?? 0
  } finally {
    await after.close()
  }
  const serverErrors = server.output().trim()

  // ---- report ----
  const baseline = rows.find((r) => r.id === "baseline")!
  const figures = figuresTable(rows, baseline)
  const { table: targetTable, misses } = targetsTable(rows, baseline)
  const cpus = os.cpus()
  const command = `${[
    process.env.BENCH_DURATION !== undefined && !quick ? `BENCH_DURATION=${process.env.BENCH_DURATION}` : "",
    process.env.BENCH_CONNECTIONS !== undefined ? `BENCH_CONNECTIONS=${process.env.BENCH_CONNECTIONS}` : "",
    only !== undefined ? `BENCH_ONLY=${only.join(",")}` : "",
    process.env.BENCH_QUIET_WAIT !== undefined ? `BENCH_QUIET_WAIT=${process.env.BENCH_QUIET_WAIT}` : "",
    process.env.BENCH_DATABASE_URL !== undefined ? `BENCH_DATABASE_URL=${redactUrl(process.env.BENCH_DATABASE_URL)}` : ""
  ].filter((s) => s !== "").join(" ")} npx -y pnpm@10 bench${quick ? " --quick" : ""}`.trim()
  const md = `# Benchmarks

Generated by \`bench/run.ts\`; do not edit by hand, re-run instead.

- **Date**: ${new Date(runStarted).toISOString()}
- **Command**: \`${command}\` (from the repository root)
- **Machine**: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}
- **Node**: ${process.version} (server, baseline and load generator)
- **PostgreSQL**: ${pgVersion} on the same machine (\`${redactUrl(adminUrl)}\`, fresh database \`${database.name}\`, dropped after the run)
- **Load**: autocannon, ${connections} connections (two supplementary rows use 1), ${warmup} s warm-up then ${duration} s measured per scenario, keep-alive, no pipelining.
  Load generator, server, baseline and PostgreSQL share the same ${cpus.length} cores. Before each scenario the run waits (up to ${quietBudgetSeconds} s in total) until other processes use less than 15% of a core.
- **Server**: \`bin/board.mjs serve\` with \`LOG_LEVEL=error RATE_LIMIT=100000000/60s NODE_ENV=production\`; baseline: \`bench/hello-server.ts\` (bare \`node:http\` answering \`{"status":"ok"}\`), also a child process.

## Results

${figures}

Requests/s counts every response in the measured window; p50/p99 are per-response latencies measured by the load generator (all statuses).
"ratio to baseline" is requests/s over the baseline row. "server RSS" is VmRSS of the process under test right after the scenario
(before the first scenario, after seeding: board server ${mib(rssAtStart.server)} MiB, baseline ${mib(rssAtStart.baseline)} MiB).
A † marks a run during which other processes on the machine used more than ${disturbedPct}% of a core (see "everything else" below); such runs are measured again while the waiting budget lasts and the cleanest is kept.

## Targets

${targetTable}

${misses.length === 0 ? "All targets met." : `Missed: ${misses.join("; ")}. The CPU table below shows where the time goes (CPU per request of the server and of PostgreSQL). The load generator, the server and PostgreSQL share ${cpus.length} cores, and a closed loop of ${connections} connections has a mean latency of ${connections} ÷ requests/s (Little's law), so a p99 target at ${connections} connections is a throughput target in disguise; the 1-connection rows give the latency of the same requests without queueing.`}

## CPU during each measured run

${resourceTable(rows)}

CPU time over the measured window, in % of one core (100% = one core fully busy; the machine has ${cpus.length * 100}%). PostgreSQL sums all its processes.
"everything else" is the whole machine minus the three: kernel work not charged to them and any other process running meanwhile (a large value means the run was disturbed).

## Data

- 1,000-card board: one project, ${boardColumnCount} columns of ${boardCardCount / boardColumnCount} cards (${(boardBytes / 1024).toFixed(0)} KiB of JSON per response).
- Search corpus: one project of 100,000 cards, titles like "Card 12345 fix login timeout" (12 verbs × 40 areas × 40 problems), descriptions with four code words from 8,000.
  Queries rotate per request; cards matching each (the API returns at most 50): ${seeded.searchHits.map((h) => `"${h.q}" ${h.matches}`).join(", ")}.
- GET /v1/cards/{id} rotates over the 1,000 board cards. POST /v1/cards appends to one column of a kanban project (${created.toLocaleString("en-US")} cards there after the run).
  The move pool is ${seeded.moveCardIds.length} cards over 3 columns; each connection moves its own card to the next column at position 0–3.
- Seeding took ${seedSeconds.toFixed(1)} s (signup through the API, bulk cards in SQL, then VACUUM ANALYZE: like autovacuum would, it also flushes the GIN pending lists the bulk insert leaves in the trigram indexes; without it each search scans them and costs about 4× more in PostgreSQL).

## Errors and invariants

${errorSamples(rows)}

${invariantProblems.length === 0 ? "After the write scenarios every column still holds positions 0..n-1 and every project's next_ref_number is past its largest ref." : `Invariant problems after the run:\n${invariantProblems.map((p) => `- ${p}`).join("\n")}`}
${serverErrors === "" ? "\nThe server wrote nothing at LOG_LEVEL=error during the run." : `\nServer output at LOG_LEVEL=error (last lines):\n\n\`\`\`\n${serverErrors.split("\n").slice(-20).join("\n").slice(0, 4000)}\n\`\`\``}
`
  fs.writeFileSync(path.join(repoRoot, "BENCHMARKS.md"), md)

  process.stdout.write(`\n${figures}\n\n${targetTable}\n\n${resourceTable(rows)}\n\n${errorSamples(rows)}\n\nwrote ${path.join(repoRoot, "BENCHMARKS.md")} (${((Date.now() - runStarted) / 1000).toFixed(0)} s)\n`)
  if (invariantProblems.length > 0) log(`invariant problems after the run:\n${invariantProblems.join("\n")}`)
}

let exitCode = 0
try {
  await main()
} catch (err) {
  log(`benchmark failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
  exitCode = 1
} finally {
  await cleanup()
}
process.exit(exitCode)
