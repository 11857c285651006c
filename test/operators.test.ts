/**
 * Issue 17: operator commands that cannot target the wrong data, and one owner for the embedded
 * database's one session. The real `board` binary runs beside a server on the same DATA_DIR.
 */
import { execFile, execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postgresUrl } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { spawnBoard } from "./support/spawn.ts"
import { tmpDirs } from "./support/tmp.ts"

const tmpDir = tmpDirs("board-ops-")

const board = async (args: ReadonlyArray<string>, env: Record<string, string | undefined>, cwd?: string) => {
  const p = spawnBoard(args, { DATABASE_URL: undefined, REDIS_URL: undefined, S3_BUCKET: undefined, ...env }, cwd)
  const { code } = await p.exited
  return { code, output: p.output() }
}

const which = (program: string): string | undefined => {
  try {
    return execFileSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" }).trim() || undefined
  } catch {
    return undefined
  }
}

describe("operator commands never create a data directory", () => {
  it.each([["migrate"], ["desktop", "publish", "--platform", "linux-x64", "--version", "1.0.0", "--notes", "n"]])(
    "board %s run where there is no DATA_DIR refuses with one line and creates nothing",
    async (...args) => {
      const cwd = tmpDir()
      const artifact = path.join(cwd, "app.AppImage")
      fs.writeFileSync(artifact, "binary")
      const r = await board(args[0] === "desktop" ? [...args, artifact] : args, { DATA_DIR: undefined }, cwd)
      expect(r.code, r.output).toBe(2)
      expect(r.output).toContain(`no embedded database in ${fs.realpathSync(cwd)}/.board-data`)
      expect(r.output).toMatch(/set DATA_DIR to the server's data directory/)
      expect(fs.existsSync(path.join(cwd, ".board-data"))).toBe(false)
    }
  )
})

describe("beside a server that owns the embedded database", () => {
  let dataDir: string
  let server: TestServer
  let a: Account
  beforeAll(async () => {
    dataDir = tmpDir()
    server = await startServer("pglite", { DATA_DIR: dataDir })
    a = await bootstrap(server.baseUrl, "ops")
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })

  it("migrate goes through the server and says which database it used", async () => {
    const r = await board(["migrate"], { DATA_DIR: dataDir })
    expect(r.code, r.output).toBe(0)
    expect(r.output).toContain(
      `board migrate: database: embedded in ${path.resolve(dataDir)}, through the running server`
    )
    expect(r.output).toContain("database is up to date")
  })

  it("a PostgreSQL client on DATA_DIR (the real pg_dump) is refused, pointed to board backup, and the server keeps working", async (ctx) => {
    const pgDump = which("pg_dump")
    if (pgDump === undefined) {
      process.stderr.write("SKIPPED: pg_dump is not installed here; the refusal of outside clients is not exercised\n")
      ctx.skip()
      return
    }
    // asynchronously: the server answering it runs in this process
    const output = await new Promise<string>((resolve) =>
      execFile(pgDump, ["-h", dataDir, "-U", "postgres", "postgres"], { timeout: 20_000 }, (_e, _out, err) =>
        resolve(String(err))
      )
    )
    expect(output).toContain("belongs to the board server")
    expect(output).toContain("board backup")
    // the session the server uses is untouched: requests still see their tables
    const created = await call(server.baseUrl, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "after pg_dump" },
      headers: key(a.apiKey)
    })
    expect(created.status, created.text).toBe(201)
  })

  it("publish and migrate in a loop beside 20 clients creating cards and filing intake: no 5xx, every acknowledged card once", async () => {
    const token = await call(server.baseUrl, "POST", "/v1/intake-tokens", {
      body: { columnId: a.columns[0]!.id, name: "loop" },
      headers: key(a.apiKey)
    })
    expect(token.status).toBe(201)
    const artifact = path.join(tmpDir(), "app.AppImage")
    fs.writeFileSync(artifact, Buffer.alloc(64 * 1024, 7))

    let running = true
    const statuses = new Map<number, number>()
    const acknowledged: Array<string> = []
    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const title = `loop ${n}.${i}`
        const r =
          i % 2 === 0
            ? await call(server.baseUrl, "POST", "/v1/cards", {
                body: { projectId: a.projectId, columnId: a.columns[1]!.id, title },
                headers: key(a.apiKey)
              })
            : await call(server.baseUrl, "POST", "/v1/intake", {
                body: { title },
                headers: { "x-intake-key": token.body.token }
              })
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
        if (r.status === 201) acknowledged.push(title)
      }
    }
    const operators = async () => {
      const results: Array<{ code: number | null; output: string }> = []
      for (let v = 0; v < 4; v++) {
        results.push(await board(["migrate"], { DATA_DIR: dataDir }))
        results.push(
          await board(
            ["desktop", "publish", "--platform", "linux-x64", "--version", `1.0.${v}`, "--notes", `v${v}`, artifact],
            { DATA_DIR: dataDir }
          )
        )
      }
      return results
    }
    const clients = Array.from({ length: 20 }, (_, n) => client(n))
    const results = await operators()
    running = false
    await Promise.all(clients)

    for (const r of results) expect(r.code, r.output).toBe(0)
    expect([...statuses.keys()].filter((s) => s >= 500)).toEqual([])
    expect(acknowledged.length).toBeGreaterThan(100)
    const rows = await server.query<{ title: string; n: number }>(
      "SELECT title, count(*)::int AS n FROM cards WHERE title LIKE 'loop %' GROUP BY title"
    )
    const counts = new Map(rows.map((r) => [r.title, r.n]))
    for (const title of acknowledged) expect(counts.get(title), title).toBe(1)
    const latest = await call(server.baseUrl, "GET", "/v1/desktop/releases/latest?platform=linux-x64", {
      headers: key(a.apiKey)
    })
    expect(latest.body).toMatchObject({ version: "1.0.3" })
  }, 120_000)
})

describe.skipIf(postgresUrl === undefined)("publish on PostgreSQL with local files", () => {
  it("refuses when its DATA_DIR is not the one the server serves files from", async () => {
    const serverDir = tmpDir()
    const server = await startServer("postgres", { DATA_DIR: serverDir })
    try {
      const elsewhere = tmpDir()
      const artifact = path.join(elsewhere, "app.AppImage")
      fs.writeFileSync(artifact, "binary")
      const r = await board(
        ["desktop", "publish", "--platform", "linux-x64", "--version", "1.0.0", "--notes", "n", artifact],
        { DATA_DIR: elsewhere, DATABASE_URL: server.config.databaseUrl }
      )
      expect(r.code, r.output).toBe(2)
      expect(r.output).toContain(`the server serves desktop builds from ${path.join(path.resolve(serverDir), "files")}`)
      expect(r.output).toContain("board desktop publish: database: PostgreSQL at")
      const same = await board(
        ["desktop", "publish", "--platform", "linux-x64", "--version", "1.0.0", "--notes", "n", artifact],
        { DATA_DIR: serverDir, DATABASE_URL: server.config.databaseUrl }
      )
      expect(same.code, same.output).toBe(0)
      expect(same.output).toContain(`files: ${path.join(path.resolve(serverDir), "files")}`)
    } finally {
      await server.stop()
    }
  }, 60_000)
})
