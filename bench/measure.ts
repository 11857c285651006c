/**
 * One scenario measured: after waiting for the machine to be quiet (within the run's budget) and a
 * warm-up, its load with the CPU of the process under test, of PostgreSQL, of the load generator and
 * of the whole machine; measured again while other processes disturb it and the budget lasts, the
 * cleanest run kept. Also the mean size of the responses a scaling row reports.
 */
import * as os from "node:os"
import type { Drive } from "./load.ts"
import { log } from "./log.ts"
import { duration, quietBudgetSeconds, smokeRun, warmup } from "./options.ts"
import {
  postgresTicksBetween,
  readMachineTicks,
  readPostgresTicks,
  readProcessTicks,
  readRss,
  trackPostgresTicks,
  waitForQuiet
} from "./processes.ts"
import { disturbedPct, otherCpu, type Row } from "./report.ts"
import type { Scenario } from "./scenario-types.ts"

/** What is left of the waiting budget (BENCH_QUIET_WAIT): waiting for quiet and measuring again draw on it. */
let quietBudgetLeftMs = quietBudgetSeconds * 1000

/** One scenario measured, again while other processes disturb it and the budget lasts; the cleanest run. */
export const measureSteady = async (sc: Scenario, drive: Drive, pid: number | undefined): Promise<Row> => {
  let row = await measure(sc, drive, pid)
  // a run disturbed by other processes is measured again while the budget lasts; the cleanest run is kept
  let attempts = 1
  let last = row
  while ((otherCpu(row) ?? 0) > disturbedPct && attempts < 3 && quietBudgetLeftMs >= (duration + warmup) * 1000) {
    log(
      `  disturbed: ${Math.round(otherCpu(last)!)}% of a core went to other processes during the run (${Math.round(last.result.rps)} req/s); measuring again`
    )
    quietBudgetLeftMs -= (duration + warmup) * 1000
    last = await measure(sc, drive, pid)
    attempts++
    if ((otherCpu(last) ?? 0) < (otherCpu(row) ?? 0)) row = last
  }
  return { ...row, attempts }
}

/**
 * Measures `drive` with the CPU of the process under test (`pid`; none for a floor, where that
 * is PostgreSQL itself), of PostgreSQL, of the load generator and of the whole machine.
 */
const measure = async (sc: Scenario, drive: Drive, pid: number | undefined): Promise<Row> => {
  // other processes on the machine (e.g. a test suite) distort the figures: wait for quiet, within a budget
  // (a smoke run only checks that everything works, and does not wait)
  if (!smokeRun) {
    const quiet = await waitForQuiet(quietBudgetLeftMs, 15, os.cpus().length, (pct) =>
      log(
        `  the machine is busy outside the benchmark (${Math.round(pct)}% of a core); waiting up to ${Math.round(quietBudgetLeftMs / 1000)} s for it to calm down`
      )
    )
    quietBudgetLeftMs = Math.max(0, quietBudgetLeftMs - Math.max(0, quiet.waitedMs - 1_000))
    if (quiet.busyPct !== undefined && quiet.busyPct >= 15)
      log(`  still busy (${Math.round(quiet.busyPct)}% of a core outside the benchmark): measuring anyway`)
  }
  if (warmup > 0) {
    const warm = (await drive(warmup)).result
    if (warm.non2xx + warm.errors > 0)
      log(`  warm-up of ${sc.id}: ${warm.non2xx} non-2xx, ${warm.errors} errors ${warm.samples.join(" | ")}`)
  }
  // A smoke run's window is a quarter of a second: on a busy machine (the test suite beside it) one
  // slow response can fill it, and a window without a response measures nothing (no rate, no CPU
  // per request). The smoke run measures again in a window twice as long, up to 8 s, but only a
  // window that was merely empty: one with an error or a non-2xx is the row, and the test sees it.
  // (Up to 2 s was once enough; on a slow shared machine, 50 moves of one pool at once took 2 s and
  // more before the first answered, and the row came out empty.) A full run's windows are seconds
  // long and measure once.
  let window = duration
  for (;;) {
    const measured = await measureOnce(sc, drive, pid, window)
    const r = measured.result
    if (!smokeRun || r.responses > 0 || r.errors + r.non2xx + r.timeouts > 0 || window >= 8) return measured
    log(`  ${sc.id}: no response in ${window} s (a busy machine); measuring again in ${window * 2} s`)
    window *= 2
  }
}

const measureOnce = async (sc: Scenario, drive: Drive, pid: number | undefined, window: number): Promise<Row> => {
  const cpu0 = pid === undefined ? undefined : readProcessTicks(pid)
  const pg0 = readPostgresTicks()
  // a floor's backends exit with pgbench, before the run is over: their CPU is sampled while they live
  const pgTrack = sc.target === "floor" ? trackPostgresTicks() : undefined
  const m0 = readMachineTicks()
  const self0 = process.cpuUsage()
  const t0 = performance.now()
  const { result, childCpuSeconds } = await drive(window)
  const seconds = (performance.now() - t0) / 1000
  const cpu1 = pid === undefined ? undefined : readProcessTicks(pid)
  const pg1 = pgTrack?.stop() ?? readPostgresTicks()
  const m1 = readMachineTicks()
  const self = process.cpuUsage(self0)
  const rss = pid === undefined ? undefined : readRss(pid)
  const ticksToPct = (ticks: number) => (ticks / 100 / seconds) * 100
  return {
    id: sc.id,
    label: sc.label,
    connections: sc.connections,
    result,
    rss,
    cpu: {
      server: cpu0 !== undefined && cpu1 !== undefined ? ticksToPct(cpu1 - cpu0) : undefined,
      postgres: ticksToPct(postgresTicksBetween(pg0, pg1)),
      loadGenerator: (((self.user + self.system) / 1e6 + (childCpuSeconds ?? 0)) / seconds) * 100,
      machine:
        m0 !== undefined && m1 !== undefined && m1.total > m0.total
          ? ((m1.busy - m0.busy) / (m1.total - m0.total)) * 100 * os.cpus().length
          : undefined
    },
    ...(sc.supplementary ? { supplementary: true } : {}),
    ...(sc.scale !== undefined ? { scale: { kind: sc.scale.kind, cards: sc.scale.cards } } : {})
  }
}

/** Mean bytes of the response bodies of `paths` (each fetched once, 200 expected). */
export const responseBytes = async (
  origin: string,
  paths: ReadonlyArray<string>,
  headers: Record<string, string>
): Promise<number> => {
  let total = 0
  for (const p of paths) {
    const res = await fetch(`${origin}${p}`, { headers, signal: AbortSignal.timeout(60_000) })
    const body = Buffer.from(await res.arrayBuffer())
    if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}: ${body.toString().slice(0, 300)}`)
    total += body.length
  }
  return total / paths.length
}
