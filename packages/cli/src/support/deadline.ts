/**
 * Every request the CLI sends has a deadline (`--timeout`, else BOARD_TIMEOUT, else 30 s): a
 * server that accepts and never answers made a command wait forever, and a cron `board intake`
 * then stacked up. The deadline runs from sending the request to having read the whole answer.
 */
import { Data, Duration, Effect } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import { CliExit, exitCodes } from "./runtime.ts"

export const defaultTimeout = { ms: 30_000, text: "30s" } as const

export interface Timeout {
  readonly ms: number
  /** As the user wrote it (`30s`, `2m`, `45`), for messages. */
  readonly text: string
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** `30s`, `2m`, `500ms`, `1h`, or plain seconds (`45`, `2.5`); a usage error otherwise. */
export const parseTimeout = (raw: string, from: string): Timeout => {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/i.exec(raw.trim())
  const ms = m === null ? Number.NaN : Number(m[1]) * units[(m[2] ?? "s").toLowerCase()]
  if (!Number.isFinite(ms) || ms < 1 || ms > 24 * 3_600_000) {
    throw new CliExit(
      exitCodes.usage,
      `error: ${from}: expected a duration such as 30s, 2m or 45 (seconds), up to 24h, got ${JSON.stringify(raw)}`
    )
  }
  const text = raw.trim()
  return { ms: Math.round(ms), text: /\d$/.test(text) ? `${text}s` : text }
}

/** The cause inside the transport error a request past its deadline fails with. */
export class RequestTimedOut extends Data.TaggedError("RequestTimedOut")<{ readonly timeout: Timeout }> {
  override get message() {
    return `no answer within ${this.timeout.text}`
  }
}

/**
 * The client with a deadline on each request, answer included: the body is read within it (the
 * response keeps what it read, so decoding reads it again for free), so a server that sends
 * headers and then stalls is caught too. The CLI's answers are small JSON, never streams.
 */
export const withDeadline =
  (timeout: Timeout) =>
  (client: HttpClient.HttpClient): HttpClient.HttpClient =>
    HttpClient.transform(client, (response, request) =>
      response.pipe(
        Effect.tap((res) => res.arrayBuffer),
        Effect.timeoutOrElse({
          duration: Duration.millis(timeout.ms),
          orElse: () =>
            Effect.fail(
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({ request, cause: new RequestTimedOut({ timeout }) })
              })
            )
        })
      )
    )
