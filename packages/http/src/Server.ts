/**
 * The composition root: Config → listener bound (503 starting) → Redis reached → Sql (+
 * migrations) → core services → handlers → HttpRouter, wrapped by the middleware that
 * guarantees `{error}` bodies and logs requests.
 */
import { type AppConfigValues, coreLayer, type CoreServices, limits, type PasswordHasher } from "@board/core"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ByteSize, Effect, Layer, References } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.ts"
import { AccountsHandlers } from "./handlers/Accounts.ts"
import { BoardHandlers } from "./handlers/Board.ts"
import { CommandsHandlers } from "./handlers/Commands.ts"
import { DesktopHandlers } from "./handlers/Desktop.ts"
import { EventsHandlers } from "./handlers/Events.ts"
import { ForgeHandlers } from "./handlers/Forge.ts"
import { ForgeHookRoutes } from "./forge/ForgeHookRoutes.ts"
import { makeServerClosing } from "./events/ServerClosing.ts"
import { FileRoutes } from "./files/FileRoutes.ts"
import { GrantsHandlers } from "./handlers/Grants.ts"
import { IntakeHandlers } from "./handlers/Intake.ts"
import { InvitationsHandlers } from "./handlers/Invitations.ts"
import { LinksHandlers } from "./handlers/Links.ts"
import { AgentsHandlers } from "./handlers/Agents.ts"
import { AgentMembersHandlers } from "./handlers/AgentMembers.ts"
import { SystemHandlers } from "./handlers/System.ts"
import { WebhooksHandlers } from "./handlers/Webhooks.ts"
import { WorkspacesHandlers } from "./handlers/Workspaces.ts"
import { MembersHandlers } from "./handlers/Members.ts"
import { AuthenticationLive } from "./middleware/AuthenticationLive.ts"
import { errorBodies } from "./middleware/ErrorBodies.ts"
import { makeRequestLogger, type RequestLogger } from "./middleware/RequestLog.ts"
import { RequestErrorsLive } from "./middleware/RequestErrorsLive.ts"
import { makeRouteTable, type RouteTable } from "./middleware/routeTable.ts"
import type { RequestMetrics } from "./monitoring/Metrics.ts"
import { healthFastPath } from "./monitoring/healthFastPath.ts"
import { MetricsRoute, ReadyRoute } from "./monitoring/MonitoringRoutes.ts"
import { serviceVersion } from "./monitoring/version.ts"
import { McpRoutes } from "./mcp/McpRoutes.ts"
import { OAuthRoutes } from "./oauth/OAuthRoutes.ts"
import { OidcRoutes } from "./oidc/OidcRoutes.ts"
import { docsPageRoutes } from "./ApiReference.ts"
import { makeOpenApiDocument } from "./OpenApiDocument.ts"
import { createStartingServer } from "./startingListener.ts"
import { WebAppRoutes } from "./web/WebApp.ts"

/**
 * The OpenAPI document is generated on its first request, not at start: generating it allocates
 * several MiB that a server nobody asks for its document would carry for nothing (issue 35: idle
 * RSS). The first request pays ~70 ms once; the answer is the same bytes every time after.
 */
const docsRoutes = (publicUrl: string) => {
  let document: HttpServerResponse.HttpServerResponse | undefined
  const openApi = Effect.sync(() => (document ??= HttpServerResponse.jsonUnsafe(makeOpenApiDocument(publicUrl))))
  return Layer.mergeAll(HttpRouter.add("GET", "/api/v1/openapi.json", openApi), docsPageRoutes(publicUrl))
}

/** Every route of the service, needing only the core services; `/metrics` only with metrics on. */
export const routesLayer = (
  config: AppConfigValues,
  logger: RequestLogger,
  routes: RouteTable,
  metrics?: RequestMetrics
) =>
  Layer.mergeAll(
    HttpApiBuilder.layer(Api).pipe(
      Layer.provide([
        SystemHandlers,
        AccountsHandlers,
        WorkspacesHandlers,
        MembersHandlers,
        InvitationsHandlers,
        BoardHandlers,
        LinksHandlers,
        AgentsHandlers,
        AgentMembersHandlers,
        CommandsHandlers,
        IntakeHandlers,
        GrantsHandlers,
        DesktopHandlers,
        WebhooksHandlers,
        EventsHandlers,
        ForgeHandlers
      ]),
      Layer.provide(AuthenticationLive),
      Layer.provide(RequestErrorsLive)
    ),
    docsRoutes(config.publicUrl),
    OAuthRoutes,
    OidcRoutes,
    FileRoutes,
    McpRoutes,
    ForgeHookRoutes,
    ReadyRoute,
    WebAppRoutes(config),
    metrics === undefined ? Layer.empty : MetricsRoute(metrics),
    errorBodies(logger, config.publicUrl, config.corsOrigins, routes, metrics)
  )

/**
 * The routes with metrics when METRICS_TOKEN is set: prom-client is imported only then, so a
 * server without it loads none of it and its middleware does no per-request work for it.
 */
const routesWithMetrics = (config: AppConfigValues, logger: RequestLogger, routes: RouteTable) =>
  config.metricsToken === undefined
    ? routesLayer(config, logger, routes)
    : Layer.unwrap(
        Effect.map(
          Effect.promise(() => import("./monitoring/Metrics.ts")),
          (m) => routesLayer(config, logger, routes, m.makeRequestMetrics())
        )
      )

/**
 * Spans exported to OTEL_EXPORTER_OTLP_ENDPOINT through Effect's own OTLP tracer (OTLP/HTTP
 * JSON to `<endpoint>/v1/traces`), imported only when it is set. Without it nothing exports
 * spans, so the spans of Effect.fn and the HTTP layers would be built, timed and dropped on
 * every request: tracing is switched off instead (causes keep their stack frames).
 */
const tracing = (config: AppConfigValues) => {
  const endpoint = config.otelEndpoint
  if (endpoint === undefined) return Layer.succeed(References.TracerEnabled, false)
  return Layer.unwrap(
    Effect.promise(async () => {
      const [{ OtlpSerialization, OtlpTracer }, { FetchHttpClient }] = await Promise.all([
        import("effect/observability"),
        import("effect/http")
      ])
      return OtlpTracer.layer({
        url: `${endpoint}/v1/traces`,
        resource: { serviceName: "board", serviceVersion }
      }).pipe(Layer.provide([OtlpSerialization.layerJson, FetchHttpClient.layer]))
    })
  )
}

export interface ServerOptions {
  readonly hasher?: PasswordHasher
  readonly logger?: RequestLogger
  /** More routes served beside the API, given the core services (tests mount routes here). */
  readonly extraRoutes?: Layer.Layer<never, never, HttpRouter.HttpRouter | CoreServices>
}

/** The whole server for one configuration: listens on HOST:PORT until its scope closes. */
export const serverLayer = (config: AppConfigValues, options: ServerOptions = {}) => {
  const logger = options.logger ?? makeRequestLogger({ level: config.logLevel, format: config.logFormat })
  // 404 or 405: told apart by the routes as registered, tests' extra routes included
  const { table, recording } = makeRouteTable()
  const service = routesWithMetrics(config, logger, table)
  // the event streams end when the listener starts closing (events/ServerClosing.ts)
  const closing = makeServerClosing()
  const routes = (options.extraRoutes === undefined ? service : Layer.merge(service, options.extraRoutes)).pipe(
    Layer.provide(recording),
    Layer.provide(closing.layer)
  )
  // A path parameter longer than the router's default limit (100) made it miss the route: a
  // 300-character id answered 404 "no such endpoint". The HTTP server's header limit bounds the
  // URL anyway, so every parameter reaches its schema (400 for a malformed id).
  const routerConfig = { maxParamLength: 16 * 1024 }
  // Start-up order: the configuration was validated by the caller; the port is bound first (a
  // port in use or a foreign HOST fails here, before anything is touched); then the core reaches
  // Redis, opens the database and migrates; only then are the routes attached. Until then the
  // bound listener answers 503 {"error":"starting"} (startingListener.ts).
  const fastPath = healthFastPath({
    logger,
    corsOrigins: config.corsOrigins,
    metrics: config.metricsToken !== undefined
  })
  const listener = NodeHttpServer.layer(
    () => createStartingServer({ requestTimeout: 30_000, headersTimeout: 15_000 }, closing.close, fastPath),
    { port: config.port, host: config.host }
  )
  const core = Layer.provide(
    coreLayer(config, options.hasher === undefined ? {} : { hasher: options.hasher }),
    listener
  )
  // The core is provided to the routes, not around the whole server: every request's fiber
  // starts from the listener's context, and the framework copies that context into each
  // handler's once per request, so keeping it to the few HTTP services (instead of the whole
  // core) is measurably cheaper. The core and the listener (one instance each, memoised) stay
  // visible to embedders and tests.
  return HttpRouter.serve(Layer.provide(routes, core), {
    disableLogger: true,
    disableListenLog: true,
    routerConfig
  }).pipe(
    // the body limit for every request, set once rather than per request (a 413 beyond it)
    Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(limits.bodyBytes))),
    Layer.provide(tracing(config)),
    Layer.provide(listener),
    Layer.merge(core)
  )
}
