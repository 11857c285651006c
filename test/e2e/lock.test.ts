/**
 * Issue 28, low finding: the DATA_DIR lock refused a restart 0.4 s after a SIGKILL. A killed
 * server answers signal 0 while the kernel tears down its memory and then as a zombie until its
 * parent reaps it; and a pid in an old lock may since belong to another process. The lock
 * counts its owner alive only while that very process (pid and start time) still runs.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { freePort } from "../support/server.ts"
import {
  boardBin,
  embeddedEnv,
  SPAWNED_NODE_FLAGS,
  type Spawned,
  spawnBoard,
  spawnProcess,
  waitForHealth
} from "../support/spawn.ts"
import { migratedDataDir } from "../support/templates.ts"
import { tmpDirs } from "../support/tmp.ts"

// a migrated database to start from: these tests are about the lock, not a first start
const tmpDir = (() => {
  const fresh = tmpDirs("board-lock-")
  return () => migratedDataDir(fresh())
})()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const env = embeddedEnv

const procStat = (pid: number): Array<string> | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  } catch {
    return undefined
  }
}

const spawned: Array<Spawned> = []
const track = (p: Spawned) => {
  spawned.push(p)
  return p
}
afterEach(() => {
  for (const p of spawned.splice(0))
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL")
})

/** Starts `board serve` on `dataDir` and a fresh port; resolves once healthy, or fails with its output. */
const serve = async (dataDir: string) => {
  const port = await freePort()
  const server = track(spawnBoard(["serve"], env({ DATA_DIR: dataDir, PORT: String(port) })))
  const base = `http://127.0.0.1:${port}/api`
  const ended = server.exited.then(() => {
    throw new Error(`the server exited instead of serving: ${server.output()}`)
  })
  await Promise.race([waitForHealth(base, 60_000), ended])
  ended.catch(() => {})
  return { server, base }
}

describe.skipIf(process.platform !== "linux")("the DATA_DIR lock after a SIGKILL", () => {
  it("a restart at once after each of 10 SIGKILLs takes the directory every time", async () => {
    const dataDir = tmpDir()
    let { server } = await serve(dataDir)
    for (let round = 0; round < 10; round++) {
      server.child.kill("SIGKILL")
      // at once: not waiting for the killed process to be gone (each start takes a fresh port:
      // the dying process may hold its listening socket a little longer, a separate matter)
      ;({ server } = await serve(dataDir))
    }
    server.child.kill("SIGTERM")
    expect((await server.exited).code).toBe(0)
    expect(fs.existsSync(path.join(dataDir, "board.lock"))).toBe(false)
  }, 120_000) // eleven starts and ten SIGKILLs: on a slow shared machine, more than the default 60 s

  it("an owner killed but not yet reaped by its parent (a zombie) does not hold the directory", async () => {
    const dataDir = tmpDir()
    const port = await freePort()
    // the server's parent becomes `sleep`, which never reaps a child: once killed, it stays a zombie
    const holder = track(
      spawnProcess(
        "sh",
        ["-c", `"$0" "$@" serve & echo "$!"; exec sleep 120`, process.execPath, ...SPAWNED_NODE_FLAGS, boardBin],
        env({ DATA_DIR: dataDir, PORT: String(port) })
      )
    )
    await waitForHealth(`http://127.0.0.1:${port}/api`, 60_000)
    const owner = Number(holder.output().split("\n")[0])
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, "board.lock"), "utf8")).pid).toBe(owner)
    process.kill(owner, "SIGKILL")
    const deadline = Date.now() + 30_000
    while (procStat(owner)?.[0] !== "Z") {
      if (Date.now() > deadline) throw new Error(`pid ${owner} did not become a zombie: ${procStat(owner)?.[0]}`)
      await sleep(20)
    }
    const { server } = await serve(dataDir)
    server.child.kill("SIGTERM")
    expect((await server.exited).code).toBe(0)
  })

  it("a lock whose pid now belongs to another process is taken; one naming the live process itself is not", async () => {
    const dataDir = tmpDir()
    fs.mkdirSync(dataDir, { recursive: true })
    const other = track(spawnProcess("sleep", ["120"]))
    const started = procStat(other.child.pid!)![19]!
    const lock = (processStart: string) =>
      fs.writeFileSync(
        path.join(dataDir, "board.lock"),
        JSON.stringify({ pid: other.child.pid, socket: "", startedAt: new Date().toISOString(), processStart })
      )

    // the same pid, started at another time: the lock's owner is gone
    lock(String(Number(started) - 1))
    const { server } = await serve(dataDir)
    server.child.kill("SIGTERM")
    expect((await server.exited).code).toBe(0)

    // that very process: still refused
    lock(started)
    const refused = track(spawnBoard(["serve"], env({ DATA_DIR: dataDir, PORT: String(await freePort()) })))
    expect((await refused.exited).code).toBe(1)
    expect(refused.output()).toContain(`is in use by another board process (pid ${other.child.pid})`)
  })
})
