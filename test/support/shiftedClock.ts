/**
 * A clock for a whole test server that a test moves forward: the live clock plus an offset the
 * test adds to. Sleeps stay live (a TestClock would stop every timeout and schedule in the
 * server, from the HTTP layer's to the sweeps'), while every time the core reads or writes
 * (infra/clock.ts) follows the offset, so a lease or a token expires when the test says.
 */
import { Clock, Effect } from "effect"

export interface ShiftedClock {
  readonly clock: Clock.Clock
  /** Moves the server's time forward. */
  readonly advance: (millis: number) => void
  /** The server's time now, in milliseconds. */
  readonly now: () => number
}

export const makeShiftedClock = (): ShiftedClock => {
  let offset = 0
  const live = Effect.runSync(Clock.clockWith(Effect.succeed))
  const nanos = () => live.currentTimeNanosUnsafe() + BigInt(offset) * 1_000_000n
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: () => live.currentTimeMillisUnsafe() + offset,
    currentTimeMillis: Effect.sync(() => live.currentTimeMillisUnsafe() + offset),
    currentTimeNanosUnsafe: nanos,
    currentTimeNanos: Effect.sync(nanos),
    monotonicTimeNanosUnsafe: () => live.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: live.monotonicTimeNanos,
    sleep: (duration) => live.sleep(duration)
  }
  return {
    clock,
    advance: (millis) => {
      offset += millis
    },
    now: () => live.currentTimeMillisUnsafe() + offset
  }
}
