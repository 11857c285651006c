/** Spawns the real `bin/board.mjs` (or any command) and waits for what tests need. */
import { type ChildProcess, spawn } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url))
export const boardBin = path.join(repoRoot, "bin/board.mjs")

export interface Spawned {
  readonly child: ChildProcess
  readonly output: () => string
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

export const spawnProcess = (
  command: string,
  args: ReadonlyArray<string>,
  env: Record<string, string | undefined> = {},
  cwd: string = repoRoot
): Spawned => {
  const child = spawn(command, [...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let out = ""
  child.stdout!.on("data", (d) => (out += d))
  child.stderr!.on("data", (d) => (out += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal }))
  )
  return { child, output: () => out, exited }
}

/**
 * Node's flags for the `board` programs the tests spawn (`spawnBoard`, `runBoard`, and the few
 * tests that write their own command line). `--liftoff-only` keeps PGlite's WebAssembly on V8's
 * baseline compiler: a spawned program lives for seconds, and V8 otherwise spends them optimizing
 * PostgreSQL's largest functions on a background thread (one alone takes about 2.3 s of CPU) that
 * the program is stopped before it gains from. Measured on an embedded `board serve` that starts,
 * signs up and stops: 2.5 s of CPU instead of 5.5 (docs/development.md). Only how V8 compiles
 * changes, not what runs. The tests of production's own command lines (supervisor, launch, the
 * benchmark's smoke run) and `pnpm start`, the container and the benchmarks keep V8's defaults.
 */
export const SPAWNED_NODE_FLAGS: ReadonlyArray<string> = ["--liftoff-only"]

/** `board <args>` on this process's Node (the project's Node 24 under vitest), with SPAWNED_NODE_FLAGS. */
export const spawnBoard = (args: ReadonlyArray<string>, env: Record<string, string | undefined> = {}, cwd?: string) =>
  spawnProcess(process.execPath, [...SPAWNED_NODE_FLAGS, boardBin, ...args], env, cwd)

export const waitForHealth = async (baseUrl: string, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/v1/health`)
      if (res.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`server at ${baseUrl} did not become healthy in ${timeoutMs} ms`)
}

export const isListening = async (baseUrl: string): Promise<boolean> => {
  try {
    await fetch(`${baseUrl}/v1/health`, { signal: AbortSignal.timeout(1000) })
    return true
  } catch {
    return false
  }
}

/**
 * The environment of a spawned `board serve` on the embedded database: none of the suite's
 * DATABASE_URL, REDIS_URL, PUBLIC_URL or HOST leaks in, and the log is JSON lines; `extra` wins.
 */
export const embeddedEnv = (extra: Record<string, string>): Record<string, string | undefined> => ({
  DATABASE_URL: undefined,
  REDIS_URL: undefined,
  PUBLIC_URL: undefined,
  HOST: undefined,
  LOG_FORMAT: "json",
  ...extra
})
