/** Child processes of the benchmark: spawn, wait until they answer, stop, and read /proc. */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"

export interface Child {
  readonly name: string
  readonly child: ChildProcess
  readonly pid: number
  /** The last 64 KiB of the child's stdout and stderr, for error messages. */
  readonly output: () => string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly hasExited: () => boolean
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.once("error", reject)
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo
      srv.close(() => resolve(port))
    })
  })

export const spawnChild = (
  name: string,
  command: string,
  args: ReadonlyArray<string>,
  options: { cwd: string; env: Record<string, string> }
): Child => {
  const child = spawn(command, [...args], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  const keep = (d: Buffer) => {
    out += d.toString()
    if (out.length > 65_536) out = out.slice(-65_536)
  }
  child.stdout!.on("data", keep)
  child.stderr!.on("data", keep)
  let done = false
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      done = true
      resolve({ code, signal })
    })
    child.once("error", (err) => {
      keep(Buffer.from(`spawn error: ${err.message}\n`))
      done = true
      resolve({ code: null, signal: null })
    })
  })
  if (child.pid === undefined) throw new Error(`could not spawn ${name} (${command})`)
  return { name, child, pid: child.pid, output: () => out, exited, hasExited: () => done }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `url` until it answers 200; fails early if the child exits. */
export const waitForOk = async (child: Child, url: string, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.hasExited()) throw new Error(`${child.name} exited before answering ${url}:\n${child.output()}`)
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      await res.arrayBuffer()
      if (res.status === 200) return
    } catch {
      // not listening yet
    }
    await sleep(100)
  }
  throw new Error(`${child.name} did not answer 200 at ${url} within ${timeoutMs} ms:\n${child.output()}`)
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the child is gone. */
export const stopChild = async (child: Child, graceMs = 5_000): Promise<void> => {
  if (child.hasExited()) return
  try {
    child.child.kill("SIGTERM")
  } catch {
    // already gone
  }
  const timer = setTimeout(() => {
    try {
      child.child.kill("SIGKILL")
    } catch {
      // already gone
    }
  }, graceMs)
  await child.exited
  clearTimeout(timer)
}

/** A `kB` field of /proc/<pid>/status in bytes, or undefined. */
const statusBytes = (pid: number, field: "VmRSS" | "VmHWM"): number | undefined => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    const m = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status)
    return m ? Number(m[1]) * 1024 : undefined
  } catch {
    return undefined
  }
}

/** Resident set size of a process in bytes (VmRSS of /proc/<pid>/status), or undefined. */
export const readRss = (pid: number): number | undefined => statusBytes(pid, "VmRSS")

/** The highest resident set size of a process since it started, in bytes (VmHWM, the kernel's peak), or undefined. */
export const readPeakRss = (pid: number): number | undefined => statusBytes(pid, "VmHWM")

/** CPU time (user + system) of a process in clock ticks (1/100 s on Linux), or undefined. */
export const readProcessTicks = (pid: number): number | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // the command name may hold spaces: fields start after the last ')'
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return undefined
  }
}

/** Machine-wide CPU ticks: busy and total, summed over every core (first line of /proc/stat). */
export const readMachineTicks = (): { busy: number; total: number } | undefined => {
  try {
    const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!
    const v = line.trim().split(/\s+/).slice(1).map(Number)
    const total = v.reduce((a, b) => a + b, 0)
    const idle = (v[3] ?? 0) + (v[4] ?? 0)
    return { busy: total - idle, total }
  } catch {
    return undefined
  }
}

/** CPU ticks per process of every PostgreSQL process (comm `postgres`) visible in /proc. */
export const readPostgresTicks = (): Map<number, number> => {
  const out = new Map<number, number>()
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))
      if (comm !== "postgres") continue
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      out.set(Number(entry), Number(fields[11]) + Number(fields[12]))
    } catch {
      // process ended meanwhile
    }
  }
  return out
}

/**
 * PostgreSQL CPU ticks spent between two snapshots: the growth of processes alive in both,
 * plus all ticks of processes started meanwhile (processes that ended meanwhile are lost).
 */
export const postgresTicksBetween = (before: Map<number, number>, after: Map<number, number>): number => {
  let sum = 0
  for (const [pid, ticks] of after) sum += Math.max(0, ticks - (before.get(pid) ?? 0))
  return sum
}

/**
 * Samples the PostgreSQL processes' CPU ticks every `intervalMs` until stopped, keeping each
 * process's last reading: backends that exit before the run ends (pgbench's, when it
 * disconnects) still count, up to their last sample.
 */
export const trackPostgresTicks = (intervalMs = 200) => {
  const seen = new Map<number, number>()
  const sample = () => {
    for (const [pid, ticks] of readPostgresTicks()) seen.set(pid, ticks)
  }
  const timer = setInterval(sample, intervalMs)
  return {
    stop: (): Map<number, number> => {
      clearInterval(timer)
      sample()
      return seen
    }
  }
}

/**
 * Waits (at most `budgetMs`) until the machine is quiet: CPU use over one second, while the
 * benchmark itself is idle, below `thresholdPct` of one core. Returns the last reading and how
 * long it waited; the caller reports a disturbed run rather than waiting forever.
 */
export const waitForQuiet = async (
  budgetMs: number,
  thresholdPct: number,
  cores: number,
  onBusy: (pct: number) => void
) => {
  const started = Date.now()
  let warned = false
  for (;;) {
    const m0 = readMachineTicks()
    await sleep(1_000)
    const m1 = readMachineTicks()
    if (m0 === undefined || m1 === undefined || m1.total <= m0.total)
      return { busyPct: undefined, waitedMs: Date.now() - started }
    const busyPct = ((m1.busy - m0.busy) / (m1.total - m0.total)) * 100 * cores
    if (busyPct < thresholdPct || Date.now() - started >= budgetMs) return { busyPct, waitedMs: Date.now() - started }
    if (!warned) onBusy(busyPct)
    warned = true
  }
}
