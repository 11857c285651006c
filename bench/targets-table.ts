/**
 * The Targets table: each target judged on the measured rows and figures, with what was measured
 * and what meeting it would take (the CPU per request it leaves, the rate it needs).
 */
import { cpuPerRequest, fmtMs, fmtRps, fmtUs, type Row } from "./report.ts"
import { type Figures, type Target, targets } from "./targets.ts"

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
