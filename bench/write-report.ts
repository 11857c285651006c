/**
 * The report: every table and note of BENCHMARKS.md (or BENCH_OUT) written from what the run
 * measured, and its tables again on stdout; the invariant problems, if any, on the log.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import type { CorpusStep } from "./corpus.ts"
import { type BenchDatabase, redactUrl } from "./db.ts"
import type { runEmbedded } from "./embedded.ts"
import { eventsSection, type LatencyResult, type StreamMemoryResult } from "./events.ts"
import type { makeFloorTables } from "./floor-tables.ts"
import { count, log, mib } from "./log.ts"
import {
  adminUrl,
  connections,
  duration,
  embeddedIds,
  mainIds,
  only,
  outPath,
  queueCards,
  quick,
  quietBudgetSeconds,
  scalingIds,
  selected,
  sizes,
  smokeRun,
  STREAMS_FOR_LATENCY,
  STREAMS_FOR_MEMORY,
  warmup
} from "./options.ts"
import { disturbedPct, errorSamples, figuresTable, resourceTable, type Row } from "./report.ts"
import { scalingTable } from "./scaling-table.ts"
import type { ThinTarget } from "./scenario-types.ts"
import { boardColumnCount, type MovePool, type Seeded } from "./seed.ts"
import { median, SERVER_NODE_FLAGS, type StartupFigures } from "./startup.ts"
import type { Figures } from "./targets.ts"
import { targetsTable } from "./targets-table.ts"
import { WEB_CARDS, type WebOutcome, webSection } from "./web.ts"
import { searchQueries } from "./words.ts"
import { embeddedTable, writesTable } from "./writes-table.ts"

/** "100, 1,000 and 10,000" */
const sizeList = (ns: ReadonlyArray<number>) =>
  `${ns.slice(0, -1).map(count).join(", ")} and ${count(ns[ns.length - 1]!)}`
const lastLines = (output: string) => output.split("\n").slice(-20).join("\n").slice(0, 4000)

/** What the report is written from: the rows and figures measured, and how the run went. */
export interface ReportInput {
  /** Date.now() at the start of the run. */
  readonly runStarted: number
  readonly rows: ReadonlyArray<Row>
  readonly database: BenchDatabase
  readonly pgSettings: { v: string; fsync: string; commit: string; autovacuum: string } | undefined
  readonly pgVersion: string
  readonly seedSeconds: number
  readonly seeded: Seeded
  readonly rssAtStart: { readonly server: number | undefined; readonly baseline: number | undefined }
  readonly mainStep: CorpusStep
  readonly movePool: MovePool
  readonly movePoolSeconds: number
  readonly boardBytes: number
  readonly thinRows: number
  readonly thinSeconds: number
  readonly thinTarget: ThinTarget
  readonly floorTables: Awaited<ReturnType<typeof makeFloorTables>> | undefined
  readonly streamLatency: LatencyResult | undefined
  readonly streamMemory: StreamMemoryResult | undefined
  readonly web: WebOutcome | undefined
  readonly queueNote: string
  readonly scaleBoardsMs: number | undefined
  readonly largeStep: CorpusStep | undefined
  readonly finalRss: number | undefined
  readonly peakRss: number | undefined
  readonly startup: StartupFigures
  readonly embedded: Awaited<ReturnType<typeof runEmbedded>> | undefined
  readonly startupFigures: Figures
  readonly invariantProblems: ReadonlyArray<string>
  readonly created: number
  readonly serverErrors: string
}

/** Writes the report to BENCH_OUT (BENCHMARKS.md by default) and its tables to stdout. */
export const writeReport = (input: ReportInput): void => {
  const {
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
  } = input
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
