/**
 * `pnpm bench --smoke` end to end: the whole benchmark (server, baseline, the PostgreSQL floors,
 * seeding, every scenario, the scaling runs, the writes on the embedded database, the report) on
 * tiny data with 0.25 s per scenario, so a change that breaks a scenario or the report is caught by
 * the test suite rather than by the next full run. It checks that the run works and every request
 * answered 2xx, never the figures.
 *
 * Needs PostgreSQL: the bench creates its own `board_bench_*` database on the server of
 * DATABASE_URL (connecting as DATABASE_URL, like test/support/backends.ts) and drops it. The
 * thin service (bench/thin-server.ts), the floor of the writes and the card read, answers a few
 * checked requests, then runs its two scenarios like every other. PostgreSQL alone uses pgbench
 * when it is on PATH and a driver loop otherwise: both labels are accepted.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { postgresUrl } from "./support/backends.ts"
import { repoRoot } from "./support/spawn.ts"

let outDir: string | undefined
afterAll(() => {
  if (outDir !== undefined) fs.rmSync(outDir, { recursive: true, force: true })
})

/** Rows of the markdown tables in the section headed `## title`, as trimmed cells. */
const tableRows = (md: string, title: string): Array<Array<string>> => {
  const start = md.indexOf(`\n## ${title}\n`)
  if (start < 0) return []
  const end = md.indexOf("\n## ", start + 1)
  return md
    .slice(start, end < 0 ? undefined : end)
    .split("\n")
    .filter(
      (line) => line.startsWith("| ") && !line.startsWith("| ---") && !/^\| (scenario|cards|target|what) \|/.test(line)
    )
    .map((line) =>
      line
        .slice(1, -1)
        .split(" | ")
        .map((cell) => cell.trim())
    )
}

const thinCreate = /^thin service: create \(POST \/cards, card \+ event row in one statement\)$/
const thinRead = /^thin service: read by id \(GET \/cards\/\{id\}\)$/
const insertFloor = /^PostgreSQL alone: (pgbench )?INSERT \(card-shaped table\)/
const selectFloor = /^PostgreSQL alone: (pgbench )?primary-key SELECT/
/** The write scenarios at N connections, as the Writes table names them. */
const writes = [
  /^POST \/api\/v1\/cards$/,
  /^POST \/api\/v1\/intake \(X-Intake-Key\)$/,
  /^POST \/api\/v1\/cards\/\{id\}\/move \(\d+-card pool\)$/
]
/** The same at 1 connection. */
const oneConnection = (re: RegExp) => new RegExp(`${re.source.slice(0, -1)}, 1 connection$`)

/** The main scenarios, in the order of the Results table (sizes differ in a smoke run). */
const mainRows = [
  /^baseline: node:http hello$/,
  /^framework: Effect HttpApi hello \(GET \/api\/v1\/health\)$/,
  thinCreate,
  thinRead,
  insertFloor,
  selectFloor,
  /^GET \/api\/v1\/health$/,
  /^GET \/api\/v1\/cards\/\{id\} \(X-API-Key\)$/,
  /^GET \/api\/v1\/board\/\{id\} \([\d,]+ cards\)$/,
  /^GET \/api\/v1\/board\/\{id\} \([\d,]+ cards\), 1 connection$/,
  /^GET \/api\/v1\/search\?q= \([\d,]+ cards, \d+ queries\)$/,
  /^GET \/api\/v1\/search\?q= \([\d,]+ cards\), 1 connection$/,
  writes[0]!,
  oneConnection(writes[0]!),
  writes[1]!,
  oneConnection(writes[1]!),
  /^POST \/api\/v1\/projects\/\{id\}\/links \([\d,]+-card board\)$/,
  /^POST \/api\/v1\/projects\/\{id\}\/links \([\d,]+-card board\), 1 connection$/,
  /^POST \/api\/mcp tools\/call show_card \(X-API-Key\)$/,
  writes[2]!,
  oneConnection(writes[2]!),
  /^POST \/api\/v1\/forge-hooks\/\{id\} \(GitHub pull_request, signed, a new pull request each\), 10 connections$/,
  /^POST \/api\/v1\/forge-hooks\/\{id\} \(GitHub pull_request, signed, a new pull request each\), 1 connection$/,
  /^POST \/api\/v1\/projects\/\{id\}\/claim-next \([\d,]+-card backlog\)$/
]

const rate = /^[\d,.]+( †)?$/

describe.skipIf(postgresUrl === undefined)("pnpm bench --smoke", () => {
  it("runs every scenario, the thin service, PostgreSQL alone, the scaling runs and the embedded database's writes end to end, all 2xx, and writes the report to BENCH_OUT", async () => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), "board-bench-smoke-"))
    const out = path.join(outDir, "BENCHMARKS.md")
    const env: Record<string, string | undefined> = { ...process.env, BENCH_DATABASE_URL: postgresUrl, BENCH_OUT: out }
    for (const name of ["BENCH_ONLY", "BENCH_DURATION", "BENCH_QUIET_WAIT", "BENCH_CONNECTIONS"]) delete env[name]
    const child = spawn(process.execPath, [path.join(repoRoot, "bench/run.ts"), "--smoke"], {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout!.on("data", (d) => (output += d))
    child.stderr!.on("data", (d) => (output += d))
    // SIGTERM makes the bench stop its children and drop its database
    const guard = setTimeout(() => child.kill("SIGTERM"), 240_000)
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)))
    clearTimeout(guard)
    expect(code, output.slice(-4000)).toBe(0)
    expect(output).toMatch(/dropped database board_bench_[0-9a-f]+/)
    expect(output).toContain("smoke checks of the thin service passed")

    const md = fs.readFileSync(out, "utf8")
    expect(md).toContain("**Smoke run**")

    const results = tableRows(md, "Results")
    expect(results.map((r) => r[0]!.replace(/ †$/, ""))).toEqual(mainRows.map((re) => expect.stringMatching(re)))
    for (const row of results) expect(row[5], `non-2xx of ${row[0]}`).toBe("0")
    // the writes are rated against the thin create, the card read against the thin read
    for (const row of results) {
      const label = row[0]!.replace(/ †$/, "")
      const floor =
        thinCreate.test(label) || writes.some((re) => re.test(label) || oneConnection(re).test(label))
          ? "thin create"
          : thinRead.test(label) || /^GET \/api\/v1\/cards\//.test(label)
            ? "thin read"
            : undefined
      expect(row[7], `ratio to floor of ${label}`).toMatch(
        floor === undefined ? /^–$/ : new RegExp(`^\\d+\\.\\d{3} of ${floor}$`)
      )
      if (thinCreate.test(label) || thinRead.test(label)) expect(row[7]).toBe(`1.000 of ${floor}`)
      // CPU per request of the process under test (none for PostgreSQL alone) and of PostgreSQL
      expect(row[8], `server µs/req of ${label}`).toMatch(
        insertFloor.test(label) || selectFloor.test(label) ? /^–$/ : /^\d[\d,]*$/
      )
      expect(row[9], `PostgreSQL µs/req of ${label}`).toMatch(/^\d[\d,]*$/)
    }

    for (const [title, ids] of [
      ["Scaling: board size", ["`board-100-cards`", "`board-1`", "`board-10000-cards`"]],
      ["Scaling: search corpus", ["`search-10k-cards`", "`search-1`", "`search-1m-cards`"]]
    ] as const) {
      const rows = tableRows(md, title)
      expect(
        rows.map((r) => r[1]),
        title
      ).toEqual([...ids])
      for (const row of rows) expect(row[6], `non-2xx of ${row[1]}`).toBe("0")
    }

    // each write at both connection counts, its scale-up and its ratio to the thin create, then the thin create and PostgreSQL alone
    const writeRows = tableRows(md, "Writes")
    expect(writeRows.map((r) => r[0]!.replace(/ †$/, ""))).toEqual(
      [...writes, thinCreate, insertFloor].map((re) => expect.stringMatching(re))
    )
    for (const row of writeRows.slice(0, writes.length)) {
      expect(row[1], `${row[0]} at N connections`).toMatch(rate)
      expect(row[2], `${row[0]} at 1 connection`).toMatch(rate)
      expect(row[3], `scale-up of ${row[0]}`).toMatch(/^×[\d.]+$/)
      expect(row[4], `${row[0]} over the thin create`).toMatch(/^\d+\.\d{3}$/)
      expect(row[5], `${row[0]} at 1 connection over the thin create`).toMatch(/^\d+\.\d{3}$/)
    }

    // the same writes on the embedded database, all 2xx
    const embedded = tableRows(md, "Embedded database (PGlite, DATA_DIR)")
    expect(embedded.map((r) => r[0])).toEqual(
      writes.map((re) => expect.stringMatching(new RegExp(`^embedded: ${re.source.slice(1)}`)))
    )
    for (const row of embedded) {
      expect(row[1], `${row[0]} at N connections`).toMatch(rate)
      expect(row[2], `${row[0]} at 1 connection`).toMatch(rate)
      expect(row[3], `scale-up of ${row[0]}`).toMatch(/^×[\d.]+$/)
      expect(row[11], `non-2xx of ${row[0]}`).toBe("0")
    }

    const targets = tableRows(md, "Targets")
    for (const label of [
      "POST /v1/cards >= 0.35 of the thin create",
      "move >= 0.35 of the thin create",
      "POST /v1/intake >= 0.35 of the thin create",
      "GET /v1/cards/{id} >= 0.6 of the thin read",
      "health >= 0.7 of baseline (node:http) req/s",
      "board of 1,000 cards p99 <= 12 ms, 1 connection",
      "board of 10,000 cards p99 <= 80 ms, 1 connection",
      "server RSS <= 250 MiB at its highest across the whole benchmark (PostgreSQL)",
      "server RSS <= 250 MiB at its highest across the whole benchmark (embedded database)",
      "server RSS <= 120 MiB idle after start (PostgreSQL)",
      "server RSS <= 120 MiB idle after start (embedded database)",
      "POST /v1/cards at 50 connections >= 8× its 1-connection rate",
      "search over 1,000,000 cards p99 <= 15 ms, 1 connection",
      "`board serve` to healthy <= 1 s (up-to-date PostgreSQL database)",
      "`board --help` <= 150 ms",
      "`board card show REF` <= 300 ms against a local server",
      "claim-next over a 10,000-card backlog >= 0.5 of POST /v1/cards"
    ]) {
      const row = targets.find((r) => r[0] === label)
      expect(row?.[2], label).toMatch(/^(PASS|\*\*MISS\*\*)$/)
    }

    // start-up and memory: every figure measured (a number in the median column)
    const startup = tableRows(md, "Start-up and memory")
    expect(startup.map((r) => r[0]).join("\n")).toMatch(
      /board serve.*\n.*idle, on PostgreSQL.*\n.*after every PostgreSQL scenario.*\n.*highest.*on PostgreSQL.*\n.*embedded.*idle.*\n.*highest.*embedded.*\n.*--help.*\n.*--version.*\n.*card show/
    )
    for (const row of startup) expect(row[1], row[0]).toMatch(/^\d+$/)

    expect(md).toContain("No non-2xx responses, connection errors or timeouts in any measured run.")
    expect(md).toMatch(
      /claim-next .*takes cards from .*: \d+ sessions on \d+ distinct cards of 100: no card claimed twice/
    )
    expect(md).toContain(
      "After the write scenarios every column's order keys are distinct, every project's refs are distinct and its ref sequence is past its largest ref."
    )
  }, 270_000)
})
