/**
 * `GET /api/v1/health` answered in Node's request event, before the Effect router.
 *
 * Load balancers and probes poll it many times a second. Through the router it cost about 56 µs
 * of CPU a request, against 15 for bare node:http (issue 35 asks for 0.7 of node:http's rate).
 * The answer is the one the API's own endpoint gives (handlers/System.ts keeps that endpoint, for
 * the OpenAPI document and for the requests left to it): the same body and content type, the
 * same `X-Request-Id` rule (middleware/requestMeta.ts) and the same request log line.
 *
 * Left to the router, so that its middleware answers them as before: any other method, path or a
 * query string; a request with a body (the 413 rule); every request when CORS_ORIGINS is set (the
 * CORS middleware adds `Vary: Origin` to every answer, with or without an Origin); and every
 * request when metrics are on (the middleware counts them).
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import type { RequestLogger } from "../middleware/RequestLog.ts"
import { requestIdFrom } from "../middleware/requestMeta.ts"
import type { FastPath } from "../startingListener.ts"

/** What health answers, here and in the API's endpoint. */
export const healthBody = { status: "ok", service: "service-api" } as const

const HEALTH_PATH = "/api/v1/health"
const body = JSON.stringify(healthBody)
const length = String(Buffer.byteLength(body))

export const healthFastPath = (options: {
  readonly logger: RequestLogger
  readonly corsOrigins: ReadonlyArray<string>
  readonly metrics: boolean
}): FastPath | undefined => {
  if (options.metrics || options.corsOrigins.length > 0) return undefined
  const { logger } = options
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.url !== HEALTH_PATH || request.method !== "GET") return false
    const headers = request.headers
    if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return false
    const started = logger.enabled ? performance.now() : 0
    const id = requestIdFrom(headers["x-request-id"])
    response.writeHead(200, { "content-type": "application/json", "content-length": length, "x-request-id": id })
    response.end(body)
    if (logger.enabled) logger.request({ id, userId: undefined }, "GET", HEALTH_PATH, 200, performance.now() - started)
    return true
  }
}
