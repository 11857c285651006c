/**
 * Issue 17, start-up order: the configuration is validated, the port bound and Redis reached
 * before the database is opened or migrated, so a start that fails on a typo has not changed
 * the schema; a HOST beyond this machine needs PUBLIC_URL; a DATA_DIR that cannot be created
 * fails at once.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { createTestDatabase, postgresUrl } from "../support/backends.ts"
import { freePort } from "../support/server.ts"
import { spawnBoard } from "../support/spawn.ts"
import { tmpDirs } from "../support/tmp.ts"

const tmpDir = tmpDirs("board-startup-")

const env = (extra: Record<string, string>) => ({
  DATABASE_URL: undefined,
  REDIS_URL: undefined,
  PUBLIC_URL: undefined,
  HOST: undefined,
  // pretty: the one-line failures are plain text (serve.test.ts checks them as JSON lines)
  LOG_FORMAT: "pretty",
  ...extra
})

const holdPort = async () => {
  const taken = net.createServer()
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve))
  return { port: String((taken.address() as net.AddressInfo).port), close: () => taken.close() }
}

/** Whether the PostgreSQL database at `url` has the migrations' bookkeeping table. */
const hasMigrationsTable = (url: string) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1 })
        const [row] = yield* sql<{ t: string | null }>`SELECT to_regclass('board_migrations')::text AS t`
        return row?.t !== null && row?.t !== undefined
      })
    ).pipe(Effect.provide(Reactivity.layer), Effect.orDie)
  )

describe("start-up order (spawned board serve)", () => {
  it("a port in use stops the start before the embedded database is created or migrated", async () => {
    const taken = await holdPort()
    try {
      const dataDir = path.join(tmpDir(), "data")
      const p = spawnBoard(["serve"], env({ DATA_DIR: dataDir, PORT: taken.port }))
      const { code } = await p.exited
      expect(code, p.output()).toBe(1)
      expect(p.output().trim().split("\n").at(-1)).toMatch(
        new RegExp(`^board serve: PORT: port ${taken.port} is already in use`)
      )
      expect(fs.existsSync(path.join(dataDir, "pgdata"))).toBe(false)
    } finally {
      taken.close()
    }
  })

  it("an unreachable Redis stops the start before the embedded database is created", async () => {
    const dataDir = path.join(tmpDir(), "data")
    const p = spawnBoard(
      ["serve"],
      env({ DATA_DIR: dataDir, PORT: String(await freePort()), REDIS_URL: "redis://127.0.0.1:1" })
    )
    const { code } = await p.exited
    expect(code, p.output()).toBe(1)
    expect(p.output().trim().split("\n").at(-1)).toMatch(/^board serve: REDIS_URL: cannot reach Redis/)
    expect(fs.existsSync(path.join(dataDir, "pgdata"))).toBe(false)
  })

  it.skipIf(postgresUrl === undefined)(
    "on PostgreSQL, a port in use, a foreign HOST or an unreachable Redis leave a fresh database unmigrated",
    async () => {
      const db = await createTestDatabase()
      const taken = await holdPort()
      try {
        const cases: Array<[Record<string, string>, RegExp]> = [
          [{ PORT: taken.port }, /^board serve: PORT: /],
          [
            { HOST: "10.255.255.1", PUBLIC_URL: "https://board.example.com", PORT: String(await freePort()) },
            /^board serve: HOST: /
          ],
          [{ PORT: String(await freePort()), REDIS_URL: "redis://127.0.0.1:1" }, /^board serve: REDIS_URL: /]
        ]
        for (const [bad, line] of cases) {
          const p = spawnBoard(["serve"], env({ DATABASE_URL: db.url, ...bad }))
          const { code } = await p.exited
          expect(code, p.output()).toBe(1)
          expect(p.output().trim().split("\n").at(-1)).toMatch(line)
          expect(await hasMigrationsTable(db.url)).toBe(false)
        }
      } finally {
        taken.close()
        await db.drop()
      }
    }
  )

  it.each([["0.0.0.0"], ["::"], ["192.168.1.20"]])(
    "HOST=%s without PUBLIC_URL is refused with one line naming PUBLIC_URL",
    async (host) => {
      const p = spawnBoard(["serve"], env({ DATA_DIR: "memory:", HOST: host, PORT: String(await freePort()) }))
      const { code } = await p.exited
      expect(code).toBe(2)
      const lines = p.output().trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/^configuration error: PUBLIC_URL: required when HOST \(.+\) is not a loopback address/)
    }
  )

  it("DATA_DIR that cannot be created (/proc/nope) fails within 5 s with one line naming DATA_DIR", async () => {
    const started = Date.now()
    const p = spawnBoard(["serve"], env({ DATA_DIR: "/proc/nope", PORT: String(await freePort()) }))
    const timer = setTimeout(() => p.child.kill("SIGKILL"), 10_000)
    const { code } = await p.exited
    clearTimeout(timer)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(code).not.toBe(0)
    const lines = p.output().trim().split("\n")
    expect(lines.at(-1)).toMatch(/^board serve: DATA_DIR: cannot use \/proc\/nope /)
  })
})
