/**
 * Start-up and memory: how long `board serve` takes to answer its health check on an up-to-date
 * PostgreSQL database and how much it holds once idle, and how long the CLI takes for `--help`,
 * `--version` and a read command against the running server. Each is the median of several runs
 * of a fresh process started with the project's Node (never through npx).
 */
import { spawn } from "node:child_process"
import * as os from "node:os"
import * as path from "node:path"
import { type Child, freePort, readRss, spawnChild, stopChild } from "./processes.ts"

/**
 * Node's flags for `board serve`, as `pnpm start` and the Containerfile run it: 16 MiB semi-spaces
 * (docs/performance.md, Memory). Every server the benchmark starts runs with them.
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=16"] as const

export interface StartupFigures {
  /** Process start to the first 200 from /api/v1/health, ms, one per run. */
  readonly serveMs: ReadonlyArray<number>
  /** VmRSS of those servers 2 s after they answered, bytes, one per run. */
  readonly idleRss: ReadonlyArray<number>
  readonly helpMs: ReadonlyArray<number>
  readonly versionMs: ReadonlyArray<number>
  /** `board card show REF` against the benchmark's server. */
  readonly cardShowMs: ReadonlyArray<number>
  readonly cardRef: string
}

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0
    ? NaN
    : s.length % 2 === 1
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Runs `node bin/board.mjs …args` to completion; its wall time in ms, or a failure with its output. */
const timeCli = (repoRoot: string, args: ReadonlyArray<string>, env: Record<string, string>): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [path.join(repoRoot, "bin/board.mjs"), ...args], {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString()
    })
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString()
    })
    child.once("error", reject)
    child.once("exit", (code) => {
      const ms = performance.now() - started
      if (code === 0) resolve(ms)
      else reject(new Error(`board ${args.join(" ")} exited ${code}:\n${out.slice(-2000)}`))
    })
  })

/** One `board serve`: start to healthy (polled every 2 ms), then its RSS once idle. */
const timeServe = async (
  repoRoot: string,
  env: Record<string, string>,
  idleMs: number
): Promise<{ ms: number; rss: number | undefined }> => {
  const port = await freePort()
  const started = performance.now()
  const child: Child = spawnChild(
    "start-up probe server",
    process.execPath,
    [...SERVER_NODE_FLAGS, path.join(repoRoot, "bin/board.mjs"), "serve"],
    {
      cwd: repoRoot,
      env: { ...env, HOST: "127.0.0.1", PORT: String(port) }
    }
  )
  try {
    const deadline = started + 30_000
    for (;;) {
      if (child.hasExited()) throw new Error(`the start-up probe server exited:\n${child.output()}`)
      if (performance.now() > deadline)
        throw new Error(`the start-up probe server was not healthy within 30 s:\n${child.output()}`)
      const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
        (r) => r.arrayBuffer().then(() => r.status === 200),
        () => false
      )
      if (ok) break
      await sleep(2)
    }
    const ms = performance.now() - started
    await sleep(idleMs)
    return { ms, rss: readRss(child.pid) }
  } finally {
    await stopChild(child)
  }
}

export const measureStartup = async (options: {
  readonly repoRoot: string
  /** The server's environment (DATABASE_URL of the benchmark's database, already migrated). */
  readonly serverEnv: Record<string, string>
  readonly baseEnv: Record<string, string>
  readonly apiUrl: string
  readonly apiKey: string
  readonly cardRef: string
  readonly runs: number
  /** How long after healthy the idle RSS is read (2 s; a smoke run, whose figures mean nothing, waits less). */
  readonly idleMs?: number
  readonly log: (line: string) => void
}): Promise<StartupFigures> => {
  const { repoRoot, runs } = options
  const serveMs: Array<number> = []
  const idleRss: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const { ms, rss } = await timeServe(repoRoot, options.serverEnv, options.idleMs ?? 2_000)
    serveMs.push(ms)
    if (rss !== undefined) idleRss.push(rss)
  }
  // the CLI as a user runs it: no config file of theirs, the key and URL in the environment
  const cliEnv = {
    ...options.baseEnv,
    XDG_CONFIG_HOME: path.join(os.tmpdir(), "board-bench-cli-config"),
    BOARD_API_URL: options.apiUrl,
    BOARD_API_KEY: options.apiKey,
    NO_COLOR: "1"
  }
  const times = async (args: ReadonlyArray<string>) => {
    await timeCli(repoRoot, args, cliEnv) // the first run fills Node's compile cache
    const out: Array<number> = []
    for (let i = 0; i < runs * 2; i++) out.push(await timeCli(repoRoot, args, cliEnv))
    return out
  }
  const helpMs = await times(["--help"])
  const versionMs = await times(["--version"])
  const cardShowMs = await times(["card", "show", options.cardRef])
  options.log(
    `  serve to healthy: median ${median(serveMs).toFixed(0)} ms, idle RSS ${(median(idleRss) / 1048576).toFixed(0)} MiB; board --help ${median(helpMs).toFixed(0)} ms, --version ${median(versionMs).toFixed(0)} ms, card show ${median(cardShowMs).toFixed(0)} ms`
  )
  return { serveMs, idleRss, helpMs, versionMs, cardShowMs, cardRef: options.cardRef }
}
