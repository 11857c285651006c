/**
 * Issue 9 (part 4), a Jepsen-style set test: clients file cards and intake submissions with
 * unique titles while the server is killed with SIGKILL at random moments and restarted.
 * Every request that got a 2xx must be present exactly once afterwards, nothing may be
 * duplicated, and the server must restart cleanly every time. Seeded, bounded in time.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type Backend, dialectBackends as backends, createTestDatabase } from "./support/backends.ts"
import { bootstrap, call, key } from "./support/client.ts"
import { freePort } from "./support/server.ts"
import { migratedDataDir } from "./support/templates.ts"
import { spawnBoard, waitForHealth } from "./support/spawn.ts"

const CYCLES = Number(process.env.DURABILITY_CYCLES ?? 20)
const CLIENTS = 4

// a small seeded generator, so a failing run can be replayed with the same kill moments
const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const cleanups: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const c of cleanups.reverse()) await c()
})

describe.each(backends)("durability under SIGKILL on %s", (backend: Backend) => {
  it(`keeps every acknowledged write exactly once across ${CYCLES} kills`, async () => {
    const random = mulberry32(Number(process.env.DURABILITY_SEED ?? 7))
    // a fresh port for every start: a port this test just freed by a kill may be taken meanwhile
    // by another suite's server (the suites run side by side), and a restart on it would fail
    let port = await freePort()
    let base = `http://127.0.0.1:${port}/api`
    let env: Record<string, string | undefined>
    if (backend === "postgres") {
      const db = await createTestDatabase({ migrated: true })
      cleanups.push(db.drop)
      env = { DATABASE_URL: db.url, DATA_DIR: "memory:" }
    } else {
      const dir = migratedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), "board-durability-")))
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }))
      env = { DATABASE_URL: undefined, DATA_DIR: dir }
    }
    Object.assign(env, {
      PORT: String(port),
      LOG_LEVEL: "error",
      RATE_LIMIT: "1000000/60s",
      REDIS_URL: undefined,
      SECRET: "durability-secret-0123456789-0123456789"
    })

    let server = spawnBoard(["serve"], env)
    await waitForHealth(base, 60_000)
    const a = await bootstrap(base, "durable")
    const columnId = a.columns[0]!.id
    const token = (await call(base, "POST", "/v1/intake-tokens", { body: { columnId }, headers: key(a.apiKey) })).body
      .token as string
    const acked = new Set<string>()
    let sent = 0

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      let stop = false
      let ackedThisCycle = 0
      const loop = async (client: number) => {
        while (!stop) {
          const title = `c${cycle}-k${client}-${sent++}`
          const viaIntake = sent % 2 === 0
          try {
            const r = viaIntake
              ? await call(base, "POST", "/v1/intake", {
                  body: { title },
                  headers: { "x-intake-key": token, "idempotency-key": title }
                })
              : await call(base, "POST", "/v1/cards", {
                  body: { projectId: a.projectId, columnId, title },
                  headers: key(a.apiKey)
                })
            if (r.status >= 200 && r.status < 300) {
              acked.add(title)
              ackedThisCycle++
            }
          } catch {
            // the connection died with the server: this write is unacknowledged
          }
        }
      }
      const loops = Array.from({ length: CLIENTS }, (_, i) => loop(i))
      // the kill lands 100-500 ms after the restarted server acknowledged its first write of the
      // cycle: four clients have writes in flight at any moment of that, and what each kill tests
      // is the writes in flight then and those acknowledged before, not how many came before
      const firstAck = Date.now() + 30_000
      while (ackedThisCycle === 0 && Date.now() < firstAck) await new Promise((r) => setTimeout(r, 5))
      expect(ackedThisCycle, `cycle ${cycle}: no write acknowledged before the kill`).toBeGreaterThan(0)
      await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 400)))
      server.child.kill("SIGKILL")
      await server.exited
      stop = true
      await Promise.all(loops)
      port = await freePort()
      base = `http://127.0.0.1:${port}/api`
      env.PORT = String(port)
      server = spawnBoard(["serve"], env)
      await waitForHealth(base, 60_000)
    }

    const board = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: key(a.apiKey) })
    expect(board.status).toBe(200)
    const titles = board.body.cards.map((c: { title: string }) => c.title) as Array<string>
    const counts = new Map<string, number>()
    for (const t of titles) counts.set(t, (counts.get(t) ?? 0) + 1)
    const missing = [...acked].filter((t) => !counts.has(t))
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([t]) => t)
    expect(acked.size).toBeGreaterThan(CYCLES)
    expect(missing, `acknowledged but lost (of ${acked.size})`).toEqual([])
    expect(duplicated, "stored more than once").toEqual([])
    const positions = board.body.cards
      .filter((c: { columnId: string }) => c.columnId === columnId)
      .map((c: { position: number }) => c.position)
    expect(positions).toEqual(positions.map((_: number, i: number) => i))
    server.child.kill("SIGTERM")
    expect((await server.exited).code).toBe(0)
  }, 600_000)
})
