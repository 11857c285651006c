import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { isRaceLost, retryRaces, StaleOrder } from "./orderKeys.ts"

// the shape @effect/sql-pg gives a failed statement: the server's fields under reason.cause
const sqlError = (code: string, constraint?: string) => ({ _tag: "SqlError", reason: { cause: { code, constraint } } })

describe("orderKeys: which failures a one-statement write runs again", () => {
  it.each([
    ["two writers drew the same order key", sqlError("23505", "cards_order_unique"), true],
    ["the column went away after the snapshot", sqlError("23503", "cards_column_id_fkey"), true],
    ["a deadlock", sqlError("40P01"), true],
    ["a serialization failure", sqlError("40001"), true],
    ["a repeated ref (a sequence set back by hand)", sqlError("23505", "cards_ref_unique"), false],
    ["a vanished creator", sqlError("23503", "cards_created_by_fkey"), false],
    ["a syntax error", sqlError("42601"), false],
    ["anything else", new Error("boom"), false]
  ])("%s: %s", (_what, error, expected) => {
    expect(isRaceLost(error)).toBe(expected)
  })

  it("runs a lost race or a stale snapshot again until it wins", async () => {
    let attempts = 0
    const write = Effect.suspend((): Effect.Effect<string, unknown> => {
      attempts++
      return attempts === 1
        ? Effect.fail(sqlError("23505", "cards_order_unique"))
        : attempts === 2
          ? Effect.fail(new StaleOrder())
          : Effect.succeed("written")
    })
    expect(await Effect.runPromise(retryRaces(write))).toBe("written")
    expect(attempts).toBe(3)
  })

  it("gives up on a failure no rerun can fix at once", async () => {
    let attempts = 0
    const write = Effect.suspend(() => {
      attempts++
      return Effect.fail(sqlError("23505", "cards_ref_unique"))
    })
    await expect(Effect.runPromise(retryRaces(write))).rejects.toBeDefined()
    expect(attempts).toBe(1)
  })
})
