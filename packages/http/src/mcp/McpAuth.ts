/**
 * Who is calling the MCP endpoint. Every HTTP request to `/api/mcp` carries its own credential
 * (an API key in X-API-Key or an OAuth access token as Authorization: Bearer); this route
 * middleware resolves it with the core's `Credentials` before the MCP server sees the body, and
 * answers 401 with an RFC 6750 / RFC 9728 challenge when it is missing or refused. The
 * principal is then a request-level service that every tool and prompt handler reads, so a tool
 * always acts as the caller of the request that invoked it, never as whoever opened the session.
 *
 * Sessions are bound to their user as well (MCP security best practices): an `Mcp-Session-Id`
 * opened by one user is unknown (404) to requests of another, so a leaked session id lets no
 * one else use, or end, that session.
 */
import { AppConfig, Credentials, type Principal, RateBudget, type Unauthenticated } from "@board/core"
import { Context, Effect } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { challengeFor } from "../middleware/AuthenticationLive.ts"
import { clientAddress, rateLimitHeaders } from "../middleware/budget.ts"
import { requestMeta } from "../middleware/requestMeta.ts"

/** The principal of the current MCP request. */
export class McpPrincipal extends Context.Service<McpPrincipal, Principal>()("board/http/mcp/McpPrincipal") {}

/** Sessions kept for binding; beyond this the oldest bindings are forgotten (and refused). */
const MAX_SESSIONS = 10_000

const SESSION_HEADER = "mcp-session-id"

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return value === undefined || value === "" ? undefined : value
}

/** The `{error}` body every failure of the API has, with extra headers. */
const refusal = (status: number, error: string, headers: Record<string, string>) =>
  HttpServerResponse.jsonUnsafe({ error }, { status, headers })

/**
 * Authenticates every request of the routes it is provided to (the MCP endpoint, whatever the
 * method) and provides `McpPrincipal`. Budgets match the REST API: a refused credential spends
 * the client address's budget, an accepted one the user's.
 */
export const McpAuth = HttpRouter.middleware<{ provides: McpPrincipal }>()(
  Effect.gen(function*() {
    const credentials = yield* Credentials
    const config = yield* AppConfig
    const budget = yield* RateBudget

    const tooMany = (message: string, retryAfterSeconds: number) =>
      refusal(429, message, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) })

    // session id → the user who opened it
    const owners = new Map<string, string>()
    const bind = (sessionId: string, userId: string) => {
      owners.set(sessionId, userId)
      if (owners.size > MAX_SESSIONS) owners.delete(owners.keys().next().value!)
    }

    const unauthorized = (request: HttpServerRequest.HttpServerRequest, e: Unauthenticated) =>
      budget.charge(`ip:${clientAddress(request)}`).pipe(
        Effect.as(refusal(401, e.message, { "www-authenticate": challengeFor(config.publicUrl, e.invalidToken) })),
        Effect.catchTag("TooManyRequests", (t) => Effect.succeed(tooMany(t.message, t.retryAfterSeconds)))
      )

    return (httpEffect) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const resolved = yield* Effect.result(credentials.resolve({
          apiKey: header(request, "x-api-key"),
          authorization: header(request, "authorization"),
          intakeKey: header(request, "x-intake-key")
        }, ["apiKey", "oauth"]))
        if (resolved._tag === "Failure") return yield* unauthorized(request, resolved.failure)
        const principal = resolved.success
        requestMeta(request).userId = principal.userId
        // one budget per user, whatever credential or front end they use
        const charged = yield* Effect.result(budget.charge(`user:${principal.userId}`))
        if (charged._tag === "Failure") return tooMany(charged.failure.message, charged.failure.retryAfterSeconds)
        const state = charged.success
        if (state !== undefined) {
          const headers = rateLimitHeaders(state)
          yield* HttpEffect.appendPreResponseHandler((_req, res) => Effect.succeed(HttpServerResponse.setHeaders(res, headers)))
        }
        const session = header(request, SESSION_HEADER)
        if (session !== undefined && owners.get(session) !== principal.userId) {
          // unknown here, or another user's: the same answer as the MCP server's for an unknown session
          return refusal(404, "unknown MCP session: initialize a new one", {})
        }
        const response = yield* Effect.provideService(httpEffect, McpPrincipal, principal)
        if (session === undefined) {
          // initialize sets the new session's id just before the response is sent
          yield* HttpEffect.appendPreResponseHandler((_req, res) => {
            const opened = res.headers[SESSION_HEADER]
            if (opened !== undefined) bind(opened, principal.userId)
            return Effect.succeed(res)
          })
        } else if (request.method === "DELETE" && response.status === 204) {
          owners.delete(session)
        }
        return response
      })
  })
)
