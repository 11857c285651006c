/** The results as markdown: the figures table, the targets, resource use, and notes. */
import type { LoadResult } from "./load.ts"

export interface Row {
  readonly id: string
  readonly label: string
  readonly connections: number
  readonly result: LoadResult
  /** VmRSS of the process under test right after the run, bytes. */
  readonly rss: number | undefined
  /** CPU over the measured window, in % of one core (100 = one core busy; the machine has os.cpus().length × 100). */
  readonly cpu: { readonly server: number | undefined; readonly postgres: number; readonly loadGenerator: number; readonly machine: number | undefined }
  readonly supplementary?: boolean
  /** How many times the scenario was measured (re-measured when disturbed); the cleanest run is shown. */
  readonly attempts?: number
  /** A row of a scaling table: what grows and how many cards it holds. */
  readonly scale?: Scale
  /** Bytes of one response body (the mean over the rotated requests), fetched before the run. */
  readonly responseBytes?: number
}

export interface Scale {
  readonly kind: "board" | "search"
  readonly cards: number
}

/** CPU (% of one core) used outside the benchmark above which a run counts as disturbed. */
export const disturbedPct = 15

export type Target =
  | { readonly kind: "ratio"; readonly label: string; readonly rowId: string; readonly min: number }
  | { readonly kind: "p99"; readonly label: string; readonly rowId: string; readonly maxMs: number; readonly oneConnectionRowId: string }

/** The targets of the performance issue. */
export const targets: ReadonlyArray<Target> = [
  { kind: "ratio", label: "health >= 0.65 of baseline req/s", rowId: "health", min: 0.65 },
  { kind: "ratio", label: "authenticated GET /v1/cards/{id} >= 0.30 of baseline req/s", rowId: "card", min: 0.30 },
  { kind: "p99", label: "search over 100,000 cards p99 < 25 ms", rowId: "search", maxMs: 25, oneConnectionRowId: "search-1" },
  { kind: "p99", label: "board of 1000 cards p99 < 60 ms", rowId: "board", maxMs: 60, oneConnectionRowId: "board-1" },
  { kind: "p99", label: "project-link submit on a board of 1000 cards p99 < 50 ms", rowId: "link", maxMs: 50, oneConnectionRowId: "link-1" }
]

export const fmtMs = (ms: number) => (Number.isNaN(ms) ? "–" : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0))
const fmtRps = (rps: number) => (rps >= 100 ? Math.round(rps).toLocaleString("en-US") : rps.toFixed(1))
const fmtMiB = (bytes: number | undefined) => (bytes === undefined ? "–" : (bytes / 1024 / 1024).toFixed(0))
const fmtPct = (pct: number | undefined) => (pct === undefined ? "–" : `${Math.round(pct)}%`)

export const figuresTable = (rows: ReadonlyArray<Row>, baseline: Row): string => {
  const lines = [
    "| scenario | conns | requests/s | p50 ms | p99 ms | non-2xx | ratio to baseline | server RSS MiB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  for (const row of rows) {
    const r = row.result
    const bad = r.non2xx + r.errors
    const non2xx = bad === 0 ? "0" : `**${r.non2xx}**${r.errors > 0 ? ` (+${r.errors} errors, ${r.timeouts} timeouts)` : ""}`
    lines.push(
      `| ${row.label}${(otherCpu(row) ?? 0) > disturbedPct ? " †" : ""} | ${row.connections} | ${fmtRps(r.rps)} | ${fmtMs(r.p50)} | ${fmtMs(r.p99)} | ${non2xx} | ${(r.rps / baseline.result.rps).toFixed(3)} | ${fmtMiB(row.rss)} |`
    )
  }
  return lines.join("\n")
}

export const targetsTable = (rows: ReadonlyArray<Row>, baseline: Row): { table: string; misses: Array<string> } => {
  const lines = ["| target | measured | result | what it would take / context |", "| --- | --- | --- | --- |"]
  const misses: Array<string> = []
  for (const t of targets) {
    const row = rows.find((r) => r.id === t.rowId)
    if (row === undefined) {
      lines.push(`| ${t.label} | not measured | – | – |`)
      continue
    }
    const r = row.result
    let pass: boolean
    let actual: string
    let context: string
    if (t.kind === "ratio") {
      const ratio = r.rps / baseline.result.rps
      pass = ratio >= t.min
      actual = `${ratio.toFixed(2)} of baseline (${fmtRps(r.rps)} vs ${fmtRps(baseline.result.rps)} req/s)`
      context = `needs ≥ ${fmtRps(t.min * baseline.result.rps)} req/s; server CPU ${fmtUs(cpuPerRequest(row, "server"))} µs/request vs baseline ${fmtUs(cpuPerRequest(baseline, "server"))} µs` +
        (row.cpu.postgres > 5 ? `, plus PostgreSQL ${fmtUs(cpuPerRequest(row, "postgres"))} µs` : "")
    } else {
      pass = r.p99 < t.maxMs
      actual = `p99 ${fmtMs(r.p99)} ms at ${row.connections} connections`
      const one = rows.find((x) => x.id === t.oneConnectionRowId)
      // a closed loop of N connections has mean latency N / throughput (Little's law)
      context = `at ${row.connections} connections a mean under ${t.maxMs} ms needs ≥ ${fmtRps((row.connections / t.maxMs) * 1000)} req/s (measured ${fmtRps(r.rps)})` +
        (one !== undefined ? `; alone (1 connection): p50 ${fmtMs(one.result.p50)} ms, p99 ${fmtMs(one.result.p99)} ms, ${one.result.p99 < t.maxMs ? "within" : "over"} the target` : "")
    }
    if (!pass) misses.push(t.label)
    lines.push(`| ${t.label} | ${actual} | ${pass ? "PASS" : "**MISS**"} | ${context} |`)
  }
  return { table: lines.join("\n"), misses }
}

/** CPU time per response, in microseconds, of the process under test or PostgreSQL. */
export const cpuPerRequest = (row: Row, who: "server" | "postgres"): number | undefined => {
  const pct = who === "server" ? row.cpu.server : row.cpu.postgres
  return pct === undefined || row.result.rps === 0 ? undefined : ((pct / 100) / row.result.rps) * 1e6
}
const fmtUs = (us: number | undefined) => (us === undefined ? "–" : us >= 1000 ? Math.round(us).toLocaleString("en-US") : us.toFixed(0))

/** Machine CPU not accounted to the server, PostgreSQL or the load generator (kernel, other processes). */
export const otherCpu = (row: Row): number | undefined =>
  row.cpu.machine === undefined ? undefined : Math.max(0, row.cpu.machine - (row.cpu.server ?? 0) - row.cpu.postgres - row.cpu.loadGenerator)

export const resourceTable = (rows: ReadonlyArray<Row>): string => {
  const lines = [
    "| scenario | process under test | PostgreSQL | load generator | everything else | whole machine | server µs/req | PostgreSQL µs/req | responses | p90 ms | max ms | runs |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  for (const row of rows) {
    lines.push(
      `| ${row.label} | ${fmtPct(row.cpu.server)} | ${fmtPct(row.cpu.postgres)} | ${fmtPct(row.cpu.loadGenerator)} | ${fmtPct(otherCpu(row))} | ${fmtPct(row.cpu.machine)} | ${fmtUs(cpuPerRequest(row, "server"))} | ${fmtUs(cpuPerRequest(row, "postgres"))} | ${row.result.responses.toLocaleString("en-US")} | ${fmtMs(row.result.p90)} | ${fmtMs(row.result.max)} | ${row.attempts ?? 1} |`
    )
  }
  return lines.join("\n")
}

export const errorSamples = (rows: ReadonlyArray<Row>): string => {
  const out: Array<string> = []
  for (const row of rows) {
    const r = row.result
    if (r.non2xx === 0 && r.errors === 0) continue
    out.push(`- ${row.label}: status counts ${JSON.stringify(r.statusCodes)}, ${r.errors} connection errors, ${r.timeouts} timeouts`)
    for (const s of r.samples) out.push(`  - \`${s.replace(/`/g, "'")}\``)
  }
  return out.length === 0 ? "No non-2xx responses, connection errors or timeouts in any measured run." : out.join("\n")
}

const fmtCount = (n: number) => n.toLocaleString("en-US")
const fmtKiB = (bytes: number | undefined) =>
  bytes === undefined ? "–" : bytes < 10_240 ? (bytes / 1024).toFixed(1) : Math.round(bytes / 1024).toLocaleString("en-US")
const fmtFactor = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : x >= 10 ? `×${x.toFixed(0)}` : `×${x.toFixed(1)}`)
/** Server plus PostgreSQL CPU per response, µs. */
const totalCpuPerRequest = (row: Row): number | undefined => {
  const server = cpuPerRequest(row, "server")
  const postgres = cpuPerRequest(row, "postgres")
  return server === undefined || postgres === undefined ? undefined : server + postgres
}

/**
 * One scaling table: the rows of `kind` by size, 1 connection each, with each size's cost
 * relative to the smallest measured size, and a sentence on growth per ×10 of data.
 */
export const scalingTable = (rows: ReadonlyArray<Row>, kind: Scale["kind"], sizes: ReadonlyArray<number>): string => {
  const lines = [
    "| cards | scenario | conns | requests/s | p50 ms | p99 ms | non-2xx | server µs/req | PostgreSQL µs/req | server RSS MiB | response KiB | data × | p50 × | CPU/req × |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  const bySize = sizes.map((cards) => ({ cards, row: rows.find((r) => r.scale?.kind === kind && r.scale.cards === cards) }))
  const base = bySize.find((x) => x.row !== undefined)
  for (const { cards, row } of bySize) {
    if (row === undefined) {
      lines.push(`| ${fmtCount(cards)} | not measured | – | – | – | – | – | – | – | – | – | – | – | – |`)
      continue
    }
    const r = row.result
    const bad = r.non2xx + r.errors
    const non2xx = bad === 0 ? "0" : `**${r.non2xx}**${r.errors > 0 ? ` (+${r.errors} errors, ${r.timeouts} timeouts)` : ""}`
    const b = base!.row!
    const cpu = totalCpuPerRequest(row)
    const baseCpu = totalCpuPerRequest(b)
    lines.push(
      `| ${fmtCount(cards)}${(otherCpu(row) ?? 0) > disturbedPct ? " †" : ""} | \`${row.id}\` | ${row.connections} | ${fmtRps(r.rps)} | ${fmtMs(r.p50)} | ${fmtMs(r.p99)} | ${non2xx} | ${fmtUs(cpuPerRequest(row, "server"))} | ${fmtUs(cpuPerRequest(row, "postgres"))} | ${fmtMiB(row.rss)} | ${fmtKiB(row.responseBytes)} | ${fmtFactor(cards / base!.cards)} | ${fmtFactor(r.p50 / b.result.p50)} | ${cpu === undefined || baseCpu === undefined ? "–" : fmtFactor(cpu / baseCpu)} |`
    )
  }
  // growth from each measured size to the next, as the factor per ×10 of data
  const measured = bySize.filter((x): x is { cards: number; row: Row } => x.row !== undefined)
  const steps: Array<string> = []
  for (let i = 1; i < measured.length; i++) {
    const a = measured[i - 1]!
    const z = measured[i]!
    const decades = Math.log10(z.cards / a.cards)
    const cpuA = totalCpuPerRequest(a.row)
    const cpuZ = totalCpuPerRequest(z.row)
    if (decades <= 0 || cpuA === undefined || cpuZ === undefined || cpuA <= 0) continue
    const per10 = (x: number) => fmtFactor(x ** (1 / decades))
    steps.push(`- ${fmtCount(a.cards)} → ${fmtCount(z.cards)} cards (data ${fmtFactor(z.cards / a.cards)}): CPU per request ${fmtUs(cpuA)} → ${fmtUs(cpuZ)} µs, cost ${per10(cpuZ / cpuA)} per ×10 of data; p50 ${fmtMs(a.row.result.p50)} → ${fmtMs(z.row.result.p50)} ms, ${per10(z.row.result.p50 / a.row.result.p50)} per ×10.`)
  }
  return `${lines.join("\n")}${steps.length === 0 ? "" : `\n\nGrowth from each size to the next (CPU per request is server plus PostgreSQL):\n\n${steps.join("\n")}`}`
}
