/**
 * The framework's ceiling: an Effect 4 HttpApi with one `GET /api/v1/health` endpoint and
 * nothing else (no middleware, logger off), served the way the real server is. The distance
 * between this and bare `node:http` is Effect's; the distance from this to the real health row
 * is ours. Prints its port on stdout, like hello-server.ts.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { createServer } from "node:http"

const Health = Schema.Struct({ status: Schema.Literal("ok") })
class System extends HttpApiGroup.make("system").add(
  HttpApiEndpoint.get("health", "/v1/health", { success: Health })
) {}
class Api extends HttpApi.make("hello").add(System).prefix("/api") {}

const SystemLive = HttpApiBuilder.group(Api, "system", (handlers) =>
  handlers.handle("health", () => Effect.succeed({ status: "ok" as const }))
)

const port = Number(process.env.PORT ?? 0)
const host = process.env.HOST ?? "127.0.0.1"
const announce = Layer.effectDiscard(Effect.sync(() => process.stdout.write(`listening ${port}\n`)))

HttpRouter.serve(HttpApiBuilder.layer(Api).pipe(Layer.provide(SystemLive)), {
  disableLogger: true,
  disableListenLog: true
}).pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { port, host })),
  Layer.merge(announce),
  Layer.launch,
  NodeRuntime.runMain
)
