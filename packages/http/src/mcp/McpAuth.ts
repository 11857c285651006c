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
 * one else use, or end, that session. Sessions are also bounded (`McpSessions`): one idle for
 * MCP_SESSION_IDLE, or a user's least recently used beyond MCP_SESSIONS_PER_USER, is ended in
 * the MCP server with an internal DELETE, so the server's memory follows its live clients.
 */
import { AppConfig, Credentials, type Principal, RateBudget, type Unauthenticated } from "@board/core"
import { Context, Effect } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { challengeFor } from "../middleware/AuthenticationLive.ts"
import { clientAddress, rateLimitHeaders } from "../middleware/budget.ts"
import { requestMeta } from "../middleware/requestMeta.ts"
import { DEFAULT_SESSION_LIMITS, makeMcpSessions } from "./McpSessions.ts"

/** The principal of the current MCP request. */
export class McpPrincipal extends Context.Service<McpPrincipal, Principal>()("board/http/mcp/McpPrincipal") {}

/** The path of the endpoint, the one URL to give an MCP client (with the public origin before it). */
export const MCP_PATH = "/api/mcp"

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
  Effect.gen(function* () {
    const credentials = yield* Credentials
    const config = yield* AppConfig
    const budget = yield* RateBudget

    const tooMany = (message: string, retryAfterSeconds: number) =>
      refusal(429, message, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) })

    const router = yield* HttpRouter.HttpRouter
    const sessions = makeMcpSessions({
      ...DEFAULT_SESSION_LIMITS,
      idleMs: config.mcpSessionIdleMs,
      perUser: config.mcpSessionsPerUser
    })
    // Ends sessions in the MCP server through its own DELETE route, in the background. These
    // requests are made here, never read off a socket, so no client can pose as one; they skip
    // authentication below.
    const internal = new WeakSet<object>()
    const end = (ended: ReadonlyArray<string>) =>
      ended.length === 0
        ? Effect.void
        : Effect.forkDetach(
            Effect.forEach(
              ended,
              (sessionId) => {
                const request = HttpServerRequest.fromWeb(
                  new Request(`http://internal${MCP_PATH}`, {
                    method: "DELETE",
                    headers: { [SESSION_HEADER]: sessionId }
                  })
                )
                internal.add(request)
                return router
                  .asHttpEffect()
                  .pipe(
                    Effect.provideService(HttpServerRequest.HttpServerRequest, request),
                    Effect.scoped,
                    Effect.ignore
                  )
              },
              { discard: true }
            )
          )

    const unauthorized = (request: HttpServerRequest.HttpServerRequest, e: Unauthenticated) =>
      budget.charge(`ip:${clientAddress(request)}`).pipe(
        Effect.as(refusal(401, e.message, { "www-authenticate": challengeFor(config.publicUrl, e.invalidToken) })),
        Effect.catchTag("TooManyRequests", (t) => Effect.succeed(tooMany(t.message, t.retryAfterSeconds)))
      )

    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const session = header(request, SESSION_HEADER)
        if (internal.has(request) && session !== undefined) {
          // ending a session this middleware decided to end: as a principal that reaches nothing
          return yield* Effect.provideService(httpEffect, McpPrincipal, {
            userId: "",
            via: "apiKey",
            workspaces: new Set<string>()
          })
        }
        yield* end(sessions.expire(Date.now()))
        const resolved = yield* Effect.result(
          credentials.resolve(
            {
              apiKey: header(request, "x-api-key"),
              authorization: header(request, "authorization"),
              intakeKey: header(request, "x-intake-key")
            },
            ["apiKey", "oauth"]
          )
        )
        if (resolved._tag === "Failure") return yield* unauthorized(request, resolved.failure)
        const principal = resolved.success
        requestMeta(request).userId = principal.userId
        // one budget per user, whatever credential or front end they use
        const charged = yield* Effect.result(budget.charge(`user:${principal.userId}`))
        if (charged._tag === "Failure") return tooMany(charged.failure.message, charged.failure.retryAfterSeconds)
        const state = charged.success
        if (state !== undefined) {
          const headers = rateLimitHeaders(state)
          yield* HttpEffect.appendPreResponseHandler((_req, res) =>
            Effect.succeed(HttpServerResponse.setHeaders(res, headers))
          )
        }
        if (session !== undefined && !sessions.use(session, principal.userId, Date.now())) {
          // unknown here, ended, or another user's: the same answer as the MCP server's for an unknown session
          return refusal(404, "unknown MCP session: initialize a new one", {})
        }
        const response = yield* Effect.provideService(httpEffect, McpPrincipal, principal)
        if (session === undefined) {
          // initialize sets the new session's id just before the response is sent
          yield* HttpEffect.appendPreResponseHandler((_req, res) => {
            const opened = res.headers[SESSION_HEADER]
            return opened === undefined
              ? Effect.succeed(res)
              : Effect.as(end(sessions.open(opened, principal.userId, Date.now())), res)
          })
        } else if (request.method === "DELETE" && response.status === 204) {
          sessions.close(session)
        }
        return response
      })
  })
)
