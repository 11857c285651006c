/**
 * The outermost middleware: gives every failure Effect would answer with an empty body the
 * `{error}` body (unknown route 404, wrong method 405 with Allow, body over 1 MiB 413,
 * defects 500 with a request id and never the defect text), writes the request log line, gives
 * every response its `X-Request-Id` and, when metrics are on, counts the request.
 */
import { limits } from "@board/core"
import { Cause, Context, Effect, type Fiber, type Types } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { challengeFor } from "./authenticate.ts"
import { type CorsDecision, corsFor } from "./cors.ts"
import type { RequestMetrics } from "../monitoring/Metrics.ts"
import type { RequestLogger } from "./RequestLog.ts"
import type { RouteTable } from "./routeTable.ts"
import { requestMeta } from "./requestMeta.ts"

const json = (status: number, error: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ error }, { status, headers })

const statusMessages: Record<number, string> = {
  400: "Bad request",
  404: "Not found: no such endpoint; see /api/v1 for the API index",
  413: `Request body too large: the limit is ${limits.bodyBytes} bytes`,
  415: "Unsupported content type: send the body as JSON with Content-Type: application/json",
  500: "Internal server error"
}

/**
 * A failure some layer answered without JSON (Effect's payload decoder answers an unsupported
 * content type with a text 415) still gets `{error}`; 415 becomes SPEC's 400 for a malformed
 * request.
 */
const asJsonFailure = (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
  if (response.status < 400 || (response.headers["content-type"] ?? "").includes("json")) return response
  const status = response.status === 415 ? 400 : response.status
  return json(
    status,
    statusMessages[response.status] ?? `HTTP ${response.status}`,
    response.headers.allow ? { allow: response.headers.allow } : {}
  )
}

export const errorBodies = (
  logger: RequestLogger,
  publicUrl: string,
  corsOrigins: ReadonlyArray<string>,
  routes: RouteTable,
  metrics?: RequestMetrics
) => {
  const allowFor = routes.allowFor
  const handleFailure = (request: HttpServerRequest.HttpServerRequest, path: string) => (cause: Cause.Cause<unknown>) =>
    HttpServerError.causeResponse(cause).pipe(
      Effect.flatMap(([res, cause]) => {
        if (res.status === 404) {
          const allow = allowFor(path)
          if (allow.length > 0 && !allow.includes(request.method)) {
            return Effect.succeed(
              json(405, `Method ${request.method} is not allowed here; use ${allow.join(", ")}`, {
                allow: allow.join(", ")
              })
            )
          }
          return Effect.succeed(json(404, statusMessages[404]!))
        }
        if (res.status >= 500) {
          const meta = requestMeta(request)
          return logger
            .error(meta.id, request.method, path, Cause.pretty(cause))
            .pipe(Effect.as(json(500, `Internal server error (request id ${meta.id}); the cause is logged`)))
        }
        return Effect.succeed(json(res.status, statusMessages[res.status] ?? `HTTP ${res.status}`))
      })
    )

  // Runs on every request, so it is written for the common case: no Effect.gen, no CORS work
  // without CORS_ORIGINS, no request meta unless a line is logged, one path computation.
  const finish =
    (request: HttpServerRequest.HttpServerRequest, path: string, started: number, cors: CorsDecision | undefined) =>
    (response: HttpServerResponse.HttpServerResponse): HttpServerResponse.HttpServerResponse => {
      const final = response.status >= 400 && path.startsWith("/api/") ? asJsonFailure(response) : response
      if (logger.enabled)
        logger.request(requestMeta(request), request.method, path, final.status, performance.now() - started)
      // RFC 9110 §15.5.2: a 401 always carries a challenge (the auth middleware sets a more precise one)
      const challenged =
        final.status === 401 && final.headers["www-authenticate"] === undefined
          ? HttpServerResponse.setHeader(final, "www-authenticate", challengeFor(publicUrl, false))
          : final
      const withCors = cors === undefined ? challenged : HttpServerResponse.setHeaders(challenged, cors.headers)
      // every response names its request (the client's own id when sane), so a client can quote
      // it and an operator find the log line; every response has one, so none differs by it
      return HttpServerResponse.setHeader(withCors, "x-request-id", requestMeta(request).id)
    }

  // Installed only when metrics are on. The router puts the matched route into the fiber's
  // context and it stays there until the request ends, so it is read here after the handler ran.
  const counted =
    metrics === undefined
      ? undefined
      : (
          fiber: Fiber.Fiber<unknown, unknown>,
          request: HttpServerRequest.HttpServerRequest,
          started: number,
          response: HttpServerResponse.HttpServerResponse
        ): HttpServerResponse.HttpServerResponse => {
          const route = Context.getOrUndefined(fiber.context, HttpRouter.RouteContext)?.route
          metrics.observe(route, request.method, response.status, (performance.now() - started) / 1000)
          return response
        }

  return HttpRouter.middleware(
    (app): Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest> =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const started = logger.enabled || counted !== undefined ? performance.now() : 0
        const url = request.url
        const query = url.indexOf("?")
        const path = query === -1 ? url : url.slice(0, query)
        const cors =
          corsOrigins.length === 0
            ? undefined
            : corsFor(
                corsOrigins,
                request.method,
                path,
                request.headers.origin,
                request.headers["access-control-request-method"]
              )
        const length = request.headers["content-length"]
        const response =
          cors?.preflight === true
            ? Effect.succeed(HttpServerResponse.empty({ status: 204 }))
            : length !== undefined && Number(length) > limits.bodyBytes
              ? Effect.succeed(json(413, statusMessages[413]!))
              : Effect.catchCause(app, handleFailure(request, path))
        const finished = Effect.map(response, finish(request, path, started, cors))
        return counted === undefined
          ? finished
          : Effect.withFiber((fiber) => Effect.map(finished, (r) => counted(fiber, request, started, r)))
      }),
    { global: true }
  )
}
