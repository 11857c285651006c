/**
 * Ways to make a test server's embedded database wait. PGlite has one session, and pglite-socket
 * runs each connection's protocol messages one at a time, interleaving connections message by
 * message outside a transaction: a second connection beside the server's own can take over the
 * server's unnamed portal ("portal does not exist"). So these never talk beside the server's
 * connection: `holdEmbedded` stops PGlite itself, and `withOtherConnection` reserves the
 * server's connection while it talks.
 */
import { EmbeddedDatabase } from "@board/core"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import type { TestServer } from "./server.ts"

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Runs `use` with a client of its own on the server's embedded database (one connection), while
 * the server's own connection is reserved and silent: the server's statements wait in its pool.
 */
export const withOtherConnection = <A>(
  server: TestServer,
  use: (other: SqlClient.SqlClient) => Effect.Effect<A, unknown>
): Promise<A> =>
  server.run(
    Effect.scoped(
      Effect.gen(function* () {
        const embedded = yield* Effect.service(EmbeddedDatabase)
        yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql.reserve)
        const other = yield* PgClient.make({
          stream: embedded.connect,
          username: "postgres",
          database: "postgres",
          maxConnections: 1
        })
        return yield* use(other)
      })
    ).pipe(Effect.provide(Reactivity.layer), Effect.orDie)
  )

/**
 * Stops PGlite from running any statement until `release()` (or 10 s): call it in a `finally`.
 * A statement sent meanwhile is in flight, waiting inside PGlite as behind a long one.
 * `holding` resolves once PGlite is held; `released` says when it let go.
 */
export const holdEmbedded = (server: TestServer) => {
  let letGo!: () => void
  const done = new Promise<void>((r) => {
    letGo = r
  })
  let releasedAt = 0
  const holding = server.run(Effect.service(EmbeddedDatabase)).then((embedded) => {
    let held!: () => void
    const started = new Promise<void>((r) => {
      held = r
    })
    const whole = embedded.db.runExclusive(async () => {
      held()
      await Promise.race([done, sleep(10_000)])
      releasedAt = Date.now()
    })
    return { started, whole }
  })
  const released = holding.then(({ whole }) => whole).then(() => releasedAt)
  return {
    holding: holding.then(({ started }) => started),
    released,
    release: () => {
      letGo()
      return released
    }
  }
}
