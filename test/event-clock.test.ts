/**
 * Events restored into another PostgreSQL server (migrations/0030_event_clock.sql). A restore
 * with pg_restore brings events whose tx (their transaction's id) lies far above the new
 * server's ids; here the same rows are made in place, by moving every event's tx a billion ids
 * ahead, which is what a restore from a server that had run a billion transactions more gives.
 * After a restart, history lists them, the board's cursor names the newest, and an event written
 * afterwards sorts after them, so a client resuming from its last id hears of it.
 */
import { describe, expect, it } from "vitest"
import { type Backend, dialectBackends as backends, restartableDatabases } from "./support/backends.ts"
import { bootstrap, call, key } from "./support/client.ts"
import { waitFor } from "./support/poll.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { tmpDirs } from "./support/tmp.ts"

const tmpDir = tmpDirs("board-event-clock-")
const AHEAD = 1_000_000_000

describe.each(backends)("the event clock after a restore from another server, on %s", (backend: Backend) => {
  const database = restartableDatabases(backend, tmpDir)

  it("keeps restored events readable and in order before every later one", async () => {
    // one database for both servers: the restart is what a server on a restored database does first
    const env = await database()
    let server: TestServer = await startServer({ backend, env })
    try {
      const a = await bootstrap(server.baseUrl, "clock")
      const h = key(a.apiKey)
      for (const title of ["First", "Second"]) {
        const r = await call(server.baseUrl, "POST", "/v1/cards", {
          body: { projectId: a.projectId, columnId: a.columns[0]!.id, title },
          headers: h
        })
        expect(r.status).toBe(201)
      }
      const history = async () => {
        const r = await call(server.baseUrl, "GET", `/v1/projects/${a.projectId}/events`, { headers: h })
        expect(r.status).toBe(200)
        return (r.body.events as Array<{ id: string; type: string }>).map((e) => e.id)
      }
      // history once it lists `count` events: a transaction of the server's own, a background
      // job's, may hold the newest back for a moment (docs/events.md, how the log is ordered)
      const historyOf = (count: number) =>
        waitFor(`history to list ${count} events`, async () => {
          const ids = await history()
          return ids.length === count ? ids : undefined
        })
      await historyOf(2)

      // the rows a restore from a server a billion transactions ahead brings
      await server.query(`UPDATE events SET tx = tx + ${AHEAD}`)
      const restored = (
        await server.query<{ id: string }>(
          `SELECT lpad(to_hex(tx), 12, '0') || lpad(to_hex(n), 12, '0') AS id FROM events WHERE project_id = $1 ORDER BY tx, n`,
          [a.projectId]
        )
      ).map((r) => r.id)
      expect(restored).toHaveLength(2)
      // what a server without the clock answers on such a database: nothing, until its own ids pass them
      expect(await history()).toEqual([])

      await server.stop()
      server = await startServer({ backend, env })
      const [clock] = await server.query<{ xid_offset: string }>("SELECT xid_offset::text FROM event_clock")
      expect(BigInt(clock!.xid_offset)).toBeGreaterThan(0n)

      // the restored events, with the ids clients hold, and the board's cursor at the newest
      expect(await historyOf(2)).toEqual(restored)
      // (on PostgreSQL a transaction open anywhere on the server, another suite's too, holds the
      // cursor back while it runs, by design: so the newest id is awaited, with a deadline)
      await waitFor("the board's cursor to name the newest restored event", async () => {
        const board = await call(server.baseUrl, "GET", `/v1/board/${a.projectId}`, { headers: h })
        return board.body.eventCursor === restored[1] ? true : undefined
      })

      // an event written now sorts after them: a client resuming from the last restored id gets it
      const third = await call(server.baseUrl, "POST", "/v1/cards", {
        body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "Third" },
        headers: h
      })
      expect(third.status).toBe(201)
      const after = await call(server.baseUrl, "GET", `/v1/projects/${a.projectId}/events?after=${restored[1]}`, {
        headers: h
      })
      expect(after.status).toBe(200)
      expect(after.body.events.map((e: { type: string; data: any }) => [e.type, e.data.object.title])).toEqual([
        ["card.created", "Third"]
      ])
      const all = await historyOf(3)
      expect(all.slice(0, 2)).toEqual(restored)
      expect(all[2]! > restored[1]!).toBe(true)

      // a later start changes nothing: the clock is already ahead
      await server.stop()
      server = await startServer({ backend, env })
      const [again] = await server.query<{ xid_offset: string }>("SELECT xid_offset::text FROM event_clock")
      expect(again!.xid_offset).toBe(clock!.xid_offset)
      expect(await historyOf(3)).toEqual(all)
    } finally {
      await server.stop()
    }
  })
})
