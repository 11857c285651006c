/**
 * The global options and where each setting comes from: a flag, else the environment, else
 * the config file, else the default (`--api-url` only). Resolved once per command run.
 */
import { Context } from "effect"
import { type Command, Option } from "commander"
import { type ConfigFile, configPath, ConfigUnreadable, readConfig } from "./config.ts"
import { defaultTimeout, parseTimeout, type Timeout } from "./deadline.ts"
import { CliExit, exitCodes } from "./runtime.ts"

export const defaultApiUrl = "http://127.0.0.1:8080/api"

export interface Globals {
  readonly apiUrl?: string
  readonly apiKey?: string
  readonly json?: boolean
  readonly quiet?: boolean
  readonly timeout?: string
}

export type Source = "flag" | "env" | "config" | "default" | "none"

export interface SettingsValues {
  /** The API root as the user knows it, ending in `/api` (`http://127.0.0.1:8080/api`). */
  readonly apiUrl: string
  /** The origin the typed client prefixes: the contract's paths already start with `/api`. */
  readonly origin: string
  readonly apiUrlSource: Source
  readonly apiKey: string | undefined
  readonly apiKeySource: Source
  readonly intakeKey: string | undefined
  readonly configPath: string
  readonly config: ConfigFile
  readonly json: boolean
  readonly quiet: boolean
  /** Each request's deadline: --timeout, else BOARD_TIMEOUT, else 30 s (deadline.ts). */
  readonly timeout: Timeout
  readonly env: NodeJS.ProcessEnv
}

export class Settings extends Context.Service<Settings, SettingsValues>()("board/cli/Settings") {}

export const globalOptions = (program: Command) =>
  program
    .addOption(
      new Option(
        "--api-url <url>",
        `the server's API root; else BOARD_API_URL, else the saved one, else ${defaultApiUrl}`
      ).env("BOARD_API_URL")
    )
    .addOption(
      new Option(
        "--api-key <key>",
        "API key (svc_…); else BOARD_API_KEY, else the one saved by `board auth signup|login`"
      ).env("BOARD_API_KEY")
    )
    .option("--json", "print data as JSON (stdout), for scripts")
    .option("-q, --quiet", "print no progress messages on stderr (data and errors still print)")
    .addOption(
      new Option(
        "--timeout <duration>",
        `how long each request may take before the command gives up (30s, 2m, or seconds); else BOARD_TIMEOUT, else ${defaultTimeout.text}`
      ).env("BOARD_TIMEOUT")
    )

/** `http://h:8080`, `http://h:8080/`, `http://h:8080/api/` all mean the API root `http://h:8080/api`. */
export const normalizeApiUrl = (raw: string): { apiUrl: string; origin: string } => {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new CliExit(exitCodes.usage, `--api-url: ${JSON.stringify(raw)} is not a URL; for example ${defaultApiUrl}`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new CliExit(exitCodes.usage, `--api-url: must be an http or https URL, for example ${defaultApiUrl}`)
  }
  url.search = ""
  url.hash = ""
  const path = url.pathname.replace(/\/+$/, "")
  const base = path.endsWith("/api") ? path.slice(0, -4) : path
  const origin = `${url.origin}${base}`
  return { apiUrl: `${origin}/api`, origin }
}

const sourceOf = (cmd: Command, key: string): Source => {
  const s = cmd.getOptionValueSourceWithGlobals(key)
  return s === "cli" ? "flag" : s === "env" ? "env" : "none"
}

/** Reads the globals of the command being run, the environment and the config file. */
export const resolveSettings = (cmd: Command, env: NodeJS.ProcessEnv = process.env): SettingsValues => {
  const globals = cmd.optsWithGlobals<Globals>()
  const file = configPath(env)
  let config: ConfigFile
  try {
    config = readConfig(file)
  } catch (e) {
    if (e instanceof ConfigUnreadable) throw new CliExit(exitCodes.error, `error: ${e.message}`)
    throw e
  }
  const nonEmpty = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim())
  const flagUrl = nonEmpty(globals.apiUrl)
  const rawUrl = flagUrl ?? config.apiUrl ?? defaultApiUrl
  const apiUrlSource: Source =
    flagUrl !== undefined ? sourceOf(cmd, "apiUrl") : config.apiUrl !== undefined ? "config" : "default"
  const flagKey = nonEmpty(globals.apiKey)
  return {
    ...normalizeApiUrl(rawUrl),
    apiUrlSource,
    apiKey: flagKey ?? config.apiKey,
    apiKeySource: flagKey !== undefined ? sourceOf(cmd, "apiKey") : config.apiKey !== undefined ? "config" : "none",
    intakeKey: nonEmpty(env.BOARD_INTAKE_KEY),
    configPath: file,
    config,
    json: globals.json === true,
    quiet: globals.quiet === true,
    timeout:
      nonEmpty(globals.timeout) === undefined
        ? defaultTimeout
        : parseTimeout(globals.timeout as string, sourceOf(cmd, "timeout") === "env" ? "BOARD_TIMEOUT" : "--timeout"),
    env
  }
}
