/**
 * The one log format. In JSON mode every line the service writes, whoever writes it (the
 * request log, Effect's own log calls at start-up and in migrations, the fatal start-up error,
 * the shutdown), is one JSON object of one shape:
 *
 *   {"time": ISO-8601, "level": "debug"|"info"|"warn"|"error", "msg": text, ...fields}
 *
 * where a request's fields start with `requestId`. The request log writes that shape itself (it
 * is the hot path); everything else goes through `formatLine` or `effectLogger` here.
 */
import { Cause, Logger, References } from "effect"
import type { LogLevelName } from "../Config.ts"

export type LogFormat = "json" | "pretty"

/** One line, without its newline; `fields` follow time, level and msg (they cannot replace them). */
export const formatLine = (
  format: LogFormat,
  level: LogLevelName,
  msg: string,
  fields: Readonly<Record<string, unknown>> = {}
): string => {
  const time = new Date().toISOString()
  if (format === "json") {
    // a field cannot replace the three keys every line has
    const { time: _time, level: _level, msg: _msg, ...rest } = fields
    return JSON.stringify({ time, level, msg, ...rest })
  }
  const extra = Object.entries(fields)
    .map(([k, v]) => ` ${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join("")
  return `${time} ${level.toUpperCase()} ${msg}${extra}`
}

const levels: Record<string, LogLevelName> = {
  All: "debug",
  Trace: "debug",
  Debug: "debug",
  Info: "info",
  Warn: "warn",
  Error: "error",
  Fatal: "error"
}

const text = (u: unknown): string => (typeof u === "string" ? u : u instanceof Error ? u.message : JSON.stringify(u))

/**
 * Effect's log calls (`Effect.logInfo` at start-up, in migrations and operator commands) in the
 * one format on stdout: annotations become fields, a cause becomes `cause`.
 */
export const effectLogger = (format: LogFormat) =>
  Logger.make(({ cause, fiber, logLevel, message }) => {
    const parts = Array.isArray(message) ? message : [message]
    const fields: Record<string, unknown> = { ...fiber.getRef(References.CurrentLogAnnotations) }
    if (cause.reasons.length > 0) fields.cause = Cause.pretty(cause)
    process.stdout.write(`${formatLine(format, levels[logLevel] ?? "info", parts.map(text).join(" "), fields)}\n`)
  })
