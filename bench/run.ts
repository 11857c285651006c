/**
 * The benchmark: the real server on a fresh PostgreSQL database against a bare node:http
 * baseline and against the thinnest hand-written service doing the same durable work
 * (bench/thin-server.ts, node:http and pg: the floor every write and the card read are rated
 * against, issue 35), with PostgreSQL alone (pgbench in the same database) for context; the
 * server, baseline and thin service child processes loaded by autocannon from this process; then
 * the write scenarios again on a second server using the embedded database (PGlite in a fresh DATA_DIR).
 *
 *   npx -y pnpm@10 bench            10 s per scenario after a 2 s warm-up (BENCH_DURATION, BENCH_WARMUP to change;
 *                                   issue 35's figures were taken at BENCH_DURATION=5 BENCH_WARMUP=1)
 *   npx -y pnpm@10 bench --quick    3 s per scenario
 *   npx -y pnpm@10 bench --smoke    every scenario for 0.25 s on tiny data (corpora ÷100, boards
 *                                   ÷10), no warm-up, no waiting for quiet: checks the whole run
 *                                   works; writes BENCH_OUT (default: a file in the temp directory)
 *
 * Order of the run: the search corpus is seeded at 10,000 cards and measured (1 connection),
 * grown in place to 100,000 cards (the state every main scenario reads), the main scenarios run
 * (the baseline first, then the thin service's create and read in its own tables, then
 * PostgreSQL alone: pgbench INSERT into a card-shaped table and primary-key SELECT on one, every
 * such table dropped right after), then the 100- and 10,000-card
 * boards are filled and measured, and the corpus grows to 1,000,000 cards and is measured. The
 * main scenarios thus read the same rows as before the scaling runs existed (see corpus.ts),
 * vacuumed and analyzed the same way. Last, a second server on the embedded database is seeded
 * through the API and the write scenarios run against it at N connections and at 1.
 *
 * Env: BENCH_DATABASE_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test),
 * BENCH_DURATION, BENCH_WARMUP (seconds, default 2), BENCH_CONNECTIONS (default 50), BENCH_QUIET_WAIT (seconds the run may wait in
 * total for other processes to leave the CPU before a scenario, default 120), BENCH_ONLY (comma-separated scenario ids,
 * see scenarioIds in options.ts, or the groups `scaling`, `writes` and `embedded`; the baseline, the framework and the
 * thin service always run, as every ratio needs them), BENCH_OUT (the report's path, default BENCHMARKS.md at the repository root).
 * PostgreSQL alone runs pgbench from PATH, or a query loop over @effect/sql-pg when there is none (its labels say which).
 * Children are killed and the database dropped on every exit path (error, SIGINT, SIGTERM,
 * overall time limit).
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeApi } from "./api.ts"
import { cleanup, cleanups } from "./cleanup.ts"
import { type CorpusStep, growCorpus } from "./corpus.ts"
import { createBenchDatabase, redactUrl } from "./db.ts"
import { runEmbedded } from "./embedded.ts"
import { EVENTS_OFF_SQL, EVENTS_ON_SQL } from "./events.ts"
import { cardCount, makeFloorTables, thinPrefix } from "./floor-tables.ts"
import { dropFloors, floorIds } from "./floors.ts"
import { type Drive, runLoad } from "./load.ts"
import { count, log, mib } from "./log.ts"
import { measureSteady, responseBytes } from "./measure.ts"
import {
  adminUrl,
  alwaysIds,
  connections,
  duration,
  embeddedIds,
  IDLE_MS,
  mainIds,
  queueCards,
  repoRoot,
  selected,
  sizes,
  smokeRun,
  warmup
} from "./options.ts"
import { type Child, readPeakRss, readRss, stopChild } from "./processes.ts"
import { type Row, thinIds } from "./report.ts"
import type { FloorScenario, HttpScenario, Scenario, ThinTarget } from "./scenario-types.ts"
import { scenarios } from "./scenarios.ts"
import { seedServer } from "./seed-server.ts"
import { checkInvariants, fillScaleBoards, type MovePool, seedMovePool, seedQueue } from "./seed.ts"
import { baseEnv, startBoardServer, startHelloServer } from "./servers.ts"
import { smoke, thinSmoke } from "./smoke.ts"
import { measureStartup, median } from "./startup.ts"
import { runStreams } from "./streams.ts"
import type { Figures } from "./targets.ts"
import { startWatchdog } from "./watchdog.ts"
import { measureWebBoard, WEB_CARDS, WEB_RUNS, type WebOutcome, webSection } from "./web.ts"
import { writeReport } from "./write-report.ts"
import { eventsOffScenarios, thinScenarios } from "./write-scenarios.ts"

// ---- main ------------------------------------------------------------------------------------

const main = async () => {
  const runStarted = Date.now()
  const { scenarioCount, limitSeconds } = startWatchdog()

  log(
    `benchmark${smokeRun ? " (smoke run: tiny data, figures meaningless)" : ""}: ${scenarioCount} scenarios, ${duration} s each after ${warmup} s warm-up, ${connections} connections; admin database ${redactUrl(adminUrl)}; time limit ${limitSeconds} s`
  )

  // the servers run the bundle in dist/: rebuilt first when a source changed since the last build,
  // as `pnpm start` and the test suite do, so no run measures yesterday's server
  execFileSync(process.execPath, [path.join(repoRoot, "scripts", "build.mjs"), "--if-stale"], { stdio: "inherit" })

  const database = await createBenchDatabase(adminUrl)
  cleanups.push({
    name: `drop database ${database.name}`,
    run: async () => {
      await database.drop()
      log(`dropped database ${database.name}`)
    }
  })
  log(`created database ${database.name}`)

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "board-bench-"))
  cleanups.push({ name: `remove ${dataDir}`, run: async () => fs.rmSync(dataDir, { recursive: true, force: true }) })

  const { origin, child: server } = await startBoardServer(
    "board server",
    { DATABASE_URL: database.url, DATA_DIR: dataDir },
    60_000
  )

  const { origin: helloOrigin, child: hello } = await startHelloServer("baseline server", "bench/hello-server.ts", "/")
  const { origin: frameworkOrigin, child: framework } = await startHelloServer(
    "framework server",
    "bench/effect-hello-server.ts",
    "/api/v1/health"
  )

  const { db, seeded, pgSettings, pgVersion, seedSeconds, intakeToken, forge, mcpSession } = await seedServer(
    origin,
    database
  )
  const rssAtStart = { server: readRss(server.pid), baseline: readRss(hello.pid) }

  // the move pool is made after the corpus grew (see seedMovePool): until then the move scenario has no cards
  let movePool: MovePool = { moveColumnIds: [], moveCardIds: [] }
  // the queue's backlog exists only around its scenario (see seedQueue)
  let queue = { projectId: "", columnId: "" }
  // the thin service's and pgbench's scenarios exist once their tables do, right before the main scenarios
  let thinTarget: ThinTarget = { apiKey: crypto.randomUUID(), createProject: seeded.createProject, readIds: [] }
  let floors: ReadonlyArray<FloorScenario> = []
  /** The selected scenarios among `ids`, in that order. */
  const phase = (ids: ReadonlyArray<string>) => {
    const targets = { ...seeded, ...movePool, intakeToken }
    const all = [
      ...scenarios({ ...targets, mcpSession, queue, forge }),
      ...eventsOffScenarios(targets),
      ...thinScenarios(thinTarget),
      ...floors
    ]
    return ids.filter(selected).flatMap((id) => all.filter((sc) => sc.id === id))
  }
  const rows: Array<Row> = []
  const processes: Partial<Record<HttpScenario["target"], { origin: string; child: Child }>> = {
    baseline: { origin: helloOrigin, child: hello },
    framework: { origin: frameworkOrigin, child: framework },
    server: { origin, child: server }
  }
  /** How `sc` is loaded, and the process under test (none for a floor: that is PostgreSQL itself). */
  const driverOf = (sc: Scenario): { drive: Drive; pid: number | undefined; origin: string | undefined } => {
    if (sc.target === "floor") return { drive: sc.drive, pid: undefined, origin: undefined }
    const target = processes[sc.target]
    if (target === undefined) throw new Error(`no process to load for ${sc.id}`)
    if (target.child.hasExited())
      throw new Error(`the ${target.child.name} exited during the benchmark:\n${target.child.output()}`)
    const drive: Drive = (seconds) =>
      runLoad({ ...sc.spec, origin: target.origin, connections: sc.connections, durationSeconds: seconds }).then(
        (result) => ({ result })
      )
    return { drive, pid: target.child.pid, origin: target.origin }
  }
  const run = async (sc: Scenario) => {
    if (server.hasExited()) throw new Error(`the board server exited during the benchmark:\n${server.output()}`)
    log(`running ${sc.label} (${sc.connections} connection${sc.connections === 1 ? "" : "s"})`)
    const { drive, pid, origin: target } = driverOf(sc)
    const bytes =
      sc.scale === undefined || target === undefined
        ? undefined
        : await responseBytes(target, sc.scale.probe, { "x-api-key": seeded.apiKey })
    const eventsOff = sc.id.endsWith("-events-off")
    if (eventsOff) for (const statement of EVENTS_OFF_SQL) await db.query(statement)
    let row: Row
    try {
      row = await measureSteady(sc, drive, pid)
    } finally {
      if (eventsOff) for (const statement of EVENTS_ON_SQL) await db.query(statement)
    }
    row = { ...row, ...(bytes !== undefined ? { responseBytes: bytes } : {}) }
    rows.push(row)
    const r = row.result
    log(
      `  ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, non-2xx ${r.non2xx}, errors ${r.errors}; server CPU ${row.cpu.server === undefined ? "–" : `${Math.round(row.cpu.server)}%`}, postgres CPU ${Math.round(row.cpu.postgres)}%, load generator CPU ${Math.round(row.cpu.loadGenerator)}%, RSS ${mib(row.rss)} MiB`
    )
  }
  const grow = async (to: number): Promise<CorpusStep> => {
    log(`growing the search corpus from ${count(seeded.corpus.size)} to ${count(to)} cards`)
    const step = await growCorpus(db, seeded.corpus, to)
    log(
      `  insert ${(step.insertMs / 1000).toFixed(1)} s, VACUUM ANALYZE ${(step.vacuumMs / 1000).toFixed(1)} s; ${count(step.allCards)} cards in the database; matches per query: ${step.hits.map((h) => `"${h.q}" ${h.matches}`).join(", ")}`
    )
    return step
  }

  // 1. the search corpus at its first size
  for (const sc of phase(["search-10k-cards"])) await run(sc)
  // 2. grown to the size the main scenarios read, then the main scenarios
  const mainStep = await grow(sizes.searchScale[1])
  const moveStarted = performance.now()
  movePool = await seedMovePool(makeApi(`${origin}/api`), seeded)
  const movePoolSeconds = (performance.now() - moveStarted) / 1000
  log(
    `  move pool: ${movePool.moveCardIds.length} cards over ${movePool.moveColumnIds.length} columns (${movePoolSeconds.toFixed(1)} s)`
  )
  const { boardBytes } = await smoke(origin, helloOrigin, seeded)
  for (const sc of phase(["baseline", "framework"])) await run(sc)
  // the floor: the thin service in its own tables, with as many card rows to read as the database holds cards;
  // stopped right after its scenarios, which drops its tables (autovacuum on its rows would run into the next scenario)
  const thinStarted = performance.now()
  const thinRows = await cardCount(db)
  log(`starting the thin service (its cards table filled with ${count(thinRows)} rows, as many as cards)`)
  const thin = await startHelloServer(
    "thin service",
    "bench/thin-server.ts",
    "/",
    {
      DATABASE_URL: database.url,
      THIN_API_KEY: thinTarget.apiKey,
      THIN_PREFIX: thinPrefix,
      THIN_SEED_ROWS: String(thinRows)
    },
    120_000
  )
  processes.thin = thin
  const readIds = await db.query<{ id: string }>(
    `SELECT id FROM ${thinPrefix}cards ORDER BY random() LIMIT ${seeded.boardCardIds.length}`
  )
  thinTarget = { ...thinTarget, readIds: readIds.map((r) => r.id) }
  const thinSeconds = (performance.now() - thinStarted) / 1000
  await thinSmoke(thin.origin, thinTarget)
  for (const sc of phase(thinIds)) await run(sc)
  if (thin.child.hasExited()) throw new Error(`the thin service exited during the benchmark:\n${thin.child.output()}`)
  await stopChild(thin.child)
  // PostgreSQL alone, for context: gone before the next scenario, as the thin service's tables are
  const floorTables = floorIds.some(selected) ? await makeFloorTables(db, database.url) : undefined
  if (floorTables !== undefined) {
    floors = floorTables.floors
    for (const sc of phase(floorIds)) await run(sc)
    await dropFloors(db)
  }
  for (const sc of phase(
    mainIds.filter(
      (id) => !alwaysIds.includes(id) && !(floorIds as ReadonlyArray<string>).includes(id) && id !== "claim-next"
    )
  )) {
    await run(sc)
    // the write-cost pair's other side right after it, on the same data
    for (const off of phase([`${sc.id}-events-off`])) await run(off)
  }
  // the streams: a second server on the same database reads what the first one writes
  const { streamLatency, streamMemory } = await runStreams({ database, dataDir, origin, seeded })
  // the web board in Chromium, on the server under test
  let web: WebOutcome | undefined
  if (selected("web-board")) {
    const webSize = smokeRun ? { cards: WEB_CARDS / 10, runs: 1 } : { cards: WEB_CARDS, runs: WEB_RUNS }
    log(`measuring the web board: ${count(webSize.cards)} cards, cold loads of /p/{id} in Chromium`)
    web = await measureWebBoard({ origin, api: makeApi(`${origin}/api`), log, ...webSize })
    log(`  ${webSection(web).split("\n").slice(2, 4).join("\n  ")}`)
  }
  // the work queue: a backlog made for it, every claim checked afterwards, the backlog removed
  let queueNote = "not measured in this run"
  if (selected("claim-next")) {
    queue = await seedQueue(makeApi(`${origin}/api`), db, seeded, queueCards)
    for (const sc of phase(["claim-next"])) await run(sc)
    const [claims] = await db.query<{ sessions: number; cards: number; twice: number }>(
      `SELECT count(*)::int AS sessions, count(DISTINCT card_id)::int AS cards,
         (SELECT count(*) FROM (SELECT card_id FROM agent_sessions WHERE project_id = $1 GROUP BY card_id HAVING count(*) > 1) d)::int AS twice
       FROM agent_sessions WHERE project_id = $1`,
      [queue.projectId]
    )
    if (claims === undefined || claims.twice > 0) {
      throw new Error(`claim-next claimed ${claims?.twice} cards twice (${claims?.sessions} sessions)`)
    }
    queueNote = `${claims.sessions.toLocaleString("en-US")} sessions on ${claims.cards.toLocaleString("en-US")} distinct cards of ${count(queueCards)}: no card claimed twice${claims.cards >= queueCards ? " (the backlog ran out: later calls answered 204)" : ""}`
    log(`  claim-next: ${queueNote}`)
    await db.query("DELETE FROM projects WHERE id = $1", [queue.projectId])
  }
  // 3. the other board sizes (their cards would have been searched in 2)
  let scaleBoardsMs: number | undefined
  const boardPhase = phase(["board-100-cards", "board-10000-cards"])
  if (boardPhase.length > 0) {
    log(`filling the scaling boards (${seeded.scaleBoards.map((b) => count(b.cards)).join(" and ")} cards)`)
    scaleBoardsMs = await fillScaleBoards(db, seeded)
    log(`  filled in ${(scaleBoardsMs / 1000).toFixed(1)} s`)
    for (const sc of boardPhase) await run(sc)
  }
  // 4. the corpus at its largest size
  let largeStep: CorpusStep | undefined
  const largePhase = phase(["search-1m-cards"])
  if (largePhase.length > 0) {
    largeStep = await grow(sizes.searchScale[2])
    for (const sc of largePhase) await run(sc)
  }
  if (server.hasExited()) throw new Error(`the board server exited during the benchmark:\n${server.output()}`)
  // 5. start-up and memory: fresh servers on the (migrated) database, the CLI against this server
  log("measuring start-up: board serve to healthy, board --help, --version, card show")
  const finalRss = readRss(server.pid)
  // the kernel's high-water mark: the highest RSS of the server since it started, seeding and every scenario included
  const peakRss = readPeakRss(server.pid)
  const probeCard = await fetch(`${origin}/api/v1/cards/${seeded.boardCardIds[0]}`, {
    headers: { "x-api-key": seeded.apiKey }
  }).then((r) => r.json() as Promise<{ ref: string }>)
  const startup = await measureStartup({
    repoRoot,
    serverEnv: {
      ...baseEnv,
      NODE_ENV: "production",
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "error",
      LOG_FORMAT: "json"
    },
    baseEnv,
    apiUrl: `${origin}/api`,
    apiKey: seeded.apiKey,
    cardRef: probeCard.ref,
    runs: smokeRun ? 1 : 5,
    idleMs: IDLE_MS,
    log
  })
  // 6. the write scenarios on the embedded database
  const embedded = embeddedIds.some(selected) ? await runEmbedded((p) => (processes.embedded = p), run) : undefined
  const inMiB = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / 1048576)
  const startupFigures: Figures = {
    serveMs: median(startup.serveMs),
    idleRssMiB: median(startup.idleRss) / 1048576,
    finalRssMiB: inMiB(finalRss),
    peakRssMiB: inMiB(peakRss),
    embeddedIdleRssMiB: inMiB(embedded?.idleRss),
    embeddedPeakRssMiB: inMiB(embedded?.peakRss),
    helpMs: median(startup.helpMs),
    cardShowMs: median(startup.cardShowMs)
  }

  // after the write scenarios: the board invariants still hold and the writes landed
  const invariantProblems = await checkInvariants(db)
  const created =
    (
      await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards WHERE column_id = $1`, [
        seeded.createProject.columnId
      ])
    )[0]?.n ?? 0
  const serverErrors = server.output().trim()

  // ---- report ----
  writeReport({
    runStarted,
    rows,
    database,
    pgSettings,
    pgVersion,
    seedSeconds,
    seeded,
    rssAtStart,
    mainStep,
    movePool,
    movePoolSeconds,
    boardBytes,
    thinRows,
    thinSeconds,
    thinTarget,
    floorTables,
    streamLatency,
    streamMemory,
    web,
    queueNote,
    scaleBoardsMs,
    largeStep,
    finalRss,
    peakRss,
    startup,
    embedded,
    startupFigures,
    invariantProblems,
    created,
    serverErrors
  })
}

let exitCode = 0
try {
  await main()
} catch (err) {
  log(`benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  exitCode = 1
} finally {
  await cleanup()
}
process.exit(exitCode)
