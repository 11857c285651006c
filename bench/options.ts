/**
 * The run's options, read once at start: the command line (--quick, --smoke), the BENCH_*
 * environment with its defaults and limits, what follows from them (durations, sizes, stream
 * counts, the report's path), and every scenario id with the groups BENCH_ONLY accepts; a bad
 * argument or value, or a Node older than 24, ends the run here with the usage.
 */
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { floorIds } from "./floors.ts"
import { log } from "./log.ts"
import { thinIds, writeIds } from "./report.ts"
import { fullSizes, smokeSizes } from "./seed.ts"

export const repoRoot = fileURLToPath(new URL("../", import.meta.url))

/** Every scenario id, in the order they run within their phase; `scaling`, `writes` and `embedded` name groups of them. */
export const mainIds = [
  "baseline",
  "framework",
  ...thinIds,
  ...floorIds,
  "health",
  "card",
  "board",
  "board-1",
  "search",
  "search-1",
  "create",
  "create-1",
  "intake",
  "intake-1",
  "link",
  "link-1",
  "mcp",
  "move",
  "move-1",
  "claim-next",
  "forge",
  "forge-1"
] as const
const scalingOnlyIds = ["search-10k-cards", "board-100-cards", "board-10000-cards", "search-1m-cards"] as const
/**
 * The event benchmarks (issue 18): each write scenario again right after itself with the event rows
 * dropped at insert (the write-cost pairs), then stream latency across two servers and the memory
 * of many open streams (bench/events.ts).
 */
const eventWriteIds = ["create-events-off", "move-events-off"] as const
export const eventStreamIds = ["events-latency", "events-memory"] as const
/** The web board's page in Chromium (issue 21, bench/web.ts): time to interactive and JavaScript weight. */
export const webIds = ["web-board"] as const
/** The write scenarios again, on the embedded database, in the order they run. */
export const embeddedIds = writeIds.flatMap((id) => [`embedded-${id}`, `embedded-${id}-1`])
export const scenarioIds: ReadonlyArray<string> = [
  ...mainIds,
  ...eventWriteIds,
  ...eventStreamIds,
  ...webIds,
  ...scalingOnlyIds,
  ...embeddedIds
]
/** Run whatever BENCH_ONLY says: the ratios of the report are to them. */
export const alwaysIds: ReadonlyArray<string> = ["baseline", "framework", ...thinIds]
const groups: Record<string, ReadonlyArray<string>> = {
  /** The scaling tables' rows: the two 1-connection main rows give the middle sizes. */
  scaling: ["board-100-cards", "board-1", "board-10000-cards", "search-10k-cards", "search-1", "search-1m-cards"],
  writes: writeIds.flatMap((id) => [id, `${id}-1`]),
  embedded: embeddedIds,
  events: ["create", "move", ...eventWriteIds, ...eventStreamIds],
  web: webIds
}
export const scalingIds = groups.scaling!

const usage = `usage: npx -y pnpm@10 bench [--quick | --smoke]
  --quick   3 s per scenario
  --smoke   0.25 s per scenario on tiny data, no warm-up: checks the run end to end (writes BENCH_OUT, default a temp file)
env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default 50), BENCH_DATABASE_URL,
     BENCH_QUIET_WAIT (s, default 120), BENCH_OUT (report path, default BENCHMARKS.md),
     BENCH_ONLY (comma-separated: ${scenarioIds.filter((id) => !alwaysIds.includes(id)).join(",")};
${Object.entries(groups)
  .map(([name, ids]) => `                 ${name} = ${ids.join(",")};`)
  .join("\n")}
                 ${alwaysIds.join(", ")} always run)
PostgreSQL alone (floor-insert, floor-select) runs pgbench from PATH, or a query loop over @effect/sql-pg without it`

const args = process.argv.slice(2)
for (const a of args) {
  if (a !== "--quick" && a !== "--smoke" && a !== "--help") {
    log(`unknown argument ${a}\n${usage}`)
    process.exit(2)
  }
}
if (args.includes("--help")) {
  log(usage)
  process.exit(0)
}
export const quick = args.includes("--quick")
export const smokeRun = args.includes("--smoke")
if (quick && smokeRun) {
  log(`--quick and --smoke exclude each other\n${usage}`)
  process.exit(2)
}
export const sizes = smokeRun ? smokeSizes : fullSizes
/** The work queue's backlog (claim-next). */
export const queueCards = smokeRun ? 100 : 10_000
/** Streams of the two stream benchmarks; a smoke run only checks that they work. */
export const STREAMS_FOR_LATENCY = smokeRun ? 10 : 100
export const STREAMS_FOR_MEMORY = smokeRun ? 50 : 1_000
/** A server's idle RSS is read this long after its first 200 (a smoke run's figures mean nothing: it waits less). */
export const IDLE_MS = smokeRun ? 200 : 2_000
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
// a smoke run proves each scenario answers, it measures nothing: a quarter second of load is enough
export const duration = smokeRun ? 0.25 : quick ? 3 : positiveInt("BENCH_DURATION", 10, 120)
export const warmup = smokeRun ? 0 : quick ? 2 : positiveInt("BENCH_WARMUP", 2, 60)
export const connections = positiveInt("BENCH_CONNECTIONS", 50, 1000)
export const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
/** Seconds the whole run may spend waiting for other processes to leave the CPU before a scenario (none in a smoke run). */
export const quietBudgetSeconds = smokeRun
  ? 0
  : process.env.BENCH_QUIET_WAIT === undefined
    ? 120
    : Number(process.env.BENCH_QUIET_WAIT)
if (!Number.isFinite(quietBudgetSeconds) || quietBudgetSeconds < 0 || quietBudgetSeconds > 3600) {
  log(`BENCH_QUIET_WAIT must be a number of seconds from 0 to 3600`)
  process.exit(2)
}
/** BENCH_ONLY=id,id runs only those scenarios (and the baseline, the framework and the thin service), for investigating one. */
export const only = process.env.BENCH_ONLY?.split(",")
  .map((s) => s.trim())
  .filter((s) => s !== "")
for (const id of only ?? []) {
  if (!Object.hasOwn(groups, id) && !scenarioIds.includes(id)) {
    log(`BENCH_ONLY: unknown scenario id ${JSON.stringify(id)}\n${usage}`)
    process.exit(2)
  }
}
export const selected = (id: string) =>
  only === undefined ||
  alwaysIds.includes(id) ||
  only.includes(id) ||
  Object.entries(groups).some(([name, ids]) => only.includes(name) && ids.includes(id))
/** Where the report goes: BENCH_OUT, else BENCHMARKS.md (a smoke run never overwrites BENCHMARKS.md by default). */
export const outPath =
  process.env.BENCH_OUT !== undefined && process.env.BENCH_OUT !== ""
    ? path.resolve(process.env.BENCH_OUT)
    : smokeRun
      ? path.join(os.tmpdir(), `board-bench-smoke-${process.pid}.md`)
      : path.join(repoRoot, "BENCHMARKS.md")

const [nodeMajor] = process.versions.node.split(".").map(Number)
if (nodeMajor! < 24) {
  log(`the benchmark needs the project's Node 24 (this is ${process.versions.node}); run it as: npx -y pnpm@10 bench`)
  process.exit(2)
}
