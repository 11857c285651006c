/**
 * The scaling tables: one scenario's 1-connection rows by the size of the data it reads (board
 * cards, search corpus), each size's cost against the smallest, and the growth per ×10 of data.
 */
import { count } from "./log.ts"
import { cpuPerRequest, disturbedPct, fmtMiB, fmtMs, fmtRps, fmtUs, otherCpu, type Row, type Scale } from "./report.ts"

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
      lines.push(`| ${count(cards)} | not measured | – | – | – | – | – | – | – | – | – | – | – | – |`)
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
      `| ${count(cards)}${(otherCpu(row) ?? 0) > disturbedPct ? " †" : ""} | \`${row.id}\` | ${row.connections} | ${fmtRps(r.rps)} | ${fmtMs(r.p50)} | ${fmtMs(r.p99)} | ${non2xx} | ${fmtUs(cpuPerRequest(row, "server"))} | ${fmtUs(cpuPerRequest(row, "postgres"))} | ${fmtMiB(row.rss)} | ${fmtKiB(row.responseBytes)} | ${fmtFactor(cards / base!.cards)} | ${fmtFactor(r.p50 / b.result.p50)} | ${cpu === undefined || baseCpu === undefined ? "–" : fmtFactor(cpu / baseCpu)} |`
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
      `- ${count(a.cards)} → ${count(z.cards)} cards (data ${fmtFactor(z.cards / a.cards)}): CPU per request ${fmtUs(cpuA)} → ${fmtUs(cpuZ)} µs, cost ${per10(cpuZ / cpuA)} per ×10 of data; p50 ${fmtMs(a.row.result.p50)} → ${fmtMs(z.row.result.p50)} ms, ${per10(z.row.result.p50 / a.row.result.p50)} per ×10.`
    )
  }
  return `${lines.join("\n")}${steps.length === 0 ? "" : `\n\nGrowth from each size to the next (CPU per request is server plus PostgreSQL):\n\n${steps.join("\n")}`}`
}
