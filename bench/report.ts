/** The results as markdown: the figures table, resource use, errors, and the formatting every table shares. */
import type { LoadResult } from "./load.ts"
import { mib } from "./log.ts"

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
export const fmtRps = (rps: number) => (rps >= 100 ? Math.round(rps).toLocaleString("en-US") : rps.toFixed(1))
/** MiB, rounded (log.ts `mib`: one formatter for the report and the run's log). */
export const fmtMiB = mib
const fmtPct = (pct: number | undefined) => (pct === undefined ? "–" : `${Math.round(pct)}%`)

export const fmtNon2xx = (r: LoadResult) =>
  r.non2xx + r.errors === 0
    ? "0"
    : `**${r.non2xx}**${r.errors > 0 ? ` (+${r.errors} errors, ${r.timeouts} timeouts)` : ""}`
export const dagger = (row: Row) => ((otherCpu(row) ?? 0) > disturbedPct ? " †" : "")

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

/** CPU time per response, in microseconds, of the process under test or PostgreSQL. */
export const cpuPerRequest = (row: Row, who: "server" | "postgres"): number | undefined => {
  const pct = who === "server" ? row.cpu.server : row.cpu.postgres
  return pct === undefined || row.result.rps === 0 ? undefined : (pct / 100 / row.result.rps) * 1e6
}
export const fmtUs = (us: number | undefined) =>
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
