/** `board serve`: loaded only when the command runs (the server is most of the bundle). */
import { formatLine, type LogLevelName, logFormatFor, Readiness } from "@board/core"
import { serverLayer, serviceVersion } from "@board/http"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit, Layer } from "effect"
import { CliExit } from "../support/runtime.ts"
import { describeStartFailure, loadConfig, loggerLayer } from "../support/operatorRuntime.ts"

/** Runs until SIGTERM or SIGINT, then closes the listener, the database and the DATA_DIR lock. */
export const runServe = () => {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (e) {
    // a bad value stops the start with one line; in JSON mode a JSON log line like every other
    if (e instanceof CliExit && logFormatFor(process.env, { stdoutIsTty: process.stdout.isTTY === true }) === "json")
      throw new CliExit(e.code, formatLine("json", "error", e.message))
    throw e
  }
  const startedAt = performance.now()
  const infoOn = config.logLevel === "debug" || config.logLevel === "info"
  // the lines written outside Effect's logger (the signal, the stop, the fatal error), in the one format
  const write = (level: LogLevelName, msg: string, fields?: Record<string, unknown>) =>
    process.stdout.write(`${formatLine(config.logFormat, level, msg, fields)}\n`)
  // NodeRuntime interrupts the server on these; this only notes when and why, for the stop line.
  // Only a signal that arrived stops the server (no watch of the launchers: the end of the shell
  // that started it in the background is no reason to stop). Node does not expose the sender's
  // pid, so the line names the signal alone.
  let stopping: { readonly signal: string; readonly at: number } | undefined
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      if (stopping !== undefined) return
      stopping = { signal, at: performance.now() }
      if (infoOn) write("info", `shutting down on ${signal}`, { signal })
    })
  }
  const host = config.host.includes(":") ? `[${config.host}]` : config.host
  const database =
    config.databaseUrl !== undefined
      ? "PostgreSQL"
      : config.dataDir === "memory:"
        ? "embedded, in memory"
        : `embedded in ${config.dataDir}`
  const announce = Layer.effectDiscard(
    Effect.gen(function* () {
      yield* Effect.logInfo(
        `board listening on http://${host}:${config.port} (API at ${config.publicUrl}/api, database: ${database})`
      ).pipe(Effect.annotateLogs({ version: serviceVersion, host: config.host, port: config.port }))
      // what /api/v1/ready would answer now, so the log shows when the instance could take traffic
      const readiness = yield* Readiness
      const startupMs = Math.round(performance.now() - startedAt)
      yield* readiness.check.pipe(
        Effect.matchEffect({
          onSuccess: (report) => Effect.logInfo("ready").pipe(Effect.annotateLogs({ ...report, startupMs })),
          onFailure: (e) => Effect.logWarning(`not ready: ${e.message}`).pipe(Effect.annotateLogs({ startupMs }))
        })
      )
    })
  )
  // one line naming the setting; in JSON mode one more line of the log's one shape (on stderr all the same)
  const fatal = (e: unknown) => {
    const line = `board serve: ${describeStartFailure(e, config)}`
    process.stderr.write(`${config.logFormat === "json" ? formatLine("json", "error", line) : line}\n`)
  }
  let server: ReturnType<typeof serverLayer>
  try {
    // building the layers already touches DATA_DIR (the generated secret), and may fail
    server = serverLayer(config)
  } catch (e) {
    fatal(e)
    process.exitCode = 1
    return
  }
  // announced only once the listener and the database are up
  Layer.launch(announce.pipe(Layer.provideMerge(server), Layer.provide(loggerLayer(config)))).pipe(
    NodeRuntime.runMain({
      disableErrorReporting: true,
      // a signal is the normal way to stop a server: exit 0; a failure to start is one line and exit 1
      teardown: (exit, onExit) => {
        if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) {
          if (infoOn && stopping !== undefined) {
            write("info", "stopped", {
              signal: stopping.signal,
              shutdownMs: Math.round(performance.now() - stopping.at)
            })
          }
          return onExit(0)
        }
        fatal(Cause.squash(exit.cause))
        onExit(1)
      }
    })
  )
}
