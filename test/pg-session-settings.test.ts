/**
 * The settings the server's PostgreSQL connections start with (infra/Database.ts,
 * `postgresSessionSettings`): JIT compilation off on the main pool and on the read pool, so a
 * statement whose cost estimate passes jit_above_cost (the board's, on a large database) is not
 * compiled on every call (issue 35). PostgreSQL only: the embedded database has no JIT.
 */
import { layerOwner, ReadSql } from "@board/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { postgresUrl } from "./support/backends.ts"

describe.skipIf(postgresUrl === undefined)("the server's PostgreSQL sessions", () => {
  it("run with jit off on both pools, whatever the server's default", async () => {
    const settings = await Effect.runPromise(
      Effect.gen(function* () {
        const main = yield* SqlClient.SqlClient
        const reads = yield* ReadSql
        const [server] = yield* main<{ jit: string }>`SELECT boot_val AS jit FROM pg_settings WHERE name = 'jit'`
        const [onMain] = yield* main<{ jit: string }>`SHOW jit`
        const [onReads] = yield* reads<{ jit: string }>`SHOW jit`
        return { server: server?.jit, main: onMain?.jit, reads: onReads?.jit }
      }).pipe(
        Effect.provide(
          layerOwner({ databaseUrl: postgresUrl, dataDir: "/nonexistent" } as Parameters<typeof layerOwner>[0])
        ),
        Effect.scoped
      )
    )
    // the server's own default is on (PostgreSQL 11 and later), so "off" comes from the connection
    expect(settings).toEqual({ server: "on", main: "off", reads: "off" })
  })
})
