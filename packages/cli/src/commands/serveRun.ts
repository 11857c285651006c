/** `board serve`: loaded only when the command runs (the server is most of the bundle). */
import { serverLayer } from "@board/http"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit, Layer } from "effect"
import { stopWhenLauncherDies } from "../support/parentWatch.ts"
import { describeStartFailure, loadConfig, loggerLayer } from "../support/operatorRuntime.ts"

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
