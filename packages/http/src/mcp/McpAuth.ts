/**
 * Who is calling the MCP endpoint, and which session. Every HTTP request to `/api/mcp` carries
 * its own credential (an API key in X-API-Key or an OAuth access token as Authorization:
 * Bearer); this route middleware resolves it with the core's `Credentials` before the MCP
 * server sees the body, and answers 401 with an RFC 6750 / RFC 9728 challenge when it is
 * missing or refused. The principal is then a request-level service that every tool and
 * prompt handler reads, so a tool always acts as the caller of the request that invoked it.
 *
 * The 2026-07-28 revision has no sessions: its requests pass through as they are. A session
 * of the older revisions is served by any instance (issue 33): it lives in the database
 * (core/mcp/McpSessionStore.ts: its user, the credential that opened it, the client's
 * initialize), asked on every request that names it, and each instance keeps a copy of it in
 * its own MCP server (`LocalSessions`), made when it opens here or rebuilt from the stored
 * initialize the first time a request of it comes here. The request is then handed to the MCP
 * server under its copy's id, and its answer carries the session's own id. So:
 * - a session is its user's (MCP security best practices): another user's request finds it
 *   unknown (404), so a leaked id lets no one else use or end it;
 * - it lasts while the credential that opened it does (issue 28): the database look-up checks
 *   that key or grant on every request, so a revocation ends it on every instance at once, and
 *   the core's `CredentialWatch` ends the copies open here, with their requests in flight. An
 *   OAuth access token's expiry does not end it: it belongs to the grant, whose client
 *   refreshes its token and carries on;
 * - it ends when idle for MCP_SESSION_IDLE or beyond MCP_SESSIONS_PER_USER (the store
 *   decides); copies are ended in the MCP server with an internal DELETE, so memory follows
 *   the live clients.
 */
import { AppConfig, CredentialWatch, McpSessionStore, type Principal } from "@board/core"
import { Clock, Context, Effect, Semaphore } from "effect"
import { Headers, HttpEffect, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { HttpServerResponse as Response } from "effect/http"
import { httpErrorResponse } from "../errors.ts"
import { header, makeAuthenticate } from "../middleware/authenticate.ts"
import { DEFAULT_SESSION_LIMITS, type LocalSession, makeLocalSessions } from "./McpSessions.ts"

/** The principal of the current MCP request. */
export class McpPrincipal extends Context.Service<McpPrincipal, Principal>()("board/http/mcp/McpPrincipal") {}

/** The path of the endpoint, the one URL to give an MCP client (with the public origin before it). */
export const MCP_PATH = "/api/mcp"

const SESSION_HEADER = "mcp-session-id"
const VERSION_HEADER = "mcp-protocol-version"

/** The principal of the requests made here (a copy ended or rebuilt): it reaches nothing. */
const NOBODY: Principal = { userId: "", via: "apiKey", workspaces: new Set<string>() }

const unknownSession = () =>
  Response.jsonUnsafe({ error: "unknown MCP session: initialize a new one" }, { status: 404 })

/** The params of a JSON-RPC initialize body, or undefined. */
const initializeParams = (text: string): unknown => {
  try {
    const body = JSON.parse(text)
    return body?.method === "initialize" && typeof body.params === "object" ? body.params : undefined
  } catch {
    return undefined
  }
}

/**
 * Authenticates every request of the routes it is provided to (the MCP endpoint, whatever the
 * method) with the REST API's own `authenticate` (the same credentials, budgets, 401 challenge
 * and 429), answering its refusal as the REST API would, provides `McpPrincipal`, and serves
 * the sessions as said above.
 */
export const McpAuth = HttpRouter.middleware<{ provides: McpPrincipal }>()(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const authenticate = yield* makeAuthenticate
    const watch = yield* CredentialWatch
    const store = yield* McpSessionStore
    const router = yield* HttpRouter.HttpRouter
    const copies = makeLocalSessions({ ...DEFAULT_SESSION_LIMITS, idleMs: config.mcpSessionIdleMs })
    // one rebuild at a time, so two requests of one session arriving together make one copy
    const rebuilding = yield* Semaphore.make(1)
    // Requests made here, never read off a socket, so no client can pose as one; they skip
    // authentication below.
    const internal = new WeakSet<object>()

    /** Runs a request made here through the MCP routes, as its own request; answers the response. */
    const inside = (init: RequestInit & { headers: Record<string, string> }) => {
      const request = HttpServerRequest.fromWeb(new Request(`http://internal${MCP_PATH}`, init))
      internal.add(request)
      let answered: HttpServerResponse.HttpServerResponse | undefined
      return HttpEffect.toHandled(router.asHttpEffect(), (_req, response) =>
        Effect.sync(() => {
          answered = response
        })
      ).pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, request),
        Effect.map(() => answered)
      )
    }

    /** Ends copies in the MCP server (an internal DELETE each), in the background. */
    const endCopies = (ended: ReadonlyArray<LocalSession>) => {
      if (ended.length === 0) return Effect.void
      for (const copy of ended) copy.release()
      return Effect.forkDetach(
        Effect.forEach(
          ended,
          (copy) => Effect.ignore(inside({ method: "DELETE", headers: { [SESSION_HEADER]: copy.local } })),
          { discard: true }
        )
      ).pipe(Effect.asVoid)
    }
    // the services `endCopies` runs with, for a revocation heard outside any request
    const context = yield* Effect.context<never>()

    /** Records the copy `local` of the session `sessionId`, watched under its opener's credential. */
    const keep = (sessionId: string, local: string, opener: Principal) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const release = watch.watchUnsafe({
          principal: opener,
          // an OAuth token is refreshed within its grant; an API key that expires ends its sessions then
          endsAtExpiry: opener.via === "apiKey",
          end: () => {
            const copy = copies.remove(sessionId)
            Effect.runForkWith(context)(
              Effect.andThen(store.forget([sessionId]), copy === undefined ? Effect.void : endCopies([copy]))
            )
          }
        })
        const copy: LocalSession = { local, userId: opener.userId, release }
        return Effect.as(endCopies(copies.add(sessionId, copy, now)), copy)
      })

    /** A copy of a session opened elsewhere (or whose copy here ended): replays its initialize. */
    const rebuild = (
      sessionId: string,
      userId: string,
      stored: { protocolVersion: string; initialize: unknown; opener: Principal }
    ) =>
      rebuilding.withPermits(1)(
        Effect.gen(function* () {
          const existing = copies.get(sessionId, userId, yield* Clock.currentTimeMillis)
          if (existing !== undefined) return existing
          const params = { ...(stored.initialize as object), protocolVersion: stored.protocolVersion }
          const response = yield* inside({
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: JSON.stringify({ jsonrpc: "2.0", id: "rebuild", method: "initialize", params })
          })
          const local = response?.headers[SESSION_HEADER]
          if (local === undefined) return undefined
          return yield* keep(sessionId, local, stored.opener)
        })
      )

    /** Forgets the copy of a session that ended (if it is this user's) and ends it in the MCP server. */
    const dropCopy = (sessionId: string, userId: string) =>
      copies.get(sessionId, userId, 0) === undefined ? Effect.void : endCopies([copies.remove(sessionId)!])

    return (httpEffect) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        if (internal.has(request)) return yield* Effect.provideService(httpEffect, McpPrincipal, NOBODY)
        // the one clock (Effect's), so a test clock moves expiry like every other
        yield* endCopies(copies.expire(yield* Clock.currentTimeMillis))
        const resolved = yield* Effect.result(authenticate(["apiKey", "oauth"]))
        if (resolved._tag === "Failure") return httpErrorResponse(resolved.failure)
        const principal = resolved.success
        const session = header(request, SESSION_HEADER)

        if (session === undefined) {
          // a 2026-07-28 request, or an initialize: the new session's id is set just before
          // the response is sent (by the MCP server's own pre-response handler, which runs first)
          const response = yield* Effect.provideService(httpEffect, McpPrincipal, principal)
          yield* HttpEffect.appendPreResponseHandler((_req, res) => {
            const opened = res.headers[SESSION_HEADER]
            if (opened === undefined) return Effect.succeed(res)
            return Effect.gen(function* () {
              const text = yield* Effect.orElseSucceed(request.text, () => "")
              const ended = yield* store.open({
                sessionId: opened,
                principal,
                protocolVersion: res.headers[VERSION_HEADER] ?? "2025-03-26",
                initialize: initializeParams(text) ?? {}
              })
              yield* keep(opened, opened, principal)
              yield* endCopies(ended.flatMap((id) => copies.remove(id) ?? []))
              return res
            })
          })
          return response
        }

        if (request.method === "DELETE") {
          // the MCP server's own rule for what it answers: browsers only from the allowed origins
          const origin = header(request, "origin")
          if (origin !== undefined && !config.corsOrigins.includes(origin)) return Response.empty({ status: 403 })
          const closed = yield* store.close(session, principal.userId)
          yield* dropCopy(session, principal.userId)
          return closed ? Response.empty({ status: 204 }) : unknownSession()
        }

        const stored = yield* store.use(session, principal.userId)
        if (stored === undefined) {
          // ended, idle, another user's, or its opener revoked: its copy here goes too
          yield* dropCopy(session, principal.userId)
          return unknownSession()
        }
        const copy =
          copies.get(session, principal.userId, yield* Clock.currentTimeMillis) ??
          (yield* rebuild(session, principal.userId, stored))
        if (copy === undefined) {
          return Response.jsonUnsafe({ error: "the MCP session could not be resumed here; try again" }, { status: 503 })
        }
        const forwarded = request.modify({ headers: Headers.set(request.headers, SESSION_HEADER, copy.local) })
        const response = yield* httpEffect.pipe(
          Effect.provideService(McpPrincipal, principal),
          Effect.provideService(HttpServerRequest.HttpServerRequest, forwarded)
        )
        return response.headers[SESSION_HEADER] === copy.local
          ? Response.setHeader(response, SESSION_HEADER, session)
          : response
      })
  })
)
