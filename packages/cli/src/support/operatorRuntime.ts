/**
 * What the operator commands (serve, migrate, desktop publish) share: the server's configuration
 * from the environment and Effect's log format. Kept apart from runtime.ts so that the client
 * commands never load the core.
 */
import { ConfigInvalid, parseConfig, type AppConfigValues } from "@board/core"
import { Layer, Logger, References } from "effect"
import { CliExit, exitCodes } from "./runtime.ts"

/** Reads the configuration, or stops with one line naming the bad variable. */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): AppConfigValues => {
  try {
    return parseConfig(env, { stdoutIsTty: process.stdout.isTTY === true })
  } catch (e) {
    if (e instanceof ConfigInvalid) throw new CliExit(exitCodes.usage, `configuration error: ${e.message}`)
    throw e
  }
}

const levels = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

/** Effect's own log lines (startup, migrations) in the same format as the request log. */
export const loggerLayer = (config: AppConfigValues) =>
  Layer.mergeAll(
    Logger.layer([config.logFormat === "json" ? Logger.consoleJson : Logger.consolePretty()]),
    Layer.succeed(References.MinimumLogLevel, levels[config.logLevel])
  )
