/**
 * The embedded database's one session, as the server's SQL client reaches it
 * (core/infra/Database.ts): an interrupted statement and a connection that goes away mid
 * transaction leave the session serving the next statement at once.
 */
import { Effect, Exit, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { holdEmbedded, withOtherConnection } from "./support/embeddedHold.ts"
import { startServer, type TestServer } from "./support/server.ts"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe("the embedded database's one session", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer("pglite")
  })
  afterAll(() => server?.stop())

  // sql-pg cancels an interrupted statement on a side connection and waits for the server to
  // close it; pglite-socket ignores the request and kept it open, so each interruption of a
  // statement in flight took sql-pg's 5 s cancel timeout (a revoked event stream ended that late).
  it("interrupting a statement that waits in PGlite ends once the statement is done, not 5 s later", async () => {
    const hold = holdEmbedded(server)
    try {
      const outcome = server.run(
        Effect.scoped(
          Effect.gen(function* () {
            // the server's one connection, reserved first: the statement below is the one on the
            // wire (not one waiting for the connection behind a background job's)
            const connection = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql.reserve)
            yield* Effect.promise(() => hold.holding)
            const waiting = yield* Effect.forkChild(connection.executeRaw("SELECT 1", []))
            yield* Effect.sleep(200)
            const interrupting = yield* Effect.forkChild(Fiber.interrupt(waiting))
            yield* Effect.promise(() => sleep(100).then(hold.release))
            yield* Fiber.join(interrupting)
            return { at: Date.now(), exit: yield* Fiber.await(waiting) }
          })
        )
      )
      const { at, exit } = await outcome
      const released = await hold.released
      // the statement really was waiting (it did not answer before the interruption)
      expect(Exit.hasInterrupts(exit)).toBe(true)
      expect(at - released, "the interruption waited for a cancel request PGlite never answers").toBeLessThan(2_000)
    } finally {
      await hold.release()
    }
    expect(await server.query("SELECT 2 AS n")).toEqual([{ n: 2 }])
  }, 30_000)

  // pglite-socket's queue runs only the statements of the connection inside a transaction; a
  // connection that closed inside one (its client dropped it) was never told apart from a slow
  // one, so every other statement waited for it forever.
  it("a connection that closes inside a transaction rolls it back, and the next statement runs", async () => {
    await server.query("CREATE TABLE IF NOT EXISTS session_probe (n int)")
    await withOtherConnection(server, (other) =>
      Effect.scoped(
        Effect.gen(function* () {
          const connection = yield* other.reserve
          yield* connection.executeRaw("BEGIN", [])
          yield* connection.executeRaw("INSERT INTO session_probe VALUES (1)", [])
        })
      )
    )
    const answered = await Promise.race([
      server.query<{ n: number }>("SELECT count(*)::int AS n FROM session_probe"),
      sleep(10_000).then(() => "no answer in 10 s" as const)
    ])
    expect(answered).toEqual([{ n: 0 }])
  }, 30_000)
})
