/**
 * Readiness: whether this instance can serve requests now, as opposed to health (the process
 * answers at all). The database answers a `SELECT 1`, and Redis (when REDIS_URL is set) a
 * PING, each within the deadline; the first that does not is named with its cause, so a load
 * balancer takes the instance out and an operator reads what to fix. Beside it, what the
 * metrics report of the database: its connections by state.
 */
import { Context, Data, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../Config.ts"
import { RateBudget } from "./RateBudget.ts"

/** How long each dependency has to answer: well under a load balancer's usual 5 s probe timeout. */
export const READY_DEADLINE = Duration.seconds(2)

export class NotReady extends Data.TaggedError("NotReady")<{
  readonly component: "database" | "redis"
  readonly message: string
}> {}

export interface ReadyReport {
  readonly database: "postgresql" | "embedded"
  readonly redis: "ok" | "not configured"
}

/** The messages down an error's chain (`reason`, `cause`), distinct, so the root cause shows. */
const causeText = (e: unknown): string => {
  const seen: Array<string> = []
  let x = e as { message?: unknown; reason?: unknown; cause?: unknown } | null | undefined
  for (let depth = 0; x !== undefined && x !== null && depth < 6; depth++) {
    const message = typeof x.message === "string" ? x.message.replace(/\s+/g, " ").trim() : ""
    if (message !== "" && !seen.some((m) => m.includes(message))) seen.push(message)
    x = (x.reason ?? x.cause) as typeof x
  }
  return seen.join(": ") || String(e)
}

const within = <A, E>(component: NotReady["component"], check: Effect.Effect<A, E>, cause: (e: E) => string) =>
  check.pipe(
    Effect.mapError((e) => new NotReady({ component, message: `${component}: ${cause(e)}` })),
    Effect.timeoutOrElse({
      duration: READY_DEADLINE,
      orElse: () =>
        Effect.fail(
          new NotReady({ component, message: `${component}: no answer within ${Duration.format(READY_DEADLINE)}` })
        )
    })
  )

/** A count of the database's connections in one state (`active`, `idle`, ...). */
export interface ConnectionCount {
  readonly state: string
  readonly count: number
}

export class Readiness extends Context.Service<
  Readiness,
  {
    readonly check: Effect.Effect<ReadyReport, NotReady>
    /**
     * PostgreSQL's view of this database's connections (the pools of every instance), within a
     * second; undefined on the embedded database (one session, no pool to report) or when the
     * view does not answer in time.
     */
    readonly connections: Effect.Effect<ReadonlyArray<ConnectionCount> | undefined>
  }
>()("board/core/Readiness") {
  static readonly layer = Layer.effect(
    Readiness,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const budget = yield* RateBudget
      const config = yield* AppConfig
      const report: ReadyReport = {
        database: config.databaseUrl !== undefined ? "postgresql" : "embedded",
        redis: config.redisUrl !== undefined ? "ok" : "not configured"
      }
      const database = within("database", sql`SELECT 1`, causeText)
      const redis = config.redisUrl === undefined ? Effect.void : within("redis", budget.ping, (e) => e)
      const connections =
        config.databaseUrl === undefined
          ? Effect.succeed(undefined)
          : sql<ConnectionCount>`
              SELECT coalesce(state, 'unknown') AS state, count(*)::int AS count FROM pg_stat_activity
              WHERE datname = current_database() GROUP BY 1`.pipe(
              Effect.timeout("1 second"),
              Effect.orElseSucceed(() => undefined)
            )
      return Readiness.of({ check: Effect.andThen(database, redis).pipe(Effect.as(report)), connections })
    })
  )
}
