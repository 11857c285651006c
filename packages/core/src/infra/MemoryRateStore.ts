/**
 * The in-process rate-limit store (no REDIS_URL). Effect's `layerStoreMemory` keeps a counter for
 * every key it has ever seen, and budgets are keyed by client address, so a public instance
 * would grow by one entry per distinct address for as long as it runs. This store counts fixed
 * windows exactly as Effect's does and, at most once per sweep interval, forgets counters whose
 * window has passed (a forgotten counter and a passed one read the same: an empty budget), so
 * memory follows the clients of the last window. The other algorithms, which the service does
 * not use, stay Effect's.
 */
import { Duration, Effect, Layer } from "effect"
import { RateLimiter } from "effect/persistence"

const SWEEP_INTERVAL_MS = 60_000

export interface MemoryRateStore {
  readonly store: RateLimiter.RateLimiterStore["Service"]
  /** Counters held now (for tests and diagnostics). */
  readonly size: () => number
}

export const makeMemoryRateStore: Effect.Effect<MemoryRateStore> = Effect.gen(function* () {
  const fallback = yield* RateLimiter.RateLimiterStore.pipe(Effect.provide(RateLimiter.layerStoreMemory))
  const counters = new Map<string, { count: number; expiresAt: number }>()
  let nextSweep = 0
  const sweep = (now: number) => {
    if (now < nextSweep) return
    nextSweep = now + SWEEP_INTERVAL_MS
    for (const [key, counter] of counters) {
      if (counter.expiresAt <= now) counters.delete(key)
    }
  }
  const fixedWindow: RateLimiter.RateLimiterStore["Service"]["fixedWindow"] = (options) =>
    Effect.clockWith((clock) =>
      Effect.sync(() => {
        const now = clock.currentTimeMillisUnsafe()
        sweep(now)
        let counter = counters.get(options.key)
        if (counter === undefined || counter.expiresAt <= now) {
          counter = { count: 0, expiresAt: now }
          counters.set(options.key, counter)
        }
        if (options.limit !== undefined && counter.count + options.tokens > options.limit) {
          return [counter.count + options.tokens, counter.expiresAt - now] as const
        }
        counter.count += options.tokens
        counter.expiresAt += Duration.toMillis(options.refillRate) * options.tokens
        return [counter.count, counter.expiresAt - now] as const
      })
    )
  return { store: RateLimiter.RateLimiterStore.of({ ...fallback, fixedWindow }), size: () => counters.size }
})

export const layerMemoryRateStore: Layer.Layer<RateLimiter.RateLimiterStore> = Layer.effect(
  RateLimiter.RateLimiterStore,
  Effect.map(makeMemoryRateStore, (m) => m.store)
)
