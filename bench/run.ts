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
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeApi } from "./api.ts"
import { seedForge } from "./forge.ts"
import {
  EVENTS_OFF_SQL,
  EVENTS_ON_SQL,
  type LatencyResult,
  eventsSection,
  measureStreamLatency,
  measureStreamMemory,
  type StreamMemoryResult
} from "./events.ts"
import { createBenchDatabase, openDb, redactUrl } from "./db.ts"
import { dropFloors, floorIds } from "./floors.ts"
import { type Drive, runLoad } from "./load.ts"
import { type Child, readPeakRss, readRss, stopChild } from "./processes.ts"
import { disturbedPct, errorSamples, figuresTable, resourceTable, type Row, thinIds } from "./report.ts"
import { scalingTable } from "./scaling-table.ts"
import type { Figures } from "./targets.ts"
import { targetsTable } from "./targets-table.ts"
import { embeddedTable, writesTable } from "./writes-table.ts"
import { type CorpusStep, growCorpus } from "./corpus.ts"
import {
  boardColumnCount,
  checkInvariants,
  fillScaleBoards,
  mintIntakeToken,
  type MovePool,
  seed,
  seedMovePool,
  seedQueue
} from "./seed.ts"
import { searchQueries } from "./words.ts"
import { count, log } from "./log.ts"
import {
  adminUrl,
  alwaysIds,
  connections,
  duration,
  embeddedIds,
  eventStreamIds,
  IDLE_MS,
  mainIds,
  only,
  outPath,
  queueCards,
  quick,
  quietBudgetSeconds,
  repoRoot,
  scalingIds,
  scenarioIds,
  selected,
  sizes,
  smokeRun,
  STREAMS_FOR_LATENCY,
  STREAMS_FOR_MEMORY,
  warmup,
  webIds
} from "./options.ts"
import { abort, cleanup, cleanups } from "./cleanup.ts"
import type { FloorScenario, HttpScenario, Scenario, ThinTarget } from "./scenario-types.ts"
import { scenarios } from "./scenarios.ts"
import { smoke, thinSmoke } from "./smoke.ts"
import { measureSteady, responseBytes } from "./measure.ts"
import { baseEnv, startBoardServer, startHelloServer } from "./servers.ts"
import { cardCount, makeFloorTables, thinPrefix } from "./floor-tables.ts"
import { runEmbedded } from "./embedded.ts"
import { eventsOffScenarios, thinScenarios } from "./write-scenarios.ts"
import { measureStartup, median, SERVER_NODE_FLAGS } from "./startup.ts"
import { measureWebBoard, WEB_CARDS, WEB_RUNS, type WebOutcome, webSection } from "./web.ts"

/** "100, 1,000 and 10,000" */
const sizeList = (ns: ReadonlyArray<number>) =>
  `${ns.slice(0, -1).map(count).join(", ")} and ${count(ns[ns.length - 1]!)}`

// ---- main ------------------------------------------------------------------------------------

const lastLines = (output: string) => output.split("\n").slice(-20).join("\n").slice(0, 4000)
const mib = (bytes: number | undefined) => (bytes === undefined ? "–" : (bytes / 1048576).toFixed(0))

const main = async () => {
  const runStarted = Date.now()
  // the watchdog: every selected scenario (with a possible re-measure inside the quiet budget),
  // start-up and seeding up to the 100,000-card corpus, the thin service's and pgbench's tables, the growth steps after
  // the main scenarios, and the embedded server's start-up and seeding through the API
  const scenarioCount = scenarioIds.filter(selected).length
  const growthSeconds =
    (selected("board-100-cards") || selected("board-10000-cards")
      ? Math.ceil((sizes.boardScale[2] / 1_000_000) * 300) + 30
      : 0) + (selected("search-1m-cards") ? Math.ceil((sizes.searchScale[2] / 1_000_000) * 600) + 30 : 0)
  const floorTablesSeconds = (floorIds.some(selected) ? 60 : 0) + 60
  const embeddedSeconds = embeddedIds.some(selected) ? 180 : 0
  // a second server's start, 200 paced writes with their delivery, 1,000 streams opened and probed
  const streamSeconds = eventStreamIds.some(selected) ? 120 : 0
  // 1,000 cards through the API, three cold loads of up to 30 s each
  const webSeconds = webIds.some(selected) ? 180 : 0
  const limitSeconds =
    scenarioCount * (duration + warmup + 16) +
    quietBudgetSeconds +
    300 +
    growthSeconds +
    floorTablesSeconds +
    embeddedSeconds +
    streamSeconds +
    webSeconds
  const watchdog = setTimeout(
    () => abort(`the benchmark exceeded its ${limitSeconds} s limit: cleaning up`, 1),
    limitSeconds * 1000
  )
  watchdog.unref()

  log(
    `benchmark${smokeRun ? " (smoke run: tiny data, figures meaningless)" : ""}: ${scenarioCount} scenarios, ${duration} s each after ${warmup} s warm-up, ${connections} connections; admin database ${redactUrl(adminUrl)}; time limit ${limitSeconds} s`
  )

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

  log("seeding")
  const seedStarted = performance.now()
  const db = await openDb(database.url)
  // a close waits for a running statement (the 1,000,000-card insert takes a minute): on an abort, give up after
  // 2 s and let DROP DATABASE … WITH (FORCE) end that backend
  cleanups.push({
    name: "close the seeding connection",
    run: () => Promise.race([db.close(), new Promise<void>((r) => setTimeout(r, 2_000).unref())])
  })
  const seeded = await seed(makeApi(`${origin}/api`), db, log, sizes)
  const problems = await checkInvariants(db)
  if (problems.length > 0) throw new Error(`seed broke an invariant:\n${problems.join("\n")}`)
  const pgSettings = (
    await db.query<{ v: string; fsync: string; commit: string; autovacuum: string }>(
      `SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS commit,
         current_setting('autovacuum') AS autovacuum`
    )
  )[0]
  const pgVersion = pgSettings?.v ?? ""
  const seedSeconds = (performance.now() - seedStarted) / 1000
  log(
    `  seeded in ${seedSeconds.toFixed(1)} s (${Object.entries(seeded.timings)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
      .join(", ")})`
  )
  const intakeToken = await mintIntakeToken(makeApi(`${origin}/api`), seeded)
  const forge = await seedForge(makeApi(`${origin}/api`), seeded.apiKey, seeded.boardProjectId, seeded.boardCardIds[0]!)
  // an MCP session for the tool-call scenario: initialize, then the initialized notification
  const mcpHeaders = {
    "x-api-key": seeded.apiKey,
    "content-type": "application/json",
    accept: "application/json, text/event-stream"
  }
  const init = await fetch(`${origin}/api/mcp`, {
    method: "POST",
    headers: mcpHeaders,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } }
    })
  })
  const mcpSession = init.headers.get("mcp-session-id") ?? ""
  await init.text()
  await fetch(`${origin}/api/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders, "mcp-session-id": mcpSession, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
  }).then((r) => r.text())
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
  let streamLatency: LatencyResult | undefined
  let streamMemory: StreamMemoryResult | undefined
  if (eventStreamIds.some(selected)) {
    const reader = await startBoardServer(
      "second board server",
      { DATABASE_URL: database.url, DATA_DIR: dataDir },
      60_000
    )
    const streamTarget = {
      apiKey: seeded.apiKey,
      projectId: seeded.createProject.id,
      columnId: seeded.createProject.columnId
    }
    if (selected("events-latency")) {
      log(`measuring stream latency: ${STREAMS_FOR_LATENCY} streams on the second server, cards created on the first`)
      streamLatency = await measureStreamLatency({
        ...streamTarget,
        writer: origin,
        reader: reader.origin,
        streams: STREAMS_FOR_LATENCY,
        events: smokeRun ? 20 : 200,
        intervalMs: 20
      })
      log(
        `  p50 ${streamLatency.p50.toFixed(1)} ms, p99 ${streamLatency.p99.toFixed(1)} ms, max ${streamLatency.max.toFixed(1)} ms; missing ${streamLatency.missing}, duplicates ${streamLatency.duplicates}, out of order ${streamLatency.outOfOrder}`
      )
    }
    if (selected("events-memory")) {
      log(`measuring ${STREAMS_FOR_MEMORY} open streams on the second server`)
      streamMemory = await measureStreamMemory({
        ...streamTarget,
        origin: reader.origin,
        readRss: () => readRss(reader.child.pid),
        streams: STREAMS_FOR_MEMORY,
        settleMs: smokeRun ? { before: 100, after: 300 } : undefined
      })
      log(
        `  RSS ${mib(streamMemory.rssBefore)} → ${mib(streamMemory.rssAfter)} MiB; the probe event reached ${streamMemory.reached} streams`
      )
    }
    if (reader.child.hasExited()) throw new Error(`the second board server exited:\n${reader.child.output()}`)
    await stopChild(reader.child)
  }
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
  const baseline = rows.find((r) => r.id === "baseline")!
  const mainRows = rows.filter((r) => (mainIds as ReadonlyArray<string>).includes(r.id))
  const scalingRows = scalingIds
    .map((id) => rows.find((r) => r.id === id))
    .filter((r): r is Row => r !== undefined && !(mainIds as ReadonlyArray<string>).includes(r.id))
  const embeddedRows = rows.filter((r) => embeddedIds.includes(r.id))
  const cpus = os.cpus()
  const figures = figuresTable(mainRows, baseline)
  const { table: targetTable, misses } = targetsTable(
    [...mainRows, ...scalingRows],
    baseline,
    cpus.length,
    startupFigures
  )
  const msList = (xs: ReadonlyArray<number>) => xs.map((x) => x.toFixed(0)).join(", ")
  const startupTable = [
    "| what | median | every run |",
    "| --- | ---: | --- |",
    `| \`board serve\` to healthy (process start to the first 200 from /api/v1/health), ms | ${median(startup.serveMs).toFixed(0)} | ${msList(startup.serveMs)} |`,
    `| RSS of that server 2 s after healthy (idle, on PostgreSQL), MiB | ${(median(startup.idleRss) / 1048576).toFixed(0)} | ${startup.idleRss.map((b) => (b / 1048576).toFixed(0)).join(", ")} |`,
    `| RSS of the benchmark's server after every PostgreSQL scenario, MiB | ${mib(finalRss)} | |`,
    `| highest RSS of the benchmark's server across the run (VmHWM, seeding included), on PostgreSQL, MiB | ${mib(peakRss)} | |`,
    `| RSS of the embedded database's benchmark server 2 s after healthy (idle, before seeding), MiB | ${mib(embedded?.idleRss)} | |`,
    `| highest RSS of the embedded database's benchmark server across its run (VmHWM), MiB | ${mib(embedded?.peakRss)} | |`,
    `| \`board --help\`, ms | ${median(startup.helpMs).toFixed(0)} | ${msList(startup.helpMs)} |`,
    `| \`board --version\`, ms | ${median(startup.versionMs).toFixed(0)} | ${msList(startup.versionMs)} |`,
    `| \`board card show ${startup.cardRef}\` against the benchmark's server, ms | ${median(startup.cardShowMs).toFixed(0)} | ${msList(startup.cardShowMs)} |`
  ].join("\n")
  const writes = writesTable(mainRows, connections)
  const rpsOf = (id: string) => {
    const row = rows.find((r) => r.id === id)
    return row === undefined ? undefined : { rps: row.result.rps }
  }
  const events = eventsSection({
    pairs: (["create", "move"] as const).map((id) => ({
      label: rows.find((r) => r.id === id)?.label ?? id,
      on: rpsOf(id),
      off: rpsOf(`${id}-events-off`)
    })),
    latency: streamLatency,
    memory: streamMemory
  })
  const embeddedWrites =
    embedded === undefined
      ? "Not measured in this run (see BENCH_ONLY)."
      : embeddedTable([...mainRows, ...embeddedRows], connections)
  const boardScaling = scalingTable(rows, "board", sizes.boardScale)
  const searchScaling = scalingTable(rows, "search", sizes.searchScale)
  const resources = resourceTable([...mainRows, ...scalingRows, ...embeddedRows])
  const floorDriver =
    floorTables === undefined
      ? "not run (see BENCH_ONLY)"
      : floorTables.pgbench === undefined
        ? `a loop of the same statements over @effect/sql-pg (${connections} pooled connections in this process), as pgbench was not on PATH`
        : `\`pgbench -n -M prepared -c ${connections} -j 2 -T ${duration}\`${warmup > 0 ? ` (after a ${warmup} s run of its own as warm-up)` : ""}`
  const command = `${[
    process.env.BENCH_DURATION !== undefined && !quick && !smokeRun
      ? `BENCH_DURATION=${process.env.BENCH_DURATION}`
      : "",
    process.env.BENCH_WARMUP !== undefined && !smokeRun ? `BENCH_WARMUP=${process.env.BENCH_WARMUP}` : "",
    process.env.BENCH_CONNECTIONS !== undefined ? `BENCH_CONNECTIONS=${process.env.BENCH_CONNECTIONS}` : "",
    only !== undefined ? `BENCH_ONLY=${only.join(",")}` : "",
    process.env.BENCH_QUIET_WAIT !== undefined && !smokeRun ? `BENCH_QUIET_WAIT=${process.env.BENCH_QUIET_WAIT}` : "",
    process.env.BENCH_DATABASE_URL !== undefined
      ? `BENCH_DATABASE_URL=${redactUrl(process.env.BENCH_DATABASE_URL)}`
      : ""
  ]
    .filter((s) => s !== "")
    .join(" ")} npx -y pnpm@10 bench${quick ? " --quick" : ""}${smokeRun ? " --smoke" : ""}`.trim()
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
  const steps: Array<{ step: CorpusStep; when: string }> = [
    {
      step: seeded.firstCorpusStep,
      when: `seeded with the rest of the data${selected("search-10k-cards") ? "; measured by `search-10k-cards` before the main scenarios" : ""}`
    },
    {
      step: mainStep,
      when: "grown in place before the main scenarios, which all read this state (`search`, `search-1`)"
    },
    ...(largeStep !== undefined
      ? [{ step: largeStep, when: "grown in place after every other scenario; measured by `search-1m-cards`" }]
      : [])
  ]
  const matchRange = (step: CorpusStep) => {
    const n = step.hits.map((h) => h.matches)
    return `${Math.min(...n)}–${Math.max(...n)} at ${count(step.cards)}`
  }
  const corpusTable = [
    "| corpus cards | cards in the database | insert | VACUUM ANALYZE | cards matching each query | when |",
    "| ---: | ---: | ---: | ---: | --- | --- |",
    ...steps.map(
      ({ step, when }) =>
        `| ${count(step.cards)} | ${count(step.allCards)} | ${seconds(step.insertMs)} | ${seconds(step.vacuumMs)} | ${step.hits.map((h) => `"${h.q}" ${h.matches}`).join(", ")} | ${when} |`
    )
  ].join("\n")
  const md = `# Benchmarks

Generated by \`bench/run.ts\`; do not edit by hand, re-run instead.
${smokeRun ? "\n**Smoke run** (`--smoke`): tiny data (search corpora ÷100, boards ÷10; scenario ids keep their full-size names), no warm-up, 0.25 s per scenario. It checks that every scenario works; its figures mean nothing.\n" : ""}
- **Date**: ${new Date(runStarted).toISOString()}
- **Command**: \`${command}\` (from the repository root)
- **Machine**: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown CPU"}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}
- **Node**: ${process.version} (server, baseline and load generator)
- **PostgreSQL**: ${pgVersion} on the same machine (\`${redactUrl(adminUrl)}\`, fresh database \`${database.name}\`, dropped after the run; fsync ${pgSettings?.fsync}, synchronous_commit ${pgSettings?.commit}, autovacuum ${pgSettings?.autovacuum}${pgSettings?.autovacuum === "off" ? ": dead rows pile up in card_order_counts, whose folds delete and insert rows on every write, and every create's position sum scans their index entries" : ""})
- **Load**: autocannon, ${connections} connections (rows with 1 in the conns column, and every scaling row, use 1), ${warmup} s warm-up then ${duration} s measured per scenario, keep-alive, no pipelining.
  The floor (issue 35; its figures were taken at 5 s after a 1 s warm-up: \`BENCH_DURATION=5 BENCH_WARMUP=1\`): the thin service, loaded like every scenario, right after the baseline; then PostgreSQL alone: ${floorDriver}.
  Load generator, server, baseline and PostgreSQL share the same ${cpus.length} cores. Before each scenario the run waits (up to ${quietBudgetSeconds} s in total) until other processes use less than 15% of a core.
- **Server**: \`node ${SERVER_NODE_FLAGS.join(" ")} bin/board.mjs serve\` (as \`pnpm start\` runs it) with \`LOG_LEVEL=error RATE_LIMIT=100000000/60s NODE_ENV=production\`; baseline: \`bench/hello-server.ts\` (bare \`node:http\` answering \`{"status":"ok"}\`), also a child process;
  framework: \`bench/effect-hello-server.ts\` (an Effect HttpApi with one health endpoint and no middleware: the ceiling our health row can reach);
  thin service: \`bench/thin-server.ts\`, the thinnest service anyone could hand-write doing a create's durable work: bare \`node:http\` and \`pg\` (node-postgres, a pool of 20), the key compared in memory, no framework, no validation beyond JSON parsing, no access rule.
  \`POST /cards\` inserts the card row (uuid key, project, column, title, description, created time; B-tree indexes on column and on project) and its event row (bigserial key, project, card, type, the card's JSON; indexes on (project, id) and (card, id)) in one statement, one CTE, and answers the row with 201;
  \`GET /cards/{id}\` answers one row by primary key. Its tables were filled with ${count(thinRows)} card rows (as many as cards in the database) and vacuumed at its start (${thinSeconds.toFixed(1)} s), and dropped right after its two scenarios.
  The embedded database's rows: a second \`bin/board.mjs serve\`, the same but with no DATABASE_URL and a fresh temporary DATA_DIR, started after every PostgreSQL row.

## Results

${figures}

Requests/s counts every response in the measured window; p50/p99 are per-response latencies measured by the load generator (all statuses).
"ratio to baseline" is requests/s over the baseline row. "ratio to floor" is requests/s over the thin service's create for the writes (POST /v1/cards, intake, move), over its read by id for GET /v1/cards/{id}.
"server µs/req" and "PostgreSQL µs/req" are CPU time per response over the measured window (PostgreSQL sums all its processes). "server RSS" is VmRSS of the process under test right after the scenario
(before the first scenario, after seeding: board server ${mib(rssAtStart.server)} MiB, baseline ${mib(rssAtStart.baseline)} MiB).
A † marks a run during which other processes on the machine used more than ${disturbedPct}% of a core (see "everything else" below); such runs are measured again while the waiting budget lasts and the cleanest is kept.
The two "PostgreSQL alone" rows have no HTTP and no server, so no RSS; their latencies are pgbench's per transaction. They say how much of the thin service's cost is the database's (the INSERT writes no event row).

## Targets

${targetTable}

${misses.length === 0 ? "All targets met." : `Missed: ${misses.join("; ")}. The CPU table below shows where the time goes (CPU per request of the server and of PostgreSQL). The load generator, the server and PostgreSQL share ${cpus.length} cores, and a closed loop of ${connections} connections has a mean latency of ${connections} ÷ requests/s (Little's law), so a p99 target at ${connections} connections is a throughput target in disguise; the 1-connection rows give the latency of the same requests without queueing.`}

## Start-up and memory

Each a fresh process of the project's Node running \`bin/board.mjs\` (the bundle the install builds), never through npx; the CLI runs use BOARD_API_URL and BOARD_API_KEY and
are timed after one unmeasured run (which fills Node's compile cache, as any earlier use of the command would). The probe servers run on the benchmark's database, already migrated, after every PostgreSQL scenario.

${startupTable}

## Writes

POST /v1/cards, POST /v1/intake and POST /v1/cards/{id}/move on PostgreSQL at ${connections} connections and at 1 (the 1-connection move moves one card of the pool around).
"scale-up" is the first rate over the second: a write that holds no lock across its commit lets concurrent commits overlap instead of queueing.
"÷ thin create" is over the thin service's create (see Server above), the floor: the same JSON body, the card and its event row in one statement, at the same load.
${
  floorTables === undefined
    ? "PostgreSQL alone did not run (see BENCH_ONLY)."
    : `PostgreSQL alone, for context: pgbench's INSERT of one row per transaction into a card-shaped table (uuid key from gen_random_uuid(), project, column, numeric order key, title, created_at, and B-tree indexes on (column_id, sort_key) and (project_id)), ${connections} connections, one column, a random key per row, no event row;
its primary-key SELECT reads one row by a random integer key from a table of ${count(floorTables.selectRows)} card-like rows (as many as cards in the database then). Both tables are dropped right after they run.`
}
CPU columns are per response over the measured window; pgbench's PostgreSQL µs is per inserted row, sampled every 0.2 s while its backends live (they exit with pgbench), so up to 0.2 s of it may be missed.

${writes}

## Events

Every write logs its event in its own statement or transaction (issue 18). The write-cost pairs run each write scenario again right after itself, at ${connections} connections, while a
BEFORE INSERT trigger drops the event rows: the statements still build each event (its JSON and actor), but no row, index entry, WAL record or webhook fan-out is written, so the ratio is what storing the events costs.
Stream latency: ${STREAMS_FOR_LATENCY} streams (\`GET /api/v1/projects/{id}/events/stream\`) held on a second \`board serve\` on the same database, cards created on the first one at one connection, 50 a second; a frame's latency runs from the create's request leaving the load generator (an upper bound of "committed → frame").
Memory: ${STREAMS_FOR_MEMORY.toLocaleString("en-US")} streams opened on that second server; RSS before they connect and 3 s after the last did.

${events}

## Web board

\`/p/{projectId}\` of a project of ${count(smokeRun ? WEB_CARDS / 10 : WEB_CARDS)} cards (seeded through the API over the kanban template's columns) opened in Chromium (Debian's, headless, through playwright-core) on the same machine as the server,
signed in through the cookie login, each load in a fresh browser context (empty cache: a first visit). Time from navigation start to the \`board-interactive\` performance mark the board sets when its
columns and cards are rendered and drag and drop is ready. The JavaScript weight sums every script the page loaded (modulepreloads included), gzip as fetched again with only gzip accepted.

${webSection(web)}

## Embedded database (PGlite, DATA_DIR)

The same write scenarios against the embedded database: PGlite inside the server process, reached over one socket connection, so "server µs/req" includes the database's work and there is no floor (the thin service and pgbench need PostgreSQL).
${embedded === undefined ? "" : `Seeded through the API like the PostgreSQL server (signup, workspace, kanban project, API key, intake token, a ${embedded.moveCards}-card move pool) in ${embedded.seedSeconds.toFixed(1)} s. "÷ PostgreSQL" is over the same scenario's rate in the Writes table.\n`}
${embeddedWrites}

## Scaling: board size

GET /api/v1/board/{id} on boards of ${sizeList(sizes.boardScale)} cards (${boardColumnCount} columns each), 1 connection: the cost of one request without queueing.

${boardScaling}

## Scaling: search corpus

GET /api/v1/search?q= over a corpus of ${sizeList(sizes.searchScale)} cards, the same ${searchQueries.length} queries rotating per request, 1 connection.
Every answer holds at most 50 cards, but the cards matching a query grow with the corpus (${steps.map(({ step }) => matchRange(step)).join(", ")}): PostgreSQL finds and sorts them all to return the first 50.

${searchScaling}

In both tables "server µs/req" and "PostgreSQL µs/req" are CPU time per response over the measured window, "response KiB" is the size of one answer's JSON body (the mean over the rotated queries for search), and
"data ×", "p50 ×" and "CPU/req ×" compare each size with the smallest measured one ("CPU/req" is server plus PostgreSQL). The ${count(sizes.board)}-card board and the ${count(sizes.searchScale[1])}-card corpus are the \`board-1\` and \`search-1\` rows of the results above.
A † marks a disturbed run, as above. \`BENCH_ONLY=scaling\` runs just these rows (and the baseline).

## CPU during each measured run

${resources}

CPU time over the measured window, in % of one core (100% = one core fully busy; the machine has ${cpus.length * 100}%). PostgreSQL sums all its processes.
For "PostgreSQL alone" the load generator includes pgbench and there is no process under test but PostgreSQL; for the thin service's rows the process under test is the thin service; for the embedded rows it holds the database too.
"everything else" is the whole machine minus the three: kernel work not charged to them and any other process running meanwhile (a large value means the run was disturbed).

## Data

- ${count(sizes.board)}-card board: one project, ${boardColumnCount} columns of ${sizes.board / boardColumnCount} cards (${(boardBytes / 1024).toFixed(0)} KiB of JSON per response).
- Search corpus: one kanban project grown in place (card i is the same at every size), titles like "Card 12345 fix login timeout" (12 verbs × 40 areas × 40 problems), descriptions with four code words from 8,000.
  Each size is a bulk INSERT … SELECT over generate_series continuing the ref numbers and order keys, then VACUUM ANALYZE; search looks at every card of the workspace, hence the database total.
  Queries rotate per request; cards matching each at ${count(mainStep.cards)} cards (the API returns at most 50): ${mainStep.hits.map((h) => `"${h.q}" ${h.matches}`).join(", ")}.

${corpusTable}

- Scaling boards: ${seeded.scaleBoards.map((b) => `${count(b.cards)}`).join(" and ")} cards in projects of ${boardColumnCount} columns made at seeding, their cards inserted in SQL after the main scenarios (search would otherwise count them) then VACUUM ANALYZE cards: ${scaleBoardsMs === undefined ? "not seeded in this run" : seconds(scaleBoardsMs)}.
- GET /v1/cards/{id} rotates over the ${count(sizes.board)} board cards. POST /v1/cards appends to one column of a kanban project (${created.toLocaleString("en-US")} cards there after the run).
  The move pool is ${movePool.moveCardIds.length} cards over 3 columns, made through the API after the corpus reached ${count(mainStep.cards)} cards (${movePoolSeconds.toFixed(1)} s); each connection moves its own card to the next column at position 0–3.
- claim-next (\`{columnId, ttlSeconds}\`) takes cards from a ${count(queueCards)}-card To Do column of mixed priorities, inserted in SQL after the other main scenarios and deleted after it: ${queueNote}.
- The thin service read ${count(thinTarget.readIds.length)} of its rows, picked at random and rotating per request (as GET /v1/cards/{id} rotates over the board's cards).
${floorTables === undefined ? "" : `- pgbench's tables were created and the SELECT one filled with ${count(floorTables.selectRows)} rows and vacuumed in ${floorTables.seconds.toFixed(1)} s, after the thin service's scenarios.\n`}
- Seeding took ${seedSeconds.toFixed(1)} s before the first scenario (signup through the API, bulk cards in SQL with the corpus at ${count(seeded.firstCorpusStep.cards)} cards, then VACUUM ANALYZE: like autovacuum would, it also flushes the GIN pending lists the bulk insert leaves in the trigram indexes; without it each search scans them and costs about 4× more in PostgreSQL),
  then ${seconds(mainStep.insertMs + mainStep.vacuumMs)} to grow the corpus to ${count(mainStep.cards)} cards${largeStep === undefined ? "" : ` and ${seconds(largeStep.insertMs + largeStep.vacuumMs)} to grow it to ${count(largeStep.cards)}`}. The whole run took ${((Date.now() - runStarted) / 1000).toFixed(0)} s.

## Errors and invariants

${errorSamples(rows)}

${invariantProblems.length === 0 ? "After the write scenarios every column's order keys are distinct, every project's refs are distinct and its ref sequence is past its largest ref." : `Invariant problems after the run:\n${invariantProblems.map((p) => `- ${p}`).join("\n")}`}
${serverErrors === "" ? "\nThe server wrote nothing at LOG_LEVEL=error during the run." : `\nServer output at LOG_LEVEL=error (last lines):\n\n\`\`\`\n${lastLines(serverErrors)}\n\`\`\``}
${embedded === undefined ? "" : embedded.output === "" ? "\nThe embedded database's server wrote nothing at LOG_LEVEL=error during its run.\n" : `\nThe embedded database's server output at LOG_LEVEL=error (last lines):\n\n\`\`\`\n${lastLines(embedded.output)}\n\`\`\`\n`}`
  fs.writeFileSync(outPath, md)

  process.stdout.write(
    `\n${figures}\n\n${targetTable}\n\n${startupTable}\n\n${writes}\n\n${events}\n\n${webSection(web)}\n\n${embeddedWrites}\n\n${boardScaling}\n\n${searchScaling}\n\n${resources}\n\n${errorSamples(rows)}\n\nwrote ${outPath} (${((Date.now() - runStarted) / 1000).toFixed(0)} s)\n`
  )
  if (invariantProblems.length > 0) log(`invariant problems after the run:\n${invariantProblems.join("\n")}`)
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
