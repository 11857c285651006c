import { serverLayer } from "@board/http"
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Layer } from "effect"
import type { Command } from "commander"
import { stopWhenLauncherDies } from "../parentWatch.ts"
import { loadConfig, loggerLayer } from "../runtime.ts"

const oneLine = (cause: Cause.Cause<unknown>): string => {
  const e = Cause.squash(cause)
  const message = e instanceof Error ? e.message : String(e)
  return message.replace(/\s+/g, " ").trim()
}

/** Runs until SIGTERM or SIGINT, then closes the listener, the database and the DATA_DIR lock. */
export const runServe = () => {
  const config = loadConfig()
  stopWhenLauncherDies()
  const announce = Layer.effectDiscard(Effect.logInfo(
    `board listening on http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port} (API at ${config.publicUrl}/api, database: ${config.databaseUrl !== undefined ? "PostgreSQL" : config.dataDir === "memory:" ? "embedded, in memory" : `embedded in ${config.dataDir}`})`
  ))
  // announced only once the listener and the database are up
  Layer.launch(announce.pipe(Layer.provideMerge(serverLayer(config)), Layer.provide(loggerLayer(config)))).pipe(
    NodeRuntime.runMain({
      disableErrorReporting: true,
      // a signal is the normal way to stop a server: exit 0; a failure to start is one line and exit 1
      teardown: (exit, onExit) => {
        if (Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause)) return onExit(0)
        process.stderr.write(`board serve: ${oneLine(exit.cause)}\n`)
        onExit(1)
      }
    })
  )
}

export const registerServe = (program: Command) =>
  program
    .command("serve")
    .description("run the server (HOST, PORT, DATABASE_URL or DATA_DIR, see the README)")
    .addHelpText("after", "\nExamples:\n  board serve\n  PORT=9000 DATA_DIR=memory: board serve\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/board board serve\n")
    .action(runServe)
