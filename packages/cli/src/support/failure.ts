/**
 * How a command fails: `CliFailure` carries the exit code and the one message for stderr.
 * `describeFailure` turns whatever the typed client fails with (the contract's error classes,
 * transport errors, schema errors) into one, keeping the server's own `error` text.
 */
import { Data, Effect, Predicate } from "effect"
import { BoardApi } from "./client.ts"
import { RequestTimedOut } from "./deadline.ts"
import { exitCodes } from "./runtime.ts"
import { Settings } from "./settings.ts"

export class CliFailure extends Data.TaggedError("CliFailure")<{ readonly code: number; readonly message: string }> {}

export const usageError = (message: string) => new CliFailure({ code: exitCodes.usage, message })
export const failure = (message: string) => new CliFailure({ code: exitCodes.error, message })

export const signInHint =
  "sign in with `board auth login` (or `board auth signup` for a new account), or pass --api-key / set BOARD_API_KEY"

export interface FailureContext {
  readonly apiUrl: string
  /** Seconds from the last 429's Retry-After header. */
  readonly retryAfter: () => string | undefined
  /** What a 401 should tell the user to do. */
  readonly onUnauthorized: string
}

const statuses = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  TooManyRequests: 429
} as const

/**
 * The status of one of the contract's error classes (`{error}` bodies). They are `Schema.Error`
 * classes without a `_tag`, so they are told apart by class name.
 */
export const apiStatus = (e: unknown): number | undefined =>
  e instanceof Error && Object.hasOwn(statuses, e.name) && Predicate.isString((e as { error?: unknown }).error)
    ? statuses[e.name as keyof typeof statuses]
    : undefined

export const isNotFound = (e: unknown) => apiStatus(e) === 404

/** The server's 429 message, saying when to retry unless it already does. */
const retryText = (message: string, ctx: FailureContext) => {
  if (/\d+\s*s(econds?)?\b/i.test(message)) return message
  const after = ctx.retryAfter()
  return `${message}; ${after === undefined ? "try again later" : `try again in ${after} second${after === "1" ? "" : "s"}`}`
}

/** `expected a UUID\n  at ["projectId"]` → `projectId: expected a UUID`. */
const schemaMessage = (message: string): string => {
  const m = /^([\s\S]*?)\n\s*at \[(.*)\]\s*$/.exec(message)
  if (m === null) return message.replace(/\s+/g, " ").trim()
  const path = m[2]
    .split(",")
    .map((p) => p.trim().replace(/^"|"$/g, ""))
    .join(".")
  return `${path}: ${m[1].replace(/\s+/g, " ").trim()}`
}

const bodyError = (text: string): string | undefined => {
  try {
    const body = JSON.parse(text) as unknown
    return Predicate.hasProperty(body, "error") && Predicate.isString(body.error) ? body.error : undefined
  } catch {
    return undefined
  }
}

/** The exit code and message of a failed command. */
export const describeFailure = (e: unknown, ctx: FailureContext): Effect.Effect<CliFailure> =>
  Effect.gen(function* () {
    if (e instanceof CliFailure) return e
    const status = apiStatus(e)
    if (status !== undefined) {
      const message = (e as { error: string }).error
      if (status === 401) return new CliFailure({ code: exitCodes.auth, message: `${message}\n${ctx.onUnauthorized}` })
      if (status === 429) return new CliFailure({ code: exitCodes.error, message: retryText(message, ctx) })
      return new CliFailure({ code: exitCodes.error, message })
    }
    if (Predicate.isTagged(e, "SchemaError") && Predicate.hasProperty(e, "message")) {
      // the contract's own checks, run before anything is sent (or, rarely, on a reply)
      return new CliFailure({ code: exitCodes.error, message: schemaMessage(String(e.message)) })
    }
    if (Predicate.isTagged(e, "HttpClientError") && Predicate.hasProperty(e, "reason")) {
      const reason = e.reason as {
        _tag: string
        cause?: unknown
        response?: { status: number; text: Effect.Effect<string, unknown> }
      }
      if (reason.response !== undefined) {
        const status = reason.response.status
        const text = yield* reason.response.text.pipe(Effect.orElseSucceed(() => ""))
        const message = bodyError(text) ?? `the server answered ${status}`
        if (status === 401)
          return new CliFailure({ code: exitCodes.auth, message: `${message}\n${ctx.onUnauthorized}` })
        if (status === 429) return new CliFailure({ code: exitCodes.error, message: retryText(message, ctx) })
        return new CliFailure({ code: exitCodes.error, message })
      }
      if (reason._tag === "TransportError" && reason.cause instanceof RequestTimedOut) {
        const { timeout } = reason.cause
        return new CliFailure({
          code: exitCodes.error,
          message: `the server at ${ctx.apiUrl} did not answer within ${timeout.text}; to wait longer, pass --timeout (for example --timeout 2m) or set BOARD_TIMEOUT`
        })
      }
      if (reason._tag === "TransportError") {
        return new CliFailure({
          code: exitCodes.error,
          message: `cannot reach the server at ${ctx.apiUrl}: is it running? (set --api-url or BOARD_API_URL to use another)`
        })
      }
      return new CliFailure({ code: exitCodes.error, message: String((e as { message?: unknown }).message ?? e) })
    }
    return new CliFailure({ code: exitCodes.error, message: e instanceof Error ? e.message : String(e) })
  })

/** Inside a command: a client failure as the CliFailure the user would see, to add to it. */
export const explain = (e: unknown) =>
  Effect.gen(function* () {
    const api = yield* BoardApi
    const settings = yield* Settings
    return yield* describeFailure(e, {
      apiUrl: settings.apiUrl,
      retryAfter: api.retryAfter,
      onUnauthorized: signInHint
    })
  })

/** Fails with the explained failure, its message extended by `more`. */
export const failWithHint = (more: (message: string) => string) => (e: unknown) =>
  Effect.flatMap(explain(e), (f) => Effect.fail(new CliFailure({ code: f.code, message: more(f.message) })))
