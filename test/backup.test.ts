/**
 * Issue 17: `board backup FILE` and `board restore FILE` on each database. Fill a board, back it
 * up (beside the running server), restore it elsewhere, start a server there and compare through
 * the API: accounts, keys, the board, intake tokens and desktop releases with their files.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { type Backend, dialectBackends as backends, createTestDatabase } from "./support/backends.ts"
import { type Account, bootstrap, call, key, SUITE_PASSWORD } from "./support/client.ts"
import { startServer } from "./support/server.ts"
import { spawnBoard } from "./support/spawn.ts"
import { tmpDirs } from "./support/tmp.ts"

const tmpDir = tmpDirs("board-backup-")

const board = async (args: ReadonlyArray<string>, env: Record<string, string | undefined>) => {
  const p = spawnBoard(args, {
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    S3_BUCKET: undefined,
    SECRET: undefined,
    ...env
  })
  const { code } = await p.exited
  return { code, output: p.output() }
}

const installed = (tool: string): boolean => {
  try {
    execFileSync(tool, ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/** What a user sees through the API: compared before the backup and after the restore. */
const snapshot = async (base: string, a: Account) => {
  const h = key(a.apiKey)
  const boardJson = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: h })
  const workspaces = await call(base, "GET", "/v1/workspaces", { headers: h })
  const tokens = await call(base, "GET", `/v1/projects/${a.projectId}/intake-tokens`, { headers: h })
  const release = await call(base, "GET", "/v1/desktop/releases/latest?platform=linux-x64", { headers: h })
  const link = await call(base, "GET", "/v1/desktop/download?platform=linux-x64&redirect=false", { headers: h })
  const file = link.status === 200 ? Buffer.from(await (await fetch(link.body.url)).arrayBuffer()) : undefined
  // The cursor is held back while any transaction of the PostgreSQL cluster runs (boardJson.ts's
  // eventCursorSql), and other suites share this cluster: it is compared apart, by order.
  const { eventCursor, ...board } = boardJson.body
  return {
    statuses: [boardJson.status, workspaces.status, tokens.status, release.status, link.status],
    board,
    eventCursor: eventCursor as string,
    workspaces: workspaces.body,
    tokens: tokens.body,
    release: release.body,
    file: file?.toString("base64")
  }
}

describe.each(backends)("backup and restore on %s", (backend: Backend) => {
  it("a restore into an empty place gives back every account, board, card, token and release", async (ctx) => {
    if (backend === "postgres" && !(installed("pg_dump") && installed("pg_restore"))) {
      process.stderr.write(
        "SKIPPED: pg_dump/pg_restore are not installed here; the PostgreSQL backup is not exercised\n"
      )
      ctx.skip()
      return
    }
    const dataDir = tmpDir()
    const server = await startServer(backend, { DATA_DIR: dataDir })
    const base = server.baseUrl
    let target: { url: string; drop: () => Promise<void> } | undefined
    try {
      const a = await bootstrap(base, "backup")
      const h = key(a.apiKey)
      for (const title of ["First", "Second", "Third"]) {
        const r = await call(base, "POST", "/v1/cards", {
          body: { projectId: a.projectId, columnId: a.columns[0]!.id, title, description: `about ${title}` },
          headers: h
        })
        expect(r.status).toBe(201)
      }
      const token = await call(base, "POST", "/v1/intake-tokens", {
        body: { columnId: a.columns[0]!.id, name: "form" },
        headers: h
      })
      expect(token.status).toBe(201)
      const artifact = path.join(tmpDir(), "app.AppImage")
      fs.writeFileSync(artifact, Buffer.from("the build's bytes"))
      const env = { DATA_DIR: dataDir, DATABASE_URL: server.config.databaseUrl }
      const published = await board(
        ["desktop", "publish", "--platform", "linux-x64", "--version", "2.0.0", "--notes", "n", artifact],
        env
      )
      expect(published.code, published.output).toBe(0)
      const before = await snapshot(base, a)
      expect(before.statuses).toEqual([200, 200, 200, 200, 200])

      const file = path.join(tmpDir(), "board.tar")
      const backup = await board(["backup", file], env)
      expect(backup.code, backup.output).toBe(0)
      expect(backup.output).toContain(
        backend === "pglite" ? "through the running server" : "board backup: database: PostgreSQL at"
      )
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)

      // restore somewhere else, then serve it
      const restoredDir = path.join(tmpDir(), "restored")
      target = backend === "postgres" ? await createTestDatabase() : undefined
      const restoreEnv = { DATA_DIR: restoredDir, DATABASE_URL: target?.url }
      const restore = await board(["restore", file], restoreEnv)
      expect(restore.code, restore.output).toBe(0)
      // a second restore over it is refused and changes nothing
      const again = await board(["restore", file], restoreEnv)
      expect(again.code, again.output).toBe(2)
      expect(again.output).toMatch(/already holds a (database|board)/)

      await server.stop()
      const restored = await startServer(backend, {
        DATA_DIR: restoredDir,
        ...(target !== undefined ? { DATABASE_URL: target.url } : {})
      })
      try {
        const { eventCursor: cursorAfter, ...after } = await snapshot(restored.baseUrl, a)
        const { eventCursor: cursorBefore, ...expected } = before
        // download links differ in their origin and signature; the bytes must not
        expect(after).toEqual(expected)
        // the events came along: the restored board's cursor is never before the original's
        expect(cursorAfter).toMatch(/^[0-9a-f]{24}$/)
        expect(cursorAfter >= cursorBefore, `${cursorAfter} before ${cursorBefore}`).toBe(true)
        const login = await call(restored.baseUrl, "POST", "/v1/auth/login", {
          body: { email: a.email, password: SUITE_PASSWORD }
        })
        expect(login.status).toBe(200)
        const filed = await call(restored.baseUrl, "POST", "/v1/intake", {
          body: { title: "after the restore" },
          headers: { "x-intake-key": token.body.token }
        })
        expect(filed.status).toBe(201)
      } finally {
        await restored.stop()
      }
    } finally {
      await server.stop().catch(() => {})
      await target?.drop()
    }
  }, 120_000)
})

describe("restore refuses what it cannot do", () => {
  it("a file that is not a backup, and a backup of the other database kind", async () => {
    const junk = path.join(tmpDir(), "junk.tar")
    fs.writeFileSync(junk, "not a tar")
    const r = await board(["restore", junk], { DATA_DIR: path.join(tmpDir(), "x") })
    expect(r.code, r.output).toBe(2)
    expect(r.output).toMatch(/is not a board backup/)
  })
})
