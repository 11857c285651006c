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
  readonly cpu: {
    readonly server: number | undefined
    readonly postgres: number
    readonly loadGenerator: number
    readonly machine: number | undefined
  }
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
  /** requests/s of `rowId` at least `min` × those of `ofRowId` (a floor or another scenario). */
  | {
      readonly kind: "relative"
      readonly label: string
      readonly rowId: string
      readonly ofRowId: string
      readonly min: number
    }
  /** requests/s of `rowId` at least `min` × those of the same requests on 1 connection. */
  | {
      readonly kind: "scale-up"
      readonly label: string
      readonly rowId: string
      readonly oneConnectionRowId: string
      readonly min: number
    }
  | {
      readonly kind: "p99"
      readonly label: string
      readonly rowId: string
      readonly maxMs: number
      readonly oneConnectionRowId: string
    }
  /** p99 of a 1-connection row at most `maxMs`: the latency of one request without queueing. */
  | { readonly kind: "p99-alone"; readonly label: string; readonly rowId: string; readonly maxMs: number }
  /** A figure measured outside the load scenarios (start-up times, memory) at most `max`. */
  | {
      readonly kind: "figure"
      readonly label: string
      readonly figure: FigureId
      readonly max: number
      readonly unit: "ms" | "MiB"
      /** How the figure is taken, when not a median of start-up runs. */
      readonly note?: string
    }

/**
 * Start-up and memory figures, measured by bench/startup.ts and around the scenarios: start-up
 * times and the PostgreSQL server's idle RSS are medians of fresh processes; the peaks are VmHWM
 * (the highest RSS over the process's life) of the server under test; the embedded server's idle
 * RSS is read once, 2 s after it answered its first health check.
 */
export type FigureId =
  | "serveMs"
  | "idleRssMiB"
  | "finalRssMiB"
  | "peakRssMiB"
  | "embeddedIdleRssMiB"
  | "embeddedPeakRssMiB"
  | "helpMs"
  | "cardShowMs"
export type Figures = Partial<Record<FigureId, number>>

const peakNote =
  "VmHWM of the server under test (its highest RSS since it started, seeding included), read before it stops; see Start-up and memory below"

/** The targets of the performance issues: "Speed and memory against the thinnest hand-written service" first, then earlier ones. */
export const targets: ReadonlyArray<Target> = [
  {
    kind: "relative",
    label: "POST /v1/cards >= 0.35 of the thin create",
    rowId: "create",
    ofRowId: "thin-create",
    min: 0.35
  },
  { kind: "relative", label: "move >= 0.35 of the thin create", rowId: "move", ofRowId: "thin-create", min: 0.35 },
  {
    kind: "relative",
    label: "POST /v1/intake >= 0.35 of the thin create",
    rowId: "intake",
    ofRowId: "thin-create",
    min: 0.35
  },
  {
    kind: "relative",
    label: "GET /v1/cards/{id} >= 0.6 of the thin read",
    rowId: "card",
    ofRowId: "thin-read",
    min: 0.6
  },
  { kind: "ratio", label: "health >= 0.7 of baseline (node:http) req/s", rowId: "health", min: 0.7 },
  { kind: "p99-alone", label: "board of 1,000 cards p99 <= 12 ms, 1 connection", rowId: "board-1", maxMs: 12 },
  {
    kind: "p99-alone",
    label: "board of 10,000 cards p99 <= 80 ms, 1 connection",
    rowId: "board-10000-cards",
    maxMs: 80
  },
  {
    kind: "figure",
    label: "server RSS <= 250 MiB at its highest across the whole benchmark (PostgreSQL)",
    figure: "peakRssMiB",
    max: 250,
    unit: "MiB",
    note: peakNote
  },
  {
    kind: "figure",
    label: "server RSS <= 250 MiB at its highest across the whole benchmark (embedded database)",
    figure: "embeddedPeakRssMiB",
    max: 250,
    unit: "MiB",
    note: peakNote
  },
  {
    kind: "figure",
    label: "server RSS <= 120 MiB idle after start (PostgreSQL)",
    figure: "idleRssMiB",
    max: 120,
    unit: "MiB"
  },
  {
    kind: "figure",
    label: "server RSS <= 120 MiB idle after start (embedded database)",
    figure: "embeddedIdleRssMiB",
    max: 120,
    unit: "MiB",
    note: "the embedded database's benchmark server 2 s after its first health check, before seeding; one reading"
  },
  {
    kind: "relative",
    label: "claim-next over a 10,000-card backlog >= 0.5 of POST /v1/cards",
    rowId: "claim-next",
    ofRowId: "create",
    min: 0.5
  },
  {
    kind: "p99-alone",
    label: "search over 1,000,000 cards p99 <= 15 ms, 1 connection",
    rowId: "search-1m-cards",
    maxMs: 15
  },
  {
    kind: "figure",
    label: "`board serve` to healthy <= 1 s (up-to-date PostgreSQL database)",
    figure: "serveMs",
    max: 1000,
    unit: "ms"
  },
  { kind: "figure", label: "`board --help` <= 150 ms", figure: "helpMs", max: 150, unit: "ms" },
  {
    kind: "figure",
    label: "`board card show REF` <= 300 ms against a local server",
    figure: "cardShowMs",
    max: 300,
    unit: "ms"
  },
  { kind: "ratio", label: "authenticated GET /v1/cards/{id} >= 0.30 of baseline req/s", rowId: "card", min: 0.3 },
  {
    kind: "p99",
    label: "search over 100,000 cards p99 < 25 ms",
    rowId: "search",
    maxMs: 25,
    oneConnectionRowId: "search-1"
  },
  { kind: "p99", label: "board of 1000 cards p99 < 60 ms", rowId: "board", maxMs: 60, oneConnectionRowId: "board-1" },
  {
    kind: "p99",
    label: "project-link submit on a board of 1000 cards p99 < 50 ms",
    rowId: "link",
    maxMs: 50,
    oneConnectionRowId: "link-1"
  },
  {
    kind: "p99",
    label: "forge delivery p99 < 50 ms (10 connections: ten hooks delivering at once)",
    rowId: "forge",
    maxMs: 50,
    oneConnectionRowId: "forge-1"
  },
  {
    kind: "scale-up",
    label: "POST /v1/cards at 50 connections >= 8× its 1-connection rate",
    rowId: "create",
    oneConnectionRowId: "create-1",
    min: 8
  }
]

/** The write scenarios, by the id of their N-connection row (the 1-connection row is `<id>-1`). */
export const writeIds = ["create", "intake", "move"] as const

/** The thin service's two rows (bench/thin-server.ts): the floors every write and the card read are rated against. */
export const thinIds = ["thin-create", "thin-read"] as const
type ThinId = (typeof thinIds)[number]

/** The floor a row is compared with: the thin create for the writes (and itself), the thin read for the card read (and itself). */
export const floorOf = (id: string): ThinId | undefined =>
  id === "card" || id === "thin-read"
    ? "thin-read"
    : id === "thin-create" || writeIds.some((w) => id === w || id === `${w}-1`)
      ? "thin-create"
      : undefined
const floorName = { "thin-create": "thin create", "thin-read": "thin read" } as const

export const fmtMs = (ms: number) =>
  Number.isNaN(ms) ? "–" : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)
const fmtRps = (rps: number) => (rps >= 100 ? Math.round(rps).toLocaleString("en-US") : rps.toFixed(1))
const fmtMiB = (bytes: number | undefined) => (bytes === undefined ? "–" : (bytes / 1024 / 1024).toFixed(0))
const fmtPct = (pct: number | undefined) => (pct === undefined ? "–" : `${Math.round(pct)}%`)

const fmtNon2xx = (r: LoadResult) =>
  r.non2xx + r.errors === 0
    ? "0"
    : `**${r.non2xx}**${r.errors > 0 ? ` (+${r.errors} errors, ${r.timeouts} timeouts)` : ""}`
const dagger = (row: Row) => ((otherCpu(row) ?? 0) > disturbedPct ? " †" : "")

/** "0.412 of thin create": the row's requests/s over its floor's, or "–" without one. */
const floorRatio = (row: Row, rows: ReadonlyArray<Row>): string => {
  const id = floorOf(row.id)
  const floor = id === undefined ? undefined : rows.find((r) => r.id === id)
  return id === undefined || floor === undefined || floor.result.rps === 0
    ? "–"
    : `${(row.result.rps / floor.result.rps).toFixed(3)} of ${floorName[id]}`
}

export const figuresTable = (rows: ReadonlyArray<Row>, baseline: Row): string => {
  const lines = [
    "| scenario | conns | requests/s | p50 ms | p99 ms | non-2xx | ratio to baseline | ratio to floor | server µs/req | PostgreSQL µs/req | server RSS MiB |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  for (const row of rows) {
    const r = row.result
    lines.push(
      `| ${row.label}${dagger(row)} | ${row.connections} | ${fmtRps(r.rps)} | ${fmtMs(r.p50)} | ${fmtMs(r.p99)} | ${fmtNon2xx(r)} | ${(r.rps / baseline.result.rps).toFixed(3)} | ${floorRatio(row, rows)} | ${fmtUs(cpuPerRequest(row, "server"))} | ${fmtUs(cpuPerRequest(row, "postgres"))} | ${fmtMiB(row.rss)} |`
    )
  }
  return lines.join("\n")
}

/** Whether a target is met, what was measured, and what meeting it would take. */
interface Judged {
  readonly pass: boolean
  readonly actual: string
  readonly context: string
}

/** "server 310 + PostgreSQL 120 + load generator 45 µs": CPU per response of each party measured. */
const cpuParts = (row: Row): string => {
  const load = row.result.rps === 0 ? undefined : (row.cpu.loadGenerator / 100 / row.result.rps) * 1e6
  const parts = [
    ["server", cpuPerRequest(row, "server")],
    ["PostgreSQL", cpuPerRequest(row, "postgres")],
    ["load generator", load]
  ] as const
  return `${parts
    .filter(([, us]) => us !== undefined)
    .map(([who, us]) => `${who} ${fmtUs(us)}`)
    .join(" + ")} µs`
}

/** Server, PostgreSQL and load generator CPU per response, µs: what the machine's cores are shared by. */
const machineCpuPerRequest = (row: Row): number | undefined =>
  row.result.rps === 0
    ? undefined
    : (((row.cpu.server ?? 0) + row.cpu.postgres + row.cpu.loadGenerator) / 100 / row.result.rps) * 1e6

/** What `rps` requests/s leave per request of `cores` cores, against what `row` uses now. */
const cpuBudget = (rps: number, row: Row, cores: number): string =>
  `${cores} cores at ${fmtRps(rps)} req/s leave ≤ ${fmtUs((cores * 1e6) / rps)} µs of CPU per request for server, PostgreSQL and load generator together (now ${fmtUs(machineCpuPerRequest(row))} µs)`

const judgeRatio = (min: number, row: Row, baseline: Row): Judged => {
  const r = row.result
  const ratio = r.rps / baseline.result.rps
  return {
    pass: ratio >= min,
    actual: `${ratio.toFixed(2)} of baseline (${fmtRps(r.rps)} vs ${fmtRps(baseline.result.rps)} req/s)`,
    context:
      `needs ≥ ${fmtRps(min * baseline.result.rps)} req/s; server CPU ${fmtUs(cpuPerRequest(row, "server"))} µs/request vs baseline ${fmtUs(cpuPerRequest(baseline, "server"))} µs` +
      (row.cpu.postgres > 5 ? `, plus PostgreSQL ${fmtUs(cpuPerRequest(row, "postgres"))} µs` : "")
  }
}

const judgeRelative = (min: number, row: Row, of: Row, cores: number): Judged => {
  const ratio = row.result.rps / of.result.rps
  const needed = min * of.result.rps
  return {
    pass: ratio >= min,
    actual: `${ratio.toFixed(2)} (${fmtRps(row.result.rps)} vs ${fmtRps(of.result.rps)} req/s)`,
    context: `needs ≥ ${fmtRps(needed)} req/s; CPU per request: ${cpuParts(row)}, vs ${of.label}: ${cpuParts(of)}; ${cpuBudget(needed, row, cores)}`
  }
}

const judgeScaleUp = (min: number, row: Row, one: Row, cores: number): Judged => {
  const factor = row.result.rps / one.result.rps
  const cpu = machineCpuPerRequest(row)
  return {
    pass: factor >= min,
    actual: `×${factor.toFixed(1)} (${fmtRps(row.result.rps)} req/s at ${row.connections} connections vs ${fmtRps(one.result.rps)} at 1)`,
    context:
      `needs ≥ ${fmtRps(min * one.result.rps)} req/s at ${row.connections} connections; ` +
      `1 connection: p50 ${fmtMs(one.result.p50)} ms, CPU per request ${cpuParts(one)}; at ${row.connections}: ${cpuParts(row)}` +
      (cpu === undefined || cpu === 0
        ? ""
        : `, a cost at which ${cores} cores serve at most ${fmtRps((cores * 1e6) / cpu)} req/s`)
  }
}

const judgeP99 = (maxMs: number, row: Row, one: Row | undefined): Judged => {
  const r = row.result
  // a closed loop of N connections has mean latency N / throughput (Little's law)
  return {
    pass: r.p99 < maxMs,
    actual: `p99 ${fmtMs(r.p99)} ms at ${row.connections} connections`,
    context:
      `at ${row.connections} connections a mean under ${maxMs} ms needs ≥ ${fmtRps((row.connections / maxMs) * 1000)} req/s (measured ${fmtRps(r.rps)})` +
      (one !== undefined
        ? `; alone (1 connection): p50 ${fmtMs(one.result.p50)} ms, p99 ${fmtMs(one.result.p99)} ms, ${one.result.p99 < maxMs ? "within" : "over"} the target`
        : "")
  }
}

const judgeAlone = (maxMs: number, row: Row): Judged => ({
  pass: row.result.p99 <= maxMs,
  actual: `p99 ${fmtMs(row.result.p99)} ms (p50 ${fmtMs(row.result.p50)} ms)`,
  context: `CPU per request: ${cpuParts(row)}`
})

const judgeFigure = (t: Extract<Target, { kind: "figure" }>, value: number): Judged => ({
  pass: value <= t.max,
  actual: `${t.unit === "ms" ? value.toFixed(0) : value.toFixed(0)} ${t.unit}`,
  context: t.note ?? "median; see Start-up and memory below"
})

/** Judges `t` on `rows`, or names the row (or figure) it misses. */
const judge = (
  t: Target,
  rows: ReadonlyArray<Row>,
  baseline: Row,
  cores: number,
  figures: Figures
): Judged | string => {
  if (t.kind === "figure") {
    const value = figures[t.figure]
    return value === undefined || Number.isNaN(value) ? t.figure : judgeFigure(t, value)
  }
  const find = (id: string) => rows.find((r) => r.id === id)
  const row = find(t.rowId)
  if (row === undefined) return t.rowId
  switch (t.kind) {
    case "ratio":
      return judgeRatio(t.min, row, baseline)
    case "relative": {
      const of = find(t.ofRowId)
      return of === undefined ? t.ofRowId : judgeRelative(t.min, row, of, cores)
    }
    case "scale-up": {
      const one = find(t.oneConnectionRowId)
      return one === undefined ? t.oneConnectionRowId : judgeScaleUp(t.min, row, one, cores)
    }
    case "p99":
      return judgeP99(t.maxMs, row, find(t.oneConnectionRowId))
    case "p99-alone":
      return judgeAlone(t.maxMs, row)
  }
}

export const targetsTable = (
  rows: ReadonlyArray<Row>,
  baseline: Row,
  cores: number,
  figures: Figures = {}
): { table: string; misses: Array<string> } => {
  const lines = ["| target | measured | result | what it would take / context |", "| --- | --- | --- | --- |"]
  const misses: Array<string> = []
  for (const t of targets) {
    const judged = judge(t, rows, baseline, cores, figures)
    if (typeof judged === "string") {
      lines.push(`| ${t.label} | not measured (\`${judged}\` did not run) | – | – |`)
      continue
    }
    if (!judged.pass) misses.push(t.label)
    lines.push(`| ${t.label} | ${judged.actual} | ${judged.pass ? "PASS" : "**MISS**"} | ${judged.context} |`)
  }
  return { table: lines.join("\n"), misses }
}

/** CPU time per response, in microseconds, of the process under test or PostgreSQL. */
export const cpuPerRequest = (row: Row, who: "server" | "postgres"): number | undefined => {
  const pct = who === "server" ? row.cpu.server : row.cpu.postgres
  return pct === undefined || row.result.rps === 0 ? undefined : (pct / 100 / row.result.rps) * 1e6
}
const fmtUs = (us: number | undefined) =>
  us === undefined ? "–" : us >= 1000 ? Math.round(us).toLocaleString("en-US") : us.toFixed(0)

/** Machine CPU not accounted to the server, PostgreSQL or the load generator (kernel, other processes). */
export const otherCpu = (row: Row): number | undefined =>
  row.cpu.machine === undefined
    ? undefined
    : Math.max(0, row.cpu.machine - (row.cpu.server ?? 0) - row.cpu.postgres - row.cpu.loadGenerator)

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
    out.push(
      `- ${row.label}: status counts ${JSON.stringify(r.statusCodes)}, ${r.errors} connection errors, ${r.timeouts} timeouts`
    )
    for (const s of r.samples) out.push(`  - \`${s.replace(/`/g, "'")}\``)
  }
  return out.length === 0 ? "No non-2xx responses, connection errors or timeouts in any measured run." : out.join("\n")
}

const fmtCount = (n: number) => n.toLocaleString("en-US")
const fmtKiB = (bytes: number | undefined) =>
  bytes === undefined
    ? "–"
    : bytes < 10_240
      ? (bytes / 1024).toFixed(1)
      : Math.round(bytes / 1024).toLocaleString("en-US")
const fmtFactor = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? "–" : x >= 10 ? `×${x.toFixed(0)}` : `×${x.toFixed(1)}`
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
  const bySize = sizes.map((cards) => ({
    cards,
    row: rows.find((r) => r.scale?.kind === kind && r.scale.cards === cards)
  }))
  const base = bySize.find((x) => x.row !== undefined)
  for (const { cards, row } of bySize) {
    if (row === undefined) {
      lines.push(`| ${fmtCount(cards)} | not measured | – | – | – | – | – | – | – | – | – | – | – | – |`)
      continue
    }
    const r = row.result
    const bad = r.non2xx + r.errors
    const non2xx =
      bad === 0 ? "0" : `**${r.non2xx}**${r.errors > 0 ? ` (+${r.errors} errors, ${r.timeouts} timeouts)` : ""}`
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
    steps.push(
      `- ${fmtCount(a.cards)} → ${fmtCount(z.cards)} cards (data ${fmtFactor(z.cards / a.cards)}): CPU per request ${fmtUs(cpuA)} → ${fmtUs(cpuZ)} µs, cost ${per10(cpuZ / cpuA)} per ×10 of data; p50 ${fmtMs(a.row.result.p50)} → ${fmtMs(z.row.result.p50)} ms, ${per10(z.row.result.p50 / a.row.result.p50)} per ×10.`
    )
  }
  return `${lines.join("\n")}${steps.length === 0 ? "" : `\n\nGrowth from each size to the next (CPU per request is server plus PostgreSQL):\n\n${steps.join("\n")}`}`
}

/** The N- and 1-connection rows of write scenario `id` (`prefix` picks the embedded database's rows). */
const writePair = (rows: ReadonlyArray<Row>, id: string, prefix = "") => ({
  many: rows.find((r) => r.id === `${prefix}${id}`),
  one: rows.find((r) => r.id === `${prefix}${id}-1`)
})
const rpsCell = (row: Row | undefined) =>
  row === undefined ? "not measured" : `${fmtRps(row.result.rps)}${dagger(row)}`
const scaleUpCell = (many: Row | undefined, one: Row | undefined) =>
  many === undefined || one === undefined || one.result.rps === 0
    ? "–"
    : `×${(many.result.rps / one.result.rps).toFixed(1)}`
const usCell = (row: Row | undefined, who: "server" | "postgres") =>
  row === undefined ? "–" : fmtUs(cpuPerRequest(row, who))
const msCell = (row: Row | undefined, p: "p50" | "p99") => (row === undefined ? "–" : fmtMs(row.result[p]))

/**
 * The writes on PostgreSQL: each at N connections and at 1, how far concurrency lifts it, and
 * how close each comes to the thin create (that row next, for its own CPU per create), then
 * pgbench's bare INSERT when it ran: PostgreSQL alone, no HTTP, no event row.
 */
export const writesTable = (rows: ReadonlyArray<Row>, connections: number): string => {
  const thin = rows.find((r) => r.id === "thin-create")
  const ofThin = (row: Row | undefined) =>
    row === undefined || thin === undefined || thin.result.rps === 0
      ? "–"
      : (row.result.rps / thin.result.rps).toFixed(3)
  const n = `${connections} conns`
  const lines = [
    `| scenario | req/s, ${n} | req/s, 1 conn | scale-up (${connections} ÷ 1) | ÷ thin create, ${n} | ÷ thin create, 1 conn | p50 ms, 1 conn | server µs/req, ${n} | PostgreSQL µs/req, ${n} | server µs/req, 1 conn | PostgreSQL µs/req, 1 conn |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  for (const id of writeIds) {
    const { many, one } = writePair(rows, id)
    lines.push(
      `| ${many?.label ?? one?.label ?? id} | ${rpsCell(many)} | ${rpsCell(one)} | ${scaleUpCell(many, one)} | ${ofThin(many)} | ${ofThin(one)} | ${msCell(one, "p50")} | ${usCell(many, "server")} | ${usCell(many, "postgres")} | ${usCell(one, "server")} | ${usCell(one, "postgres")} |`
    )
  }
  if (thin !== undefined) {
    lines.push(
      `| ${thin.label} | ${rpsCell(thin)} | – | – | 1.000 | – | – | ${usCell(thin, "server")} | ${usCell(thin, "postgres")} | – | – |`
    )
  }
  const insert = rows.find((r) => r.id === "floor-insert")
  if (insert !== undefined) {
    lines.push(
      `| ${insert.label} | ${rpsCell(insert)} | – | – | ${ofThin(insert)} | – | – | – | ${usCell(insert, "postgres")} | – | – |`
    )
  }
  return lines.join("\n")
}

/**
 * The writes on the embedded database (PGlite inside the server process, so the server's CPU
 * includes the database's), with the same requests on PostgreSQL for comparison.
 */
export const embeddedTable = (rows: ReadonlyArray<Row>, connections: number): string => {
  const n = `${connections} conns`
  const lines = [
    `| scenario | req/s, ${n} | req/s, 1 conn | scale-up (${connections} ÷ 1) | ÷ PostgreSQL, ${n} | ÷ PostgreSQL, 1 conn | p50 ms, ${n} | p99 ms, ${n} | p50 ms, 1 conn | server µs/req, ${n} | server µs/req, 1 conn | non-2xx | server RSS MiB |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  const ofPostgres = (row: Row | undefined, pg: Row | undefined) =>
    row === undefined || pg === undefined || pg.result.rps === 0 ? "–" : (row.result.rps / pg.result.rps).toFixed(2)
  for (const id of writeIds) {
    const { many, one } = writePair(rows, id, "embedded-")
    const pg = writePair(rows, id)
    const measured = [many, one].filter((r): r is Row => r !== undefined)
    const non2xx =
      measured.length === 0
        ? "–"
        : measured.every((r) => r.result.non2xx + r.result.errors === 0)
          ? "0"
          : measured.map((r) => fmtNon2xx(r.result)).join(" / ")
    lines.push(
      `| ${many?.label ?? one?.label ?? id} | ${rpsCell(many)} | ${rpsCell(one)} | ${scaleUpCell(many, one)} | ${ofPostgres(many, pg.many)} | ${ofPostgres(one, pg.one)} | ${msCell(many, "p50")} | ${msCell(many, "p99")} | ${msCell(one, "p50")} | ${usCell(many, "server")} | ${usCell(one, "server")} | ${non2xx} | ${fmtMiB((many ?? one)?.rss)} |`
    )
  }
  return lines.join("\n")
}
