import { serverLayer } from "@board/http"
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import type { Command } from "commander"
import { loadConfig, loggerLayer } from "../runtime.ts"

/** Runs until SIGTERM or SIGINT, then closes the listener, the database and the DATA_DIR lock. */
export const runServe = () => {
  const config = loadConfig()
  const announce = Layer.effectDiscard(Effect.logInfo(
    `board listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port} (API at ${config.publicUrl}/api, database: ${config.databaseUrl !== undefined ? "PostgreSQL" : config.dataDir === "memory:" ? "embedded, in memory" : `embedded in ${config.dataDir}`})`
  ))
  Layer.launch(Layer.mergeAll(serverLayer(config), announce).pipe(Layer.provide(loggerLayer(config)))).pipe(
    Effect.tapCause((cause) => Effect.logError("server stopped", cause)),
    NodeRuntime.runMain({ disableErrorReporting: true })
  )
}

export const registerServe = (program: Command) =>
  program
    .command("serve")
    .description("run the server (HOST, PORT, DATABASE_URL or DATA_DIR, see the README)")
    .addHelpText("after", "\nExamples:\n  board serve\n  PORT=9000 DATA_DIR=memory: board serve\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/board board serve\n")
    .action(runServe)
