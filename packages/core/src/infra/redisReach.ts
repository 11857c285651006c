/**
 * Start-up order: Redis is reached before the database is opened or migrated, so that a start
 * with an unreachable REDIS_URL fails (one line naming REDIS_URL) without having changed the
 * schema. The rate budget opens its own connection later: its key prefix needs the install id,
 * which the migrations create.
 */
import { Effect, Layer } from "effect"
import type { AppConfigValues } from "../Config.ts"

export const layerRedisReached = ({ redisUrl: url }: AppConfigValues): Layer.Layer<never, unknown> =>
  url === undefined
    ? Layer.empty
    : Layer.effectDiscard(
        Effect.gen(function* () {
          // the Redis client is loaded only when REDIS_URL is set
          const NodeRedis = yield* Effect.promise(() => import("@effect/platform-node/NodeRedis"))
          // building the layer connects (a RedisError when it cannot); the scope closes it again
          yield* Effect.scoped(Layer.build(NodeRedis.layer({ url, disableOfflineQueue: true })))
        })
      )
