import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { RateLimiter } from "effect/persistence"
import { TestClock } from "effect/testing"
import { makeMemoryRateStore } from "./MemoryRateStore.ts"

const consume = (limiter: RateLimiter.RateLimiter, key: string, limit = 3) =>
  Effect.result(limiter.consume({ key, limit, window: Duration.minutes(1), onExceeded: "fail" }))

describe("in-process rate store", () => {
  it.effect("counts a fixed window like Effect's store: the limit holds, then the window passes", () =>
    Effect.gen(function* () {
      const { store } = yield* makeMemoryRateStore
      const limiter = yield* RateLimiter.make.pipe(Effect.provideService(RateLimiter.RateLimiterStore, store))
      for (let i = 0; i < 3; i++) expect((yield* consume(limiter, "ip:a"))._tag).toBe("Success")
      expect((yield* consume(limiter, "ip:a"))._tag).toBe("Failure")
      expect((yield* consume(limiter, "ip:b"))._tag).toBe("Success")
      yield* TestClock.adjust(Duration.minutes(1))
      expect((yield* consume(limiter, "ip:a"))._tag).toBe("Success")
    })
  )

  it.effect("forgets counters whose window has passed, so distinct clients do not pile up", () =>
    Effect.gen(function* () {
      const memory = yield* makeMemoryRateStore
      const limiter = yield* RateLimiter.make.pipe(Effect.provideService(RateLimiter.RateLimiterStore, memory.store))
      yield* TestClock.adjust(Duration.hours(1))
      for (let i = 0; i < 5_000; i++) yield* consume(limiter, `ip:10.0.${i >> 8}.${i & 255}`)
      expect(memory.size()).toBe(5_000)
      yield* consume(limiter, "ip:a")
      expect(memory.size()).toBe(5_001)
      yield* TestClock.adjust(Duration.minutes(2))
      yield* consume(limiter, "ip:late")
      expect(memory.size()).toBe(1)
    })
  )

  it.effect("keeps a counter whose window is still open through a sweep", () =>
    Effect.gen(function* () {
      const memory = yield* makeMemoryRateStore
      const limiter = yield* RateLimiter.make.pipe(Effect.provideService(RateLimiter.RateLimiterStore, memory.store))
      yield* TestClock.adjust(Duration.hours(1))
      yield* consume(limiter, "ip:old")
      yield* TestClock.adjust(Duration.seconds(59))
      for (let i = 0; i < 3; i++) yield* consume(limiter, "ip:busy")
      yield* TestClock.adjust(Duration.seconds(2))
      // the sweep runs now: ip:old's window has passed, ip:busy's (a minute from its third request) has not
      yield* consume(limiter, "ip:other")
      expect(memory.size()).toBe(2)
      expect((yield* consume(limiter, "ip:busy"))._tag).toBe("Failure")
    })
  )
})
