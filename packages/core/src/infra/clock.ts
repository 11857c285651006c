/**
 * Where the core's time comes from: Effect's `Clock`, never the database's `now()`. Every
 * time the core writes (created_at, updated_at, revoked_at, …) or compares (an expiry, a
 * retention cut-off) is read here and passed into SQL as a parameter, so `TestClock` moves
 * every expiry in a test, and two app instances and their database agree on what a time means
 * (the instances' clocks, kept by NTP; the database's clock decides nothing). The columns'
 * `DEFAULT now()` stays in the migrations for rows written by hand, but the core always gives
 * the value.
 *
 * One operation reads the clock once and uses that value for all its statements, as `now()`
 * was one value (the transaction's start) for a whole transaction.
 */
import { Clock, Effect } from "effect"

/**
 * A time as a `timestamptz` literal with microseconds, PostgreSQL's own precision: rows
 * ordered by a time (newest first, `ORDER BY created_at, id`) keep the order they were
 * written in even when several are written within one millisecond, as they did under `now()`.
 * Bound as text and cast in the statement (`${at}::timestamptz`), exact on both backends.
 */
export const timestampOf = (nanos: bigint): string => {
  const millis = nanos / 1_000_000n
  const micros = Number((nanos / 1_000n) % 1_000n)
  return `${new Date(Number(millis)).toISOString().slice(0, -1)}${String(micros).padStart(3, "0")}Z`
}

/** The current time from Effect's `Clock`, as a `timestamptz` literal (see `timestampOf`). */
export const sqlNow: Effect.Effect<string> = Effect.map(Clock.currentTimeNanos, timestampOf)
