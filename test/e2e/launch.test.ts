/**
 * Issue 28, "a server runs until it is told to stop": the README's `npx -y pnpm@10 start`,
 * launched the way a deploy script, a CI step or an ssh session does (in the background, then
 * the shell exits), keeps serving; a SIGTERM or SIGINT to npx, to pnpm or to the server stops
 * the server gracefully, and npx exits only after it (what a supervisor expects).
 *
 * The chain is npx -> pnpm -> node: the project's .npmrc makes npx run pnpm under bash, which
 * execs it (Debian's dash forked it and died on the SIGTERM npx forwards, orphaning the server),
 * and the start script execs node. Each process forwards the signal to the one below and
 * waits for it. The server used to watch its ancestors and stop itself, logging a SIGTERM
 * nobody sent, when the launching shell exited.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { freePort } from "../support/server.ts"
import { embeddedEnv, isListening, spawnProcess, waitForHealth } from "../support/spawn.ts"
import { migratedDataDir } from "../support/templates.ts"
import { tmpDirs } from "../support/tmp.ts"

const tmpDir = tmpDirs("board-launch-")
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The embedded database, and npm offline: `npx -y pnpm@10` would otherwise ask the registry
 * (registry.npmjs.org) which pnpm 10 is newest on every launch, and tests send nothing off this
 * machine. npx runs the pnpm 10 its cache holds: the README's install (`npx -y pnpm@10 install`,
 * as .ci/run does) put it there. The command and its process chain are the same.
 */
const env = (extra: Record<string, string>) => embeddedEnv({ npm_config_offline: "true", ...extra })

/** A process's state letter from /proc, or undefined once it is gone. */
const processState = (pid: number): string | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]
  } catch {
    return undefined
  }
}
/** Running: neither gone nor a zombie waiting for a parent to reap it. */
const running = (pid: number) => {
  const state = processState(pid)
  return state !== undefined && state !== "Z" && state !== "X"
}

const childrenOf = (pid: number): Array<number> => {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(" ")
      .filter((s) => s !== "")
      .map(Number)
  } catch {
    return []
  }
}
const commandLine = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim()
  } catch {
    return ""
  }
}
/** Every process under `pid`, with its command line. */
const descendants = (pid: number): Array<{ pid: number; command: string }> =>
  childrenOf(pid).flatMap((child) => [{ pid: child, command: commandLine(child) }, ...descendants(child)])

// a test that fails must not leave its server behind (they outlive their launcher, by design)
const launched: Array<{ pid: number; command: string }> = []
const noted = (processes: Array<{ pid: number; command: string }>) => {
  launched.push(...processes)
  return processes
}
afterEach(() => {
  for (const p of launched.splice(0))
    if (running(p.pid) && commandLine(p.pid) === p.command) process.kill(p.pid, "SIGKILL")
})

const waitUntil = async (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

const logLines = (file: string) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as { msg: string; signal?: string })

/**
 * Runs the README's command from a bash script that puts it in the background and exits once
 * the server is healthy (as a deploy script does); returns the npx pid and the server's log.
 */
const launchFromAScriptThatExits = async (nohup: boolean) => {
  const dir = tmpDir()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}/api`
  const log = path.join(dir, "server.log")
  const go = path.join(dir, "go")
  const script = spawnProcess(
    "bash",
    [
      "-c",
      // the script outlives the server's start, so that the server has a parent chain to lose
      `${nohup ? "nohup " : ""}npx -y pnpm@10 start > "$LOG" 2>&1 &
       echo "$!"
       while [ ! -e "$GO" ]; do sleep 0.05; done
       exit 0`
    ],
    // a copy of the run's migrated database: these tests are about signals, not a first start
    env({ DATA_DIR: migratedDataDir(path.join(dir, "data")), PORT: String(port), LOG: log, GO: go })
  )
  await waitUntil("the npx pid", () => script.output().includes("\n"), 10_000)
  const npx = Number(script.output().trim())
  noted([{ pid: npx, command: commandLine(npx) }])
  await waitForHealth(base, 60_000)
  const chain = noted(descendants(npx))
  const server = chain.find((p) => p.command.includes("bin/board.mjs serve"))
  expect(server, JSON.stringify(chain)).toBeDefined()
  fs.writeFileSync(go, "")
  expect((await script.exited).code).toBe(0)
  return { npx, chain, server: server!.pid, base, log, dataDir: path.join(dir, "data") }
}

/** Healthy for `ms`, checked every 100 ms. */
const staysHealthy = async (base: string, ms: number) => {
  const until = Date.now() + ms
  while (Date.now() < until) {
    const res = await fetch(`${base}/v1/health`, { signal: AbortSignal.timeout(2000) })
    expect(res.status).toBe(200)
    await sleep(100)
  }
}

describe("the README's `npx -y pnpm@10 start`", () => {
  it.each([
    ["nohup … &", "npx", true],
    ["a background job without nohup", "pnpm", false]
  ] as const)(
    "started as %s from a shell that exits keeps serving; SIGTERM to %s then stops it gracefully, leaving no process",
    async (_how, target, nohup) => {
      const launched = await launchFromAScriptThatExits(nohup)
      // the ancestor watch stopped it 0.35–0.46 s after the shell exited
      await staysHealthy(launched.base, 2500)
      expect(logLines(launched.log).map((l) => l.msg)).not.toContain("shutting down on SIGTERM")
      expect(running(launched.server)).toBe(true)

      const pnpm = launched.chain.find((p) => /pnpm(\.cjs)? start/.test(p.command) && p.pid !== launched.server)
      expect(pnpm, JSON.stringify(launched.chain)).toBeDefined()
      process.kill(target === "npx" ? launched.npx : pnpm!.pid, "SIGTERM")
      await waitUntil(
        "every process of the chain to end",
        () => ![launched.npx, ...launched.chain.map((p) => p.pid)].some(running)
      )
      expect(await isListening(launched.base)).toBe(false)
      expect(fs.existsSync(path.join(launched.dataDir, "board.lock"))).toBe(false)
      const lines = logLines(launched.log)
      expect(lines.at(-2)).toMatchObject({ msg: "shutting down on SIGTERM", signal: "SIGTERM" })
      expect(lines.at(-1)).toMatchObject({ msg: "stopped", signal: "SIGTERM" })
    }
  )

  it.each(["SIGTERM", "SIGINT"] as const)(
    "%s to npx: a request in flight is answered, the server stops, and npx exits 0 only after it",
    async (signal) => {
      const dataDir = migratedDataDir(tmpDir())
      const port = await freePort()
      const base = `http://127.0.0.1:${port}/api`
      const npx = spawnProcess("npx", ["-y", "pnpm@10", "start"], env({ DATA_DIR: dataDir, PORT: String(port) }))
      await waitForHealth(base, 60_000)
      const chain = noted(descendants(npx.child.pid!))
      const server = chain.find((p) => p.command.includes("bin/board.mjs serve"))
      expect(server, JSON.stringify(chain)).toBeDefined()
      let serverEndedAt: number | undefined
      const watch = setInterval(() => {
        if (serverEndedAt === undefined && !running(server!.pid)) serverEndedAt = Date.now()
      }, 10)

      // a signup whose body is still arriving when the signal comes
      const body = JSON.stringify({ email: "late@example.com", password: "correct horse battery", full_name: "Late" })
      const answered = new Promise<number>((resolve, reject) => {
        const request = http.request(
          `${base}/v1/auth/signup`,
          {
            method: "POST",
            headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
          },
          (response) => {
            response.resume()
            response.on("end", () => resolve(response.statusCode ?? 0))
          }
        )
        request.on("error", reject)
        request.write(body.slice(0, 10))
        setTimeout(() => {
          npx.child.kill(signal)
          setTimeout(() => request.end(body.slice(10)), 700)
        }, 300)
      })
      expect(await answered, npx.output()).toBe(201)
      const exit = await npx.exited
      const exitedAt = Date.now()
      clearInterval(watch)
      expect(exit, npx.output()).toEqual({ code: 0, signal: null })
      expect(serverEndedAt, "the server ended before npx").toBeDefined()
      expect(serverEndedAt!).toBeLessThanOrEqual(exitedAt)
      expect(chain.filter((p) => running(p.pid))).toEqual([])
      expect(fs.existsSync(path.join(dataDir, "board.lock"))).toBe(false)
      const lines = npx
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
      expect(lines.at(-1)).toMatchObject({ msg: "stopped", signal })
    }
  )
})
