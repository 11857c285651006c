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
 *
 * A session also lasts only while the credential that opened it does (issue 28): revoking that
 * API key or OAuth grant ends it (and the requests in flight in it) on every instance at once,
 * through the core's `CredentialWatch`. An OAuth access token's expiry does not: the session
 * belongs to the grant, whose client refreshes its token and carries on.
 */
import { AppConfig, CredentialWatch, type Principal } from "@board/core"
import { Clock, Context, Effect } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { httpErrorResponse } from "../errors.ts"
import { header, makeAuthenticate } from "../middleware/authenticate.ts"
import { DEFAULT_SESSION_LIMITS, makeMcpSessions } from "./McpSessions.ts"

/** The principal of the current MCP request. */
export class McpPrincipal extends Context.Service<McpPrincipal, Principal>()("board/http/mcp/McpPrincipal") {}

/** The path of the endpoint, the one URL to give an MCP client (with the public origin before it). */
export const MCP_PATH = "/api/mcp"

const SESSION_HEADER = "mcp-session-id"

/**
 * Authenticates every request of the routes it is provided to (the MCP endpoint, whatever the
 * method) with the REST API's own `authenticate` (the same credentials, budgets, 401 challenge
 * and 429), answering its refusal as the REST API would, and provides `McpPrincipal`.
 */
export const McpAuth = HttpRouter.middleware<{ provides: McpPrincipal }>()(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const authenticate = yield* makeAuthenticate
    const watch = yield* CredentialWatch

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
    // each session's hold on the credential that opened it, released when the session ends
    const holds = new Map<string, () => void>()
    const forget = (ended: ReadonlyArray<string>) => {
      for (const sessionId of ended) {
        holds.get(sessionId)?.()
        holds.delete(sessionId)
      }
    }
    const end = (ended: ReadonlyArray<string>) =>
      ended.length === 0
        ? Effect.void
        : Effect.andThen(
            Effect.sync(() => forget(ended)),
            Effect.forkDetach(
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
          )
    // the services `end` runs with, for a revocation heard outside any request
    const context = yield* Effect.context<never>()

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
        // the one clock (Effect's), so a test clock moves session expiry like every other
        yield* end(sessions.expire(yield* Clock.currentTimeMillis))
        const resolved = yield* Effect.result(authenticate(["apiKey", "oauth"]))
        if (resolved._tag === "Failure") return httpErrorResponse(resolved.failure)
        const principal = resolved.success
        if (session !== undefined && !sessions.use(session, principal.userId, yield* Clock.currentTimeMillis)) {
          // unknown here, ended, or another user's: the same answer as the MCP server's for an unknown session
          return HttpServerResponse.jsonUnsafe({ error: "unknown MCP session: initialize a new one" }, { status: 404 })
        }
        const response = yield* Effect.provideService(httpEffect, McpPrincipal, principal)
        if (session === undefined) {
          // initialize sets the new session's id just before the response is sent
          yield* HttpEffect.appendPreResponseHandler((_req, res) => {
            const opened = res.headers[SESSION_HEADER]
            return opened === undefined
              ? Effect.succeed(res)
              : Effect.flatMap(Clock.currentTimeMillis, (now) => {
                  holds.set(
                    opened,
                    watch.watchUnsafe({
                      principal,
                      endsAtExpiry: false,
                      end: () => {
                        sessions.close(opened)
                        Effect.runForkWith(context)(end([opened]))
                      }
                    })
                  )
                  return Effect.as(end(sessions.open(opened, principal.userId, now)), res)
                })
          })
        } else if (request.method === "DELETE" && response.status === 204) {
          sessions.close(session)
          forget([session])
        }
        return response
      })
  })
)
