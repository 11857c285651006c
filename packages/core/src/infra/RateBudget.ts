/**
 * Request budgets: per user, per intake token, per client address. Effect's RateLimiter does
 * the counting, in process or in Redis (one budget across instances, namespaced by this
 * database's install id). A store failure never fails a request: it is logged and the request
 * passes (fail open), so losing Redis degrades limits, not the API.
 *
 * Time: the in-process store reads Effect's Clock (MemoryRateStore.ts), so TestClock moves its
 * windows. The Redis store's fixed window is a counter with a Redis expiry (PX/PTTL) and takes
 * no time from the caller: the window is timed by Redis alone, one clock for every instance
 * sharing the budget, so instances whose clocks differ still agree on when a window ends.
 * That is kept on purpose; only this module's own bookkeeping (the warning's throttle) reads
 * the Clock.
 */
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { RateLimiter } from "effect/persistence"
import { SqlClient } from "effect/sql"
import { AppConfig, type RateLimitSetting } from "../Config.ts"
import { TooManyRequests } from "../domain/errors.ts"
import { layerMemoryRateStore } from "./MemoryRateStore.ts"

export interface BudgetState {
  readonly limit: number
  readonly remaining: number
  /** Seconds until the budget is whole again. */
  readonly resetSeconds: number
  readonly windowSeconds: number
}

export class RateBudget extends Context.Service<
  RateBudget,
  {
    /**
     * Spends one request from `key`'s budget (RATE_LIMIT unless another is given);
     * `undefined` when the store could not be asked.
     */
    readonly charge: (
      key: string,
      budget?: { readonly limit: number; readonly windowMs: number; readonly tokens?: number }
    ) => Effect.Effect<BudgetState | undefined, TooManyRequests>
    readonly setting: RateLimitSetting
    /** Answers when the store does (Redis: a PING); fails with the store's message otherwise. */
    readonly ping: Effect.Effect<void, string>
  }
>()("board/core/RateBudget") {}

const STORE_TIMEOUT = Duration.millis(250)

const make = (prefix: string, ping: Effect.Effect<void, string>) =>
  Effect.gen(function* () {
    const limiter = yield* RateLimiter.RateLimiter
    const config = yield* AppConfig
    const setting = config.rateLimit
    let lastWarning = 0
    // `tokens: 0` reads the budget without spending it (the login limit asks before it counts)
    const charge = (
      key: string,
      budget: { readonly limit: number; readonly windowMs: number; readonly tokens?: number } = setting
    ) => {
      const windowSeconds = Math.ceil(budget.windowMs / 1000)
      return limiter
        .consume({
          key: `${prefix}${key}`,
          limit: budget.limit,
          window: Duration.millis(budget.windowMs),
          tokens: budget.tokens ?? 1,
          onExceeded: "fail"
        })
        .pipe(
          Effect.timeoutOrElse({ duration: STORE_TIMEOUT, orElse: () => Effect.fail("timeout" as const) }),
          Effect.map((r): BudgetState | undefined => ({
            limit: r.limit,
            remaining: Math.max(0, r.remaining),
            resetSeconds: Math.max(0, Math.ceil(Duration.toMillis(r.resetAfter) / 1000)),
            windowSeconds
          })),
          Effect.catch((e) => {
            if (e !== "timeout" && e.reason._tag === "RateLimitExceeded") {
              const retry = Math.max(1, Math.ceil(Duration.toMillis(e.reason.retryAfter) / 1000))
              return Effect.fail(
                new TooManyRequests({
                  message: `rate limit exceeded: ${budget.limit} requests per ${windowSeconds}s; retry in ${retry}s`,
                  retryAfterSeconds: retry
                })
              )
            }
            return Effect.flatMap(Clock.currentTimeMillis, (now) => {
              if (now - lastWarning < 60_000) return Effect.succeed(undefined)
              lastWarning = now
              return Effect.logWarning(
                `rate-limit store unavailable, allowing requests (fail open): ${e === "timeout" ? "timed out" : e.reason.message}`
              ).pipe(Effect.as(undefined))
            })
          })
        )
    }
    return RateBudget.of({ charge, setting, ping })
  })

/** In-process counters (one process) or Redis (every instance), per configuration. */
export const RateBudgetLive = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.redisUrl === undefined) {
      return Layer.effect(RateBudget, make("", Effect.void)).pipe(
        Layer.provide(RateLimiter.layer),
        Layer.provide(layerMemoryRateStore)
      )
    }
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<{ value: string }>`SELECT value FROM board_settings WHERE key = 'install_id'`.pipe(
      Effect.orDie
    )
    const prefix = `board:${row?.value ?? "default"}:`
    // the Redis client is loaded only when REDIS_URL is set
    const NodeRedis = yield* Effect.promise(() => import("@effect/platform-node/NodeRedis"))
    const withPing = Effect.flatMap(Effect.service(NodeRedis.NodeRedis), (redis) =>
      make("", Effect.asVoid(redis.use((client) => client.ping())).pipe(Effect.mapError((e) => e.message)))
    )
    return Layer.effect(RateBudget, withPing).pipe(
      Layer.provide(RateLimiter.layer),
      Layer.provide(RateLimiter.layerStoreRedis({ prefix: `${prefix}rl:` })),
      Layer.provide(NodeRedis.layer({ url: config.redisUrl, disableOfflineQueue: true }))
    )
  })
)
