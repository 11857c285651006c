/**
 * What the operator commands (serve, migrate, desktop publish, backup, restore) share: the server's configuration
 * from the environment and Effect's log format. Kept apart from runtime.ts so that the client
 * commands never load the core.
 */
import {
  type AppConfigValues,
  AdminFailure,
  ConfigInvalid,
  effectLogger,
  maskUrlPassword,
  type OperatorTarget,
  operatorTarget,
  parseConfig
} from "@board/core"
import { Cause, Effect, Exit, Layer, Logger, References } from "effect"
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

/** Effect's own log lines (startup, migrations) in the one format of the request log (logLines.ts). */
export const loggerLayer = (config: AppConfigValues) =>
  Layer.mergeAll(
    Logger.layer([config.logFormat === "json" ? effectLogger("json") : Logger.consolePretty()]),
    Layer.succeed(References.MinimumLogLevel, levels[config.logLevel])
  )

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

/**
 * The database an operator command works on (never a data directory it would create), announced
 * on stderr with the command's name; a refusal is a usage error naming what was looked for.
 */
export const targetFor = (config: AppConfigValues, command: string): OperatorTarget => {
  try {
    const target = operatorTarget(config, command)
    process.stderr.write(`${command}: database: ${target.database}\n`)
    return target
  } catch (e) {
    throw operatorFailure(command, config, e)
  }
}

/**
 * Runs an operator command's program; a failure becomes one line: a refusal or the owner's
 * domain error as it is, a database or storage failure naming the variable to fix.
 */
export const runOperator = async <A>(
  command: string,
  config: AppConfigValues,
  program: Effect.Effect<A, unknown>,
  usageTags: ReadonlyArray<string> = ["InvalidInput"]
): Promise<A> => {
  const exit = await Effect.runPromiseExit(program)
  if (Exit.isSuccess(exit)) return exit.value
  throw operatorFailure(command, config, Cause.squash(exit.cause), usageTags)
}

/** Errors of the domain whose message already says what to fix. */
const domainTags = ["InvalidInput", "Conflict", "NotFound"]

/** One line for a failed operator command. */
export const operatorFailure = (
  command: string,
  config: AppConfigValues,
  e: unknown,
  usageTags: ReadonlyArray<string> = ["InvalidInput"]
): CliExit => {
  if (e instanceof CliExit) return e
  const tag =
    e instanceof AdminFailure ? e.tag : typeof e === "object" && e !== null && "_tag" in e ? String(e._tag) : ""
  const message = e instanceof Error ? e.message : String(e)
  if (tag === "OperatorRefused") return new CliExit(exitCodes.usage, message)
  if (domainTags.includes(tag)) {
    return new CliExit(usageTags.includes(tag) ? exitCodes.usage : exitCodes.error, `${command}: ${message}`)
  }
  return new CliExit(exitCodes.error, `${command} failed: ${describeStartFailure(e, config)}`)
}
