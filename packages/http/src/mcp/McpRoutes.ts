/**
 * The MCP endpoint: Streamable HTTP at `/api/mcp` (Effect's `McpServer.layerHttp`), every
 * request authenticated by an API key (X-API-Key) or an OAuth access token (Authorization:
 * Bearer svc_at_…) before the MCP server reads it; 401 with the challenge otherwise. Tools and
 * prompts act as that request's principal through the core services, with their access checks.
 *
 * Mount it beside the other routes: it needs `HttpRouter` and the core services, so it goes in
 * the `Layer.mergeAll` of `routesLayer` in Server.ts, next to `docsRoutes(...)`.
 */
import { AppConfig } from "@board/core"
import { Effect, Layer } from "effect"
import { McpProtocol, McpServer } from "effect/ai"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { makeHandlers } from "./handlers.ts"
import { MCP_PATH, McpAuth } from "./McpAuth.ts"
import { PromptsLayer } from "./prompts.ts"
import { registerTools } from "./register.ts"
import { ScopeVisibility } from "./toolScopes.ts"
import { BoardToolkit } from "./tools.ts"

export { MCP_PATH }

/** How long a 2026-07-28 client may keep the tool and prompt lists (and discovery) before asking again. */
const LIST_CACHE = { ttl: "5 minutes", cacheScope: "private" } as const

const instructions = [
  "Board Service: kanban boards of workspaces and projects.",
  "Find your way with list_workspaces, then list_projects, then show_board.",
  'Cards are named by id or by ref (WEB-12); projects by id, ref prefix (WEB) or name; columns by id or by name ("In Progress"); labels by name.',
  "A ref that exists in several of your projects needs projectId. Nothing can be deleted here."
].join(" ")

/**
 * Effect's MCP server answers a POST whose Accept lacks either media type with a bare 406; the
 * client's developer gets the header it needs instead (Streamable HTTP requires both).
 */
const AcceptHint = HttpRouter.middleware()((httpEffect) =>
  Effect.map(httpEffect, (response) =>
    response.status === 406
      ? HttpServerResponse.jsonUnsafe(
          {
            error:
              "Not acceptable: the MCP endpoint answers with JSON or an event stream, so send Accept: application/json, text/event-stream"
          },
          { status: 406 }
        )
      : response
  )
)

const ToolsLayer = Layer.effectDiscard(
  Effect.flatMap(makeHandlers, (handlers) => registerTools(BoardToolkit, handlers))
)

export const McpRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const server = McpServer.layerHttp({
      name: "board-service",
      version: "0.1.0",
      instructions,
      path: MCP_PATH,
      // 2026-07-28: stateless, any instance answers any request; the older ones keep sessions,
      // which any instance serves too (McpAuth.ts, core/mcp/McpSessionStore.ts)
      protocols: [McpProtocol.v2026_07_28, McpProtocol.v2025_11_25, McpProtocol.v2025_06_18, McpProtocol.v2025_03_26],
      // the tool and prompt lists are the same on every instance (built from the code, in a fixed
      // order) and for every credential with the same scopes, so 2026-07-28 clients may keep
      // them for a while (private: per credential)
      cacheHints: {
        discover: LIST_CACHE,
        tools: LIST_CACHE,
        prompts: LIST_CACHE
      },
      // nothing changes the lists while a server runs, and a change notification from one
      // instance would reach no client of another: no subscriptions/listen streams
      allowSubscriptions: false,
      // browsers may call only from the configured origins; Origin-less clients (agents, SDKs) always may
      allowedOrigins: config.corsOrigins,
      allowSessionTermination: true,
      // a credential sees and calls only what its scopes cover (toolScopes.ts)
      registrations: Layer.mergeAll(ToolsLayer, PromptsLayer, ScopeVisibility)
    })
    // keep only the routes: the server and its request markers are not for others to use
    return Layer.empty.pipe(Layer.provide(server), Layer.provide(McpAuth.combine(AcceptHint).layer), Layer.orDie)
  })
)
