/** `board serve`: loaded only when the command runs (the server is most of the bundle). */
import { serverLayer } from "@board/http"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { type AppConfigValues, maskUrlPassword } from "@board/core"
import { Cause, Effect, Exit, Layer } from "effect"
import { stopWhenLauncherDies } from "../support/parentWatch.ts"
import { loadConfig, loggerLayer } from "../support/operatorRuntime.ts"

/** The errors under a failure, outermost first (each `cause`, and an Effect error's `reason`). */
const chain = (e: unknown): Array<{ readonly tag?: string; readonly message: string; readonly code?: string }> => {
  const out: Array<{ tag?: string; message: string; code?: string }> = []
  type Link = { _tag?: string; message?: unknown; code?: unknown; reason?: unknown; cause?: unknown }
  let x = e as Link | null | undefined
  for (let depth = 0; x !== undefined && x !== null && depth < 8; depth++) {
    out.push({
      tag: x._tag,
      message: String(x.message ?? x)
        .replace(/\s+/g, " ")
        .trim(),
      code: typeof x.code === "string" ? x.code : undefined
    })
    x = (x.reason ?? x.cause) as Link | null | undefined
  }
  return out
}

/**
 * One line naming the setting to fix, for the failures an operator meets at start: a port in
 * use, a host that is not this machine's, a database or Redis that cannot be reached.
 */
export const describeStartFailure = (e: unknown, config: AppConfigValues): string => {
  const errors = chain(e)
  const detail = [...errors].reverse().find((x) => x.message !== "")?.message ?? "unknown error"
  const code = errors.find((x) => x.code !== undefined)?.code
  const top = errors[0]?.tag
  if (top === "ServeError") {
    if (code === "EADDRINUSE")
      return `PORT: port ${config.port} is already in use on ${config.host}; stop what holds it or choose another PORT`
    if (code === "EACCES")
      return `PORT: no permission to listen on port ${config.port} (ports below 1024 need privileges)`
    return `HOST: cannot listen on ${config.host}:${config.port} (${detail}); HOST must be an address of this machine, such as 127.0.0.1 or 0.0.0.0`
  }
  if (top === "SqlError") {
    return config.databaseUrl !== undefined
      ? `DATABASE_URL: cannot use PostgreSQL at ${maskUrlPassword(config.databaseUrl)} (${detail})`
      : `DATA_DIR: cannot open the embedded database in ${config.dataDir} (${detail})`
  }
  if (top === "RedisError")
    return `REDIS_URL: cannot reach Redis at ${maskUrlPassword(config.redisUrl ?? "")} (${detail})`
  return detail
}

/** Runs until SIGTERM or SIGINT, then closes the listener, the database and the DATA_DIR lock. */
export const runServe = () => {
  const config = loadConfig()
  stopWhenLauncherDies()
  const announce = Layer.effectDiscard(
    Effect.logInfo(
      `board listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port} (API at ${config.publicUrl}/api, database: ${config.databaseUrl !== undefined ? "PostgreSQL" : config.dataDir === "memory:" ? "embedded, in memory" : `embedded in ${config.dataDir}`})`
    )
  )
  // announced only once the listener and the database are up
  Layer.launch(announce.pipe(Layer.provideMerge(serverLayer(config)), Layer.provide(loggerLayer(config)))).pipe(
    NodeRuntime.runMain({
      disableErrorReporting: true,
      // a signal is the normal way to stop a server: exit 0; a failure to start is one line and exit 1
      teardown: (exit, onExit) => {
        if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return onExit(0)
        process.stderr.write(`board serve: ${describeStartFailure(Cause.squash(exit.cause), config)}\n`)
        onExit(1)
      }
    })
  )
}
