/**
 * What a load balancer and a monitoring system ask: `GET /api/v1/ready` (readiness: the
 * database, and Redis when configured, answer within the core's deadline; `/api/v1/health`
 * stays liveness) and `GET /metrics` (Prometheus text, outside /api, mounted only when
 * METRICS_TOKEN is set, for `Authorization: Bearer <token>` alone).
 */
import { AppConfig, Readiness } from "@board/core"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import * as crypto from "node:crypto"
import type { RequestMetrics } from "./Metrics.ts"
import { serviceVersion } from "./version.ts"

const noStore = { "cache-control": "no-store" }

export const ReadyRoute = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const readiness = yield* Readiness
    yield* router.add(
      "GET",
      "/api/v1/ready",
      readiness.check.pipe(
        Effect.map((report) =>
          HttpServerResponse.jsonUnsafe(
            { status: "ready", version: serviceVersion, ...report },
            { status: 200, headers: noStore }
          )
        ),
        Effect.catch((e) =>
          Effect.succeed(
            HttpServerResponse.jsonUnsafe({ error: `not ready: ${e.message}` }, { status: 503, headers: noStore })
          )
        )
      )
    )
  })
)

/** Compares digests, so neither the token's length nor its bytes show in the time taken. */
const sameToken = (expected: Buffer, given: string): boolean =>
  crypto.timingSafeEqual(expected, crypto.createHash("sha256").update(given).digest())

export const MetricsRoute = (metrics: RequestMetrics) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const router = yield* HttpRouter.HttpRouter
      const config = yield* AppConfig
      const readiness = yield* Readiness
      const expected = crypto
        .createHash("sha256")
        .update(config.metricsToken ?? "")
        .digest()
      // the core asks the database (nothing on the embedded one); a failed count keeps the last
      const connections = readiness.connections.pipe(
        Effect.map((byState) => (byState === undefined ? undefined : metrics.setConnections(byState)))
      )
      yield* router.add("GET", "/metrics", (request) => {
        const header = request.headers.authorization ?? ""
        if (!header.startsWith("Bearer ") || !sameToken(expected, header.slice(7).trim())) {
          return Effect.succeed(
            HttpServerResponse.jsonUnsafe(
              { error: "metrics need Authorization: Bearer <METRICS_TOKEN>" },
              { status: 401, headers: { ...noStore, "www-authenticate": 'Bearer realm="metrics"' } }
            )
          )
        }
        return connections.pipe(
          Effect.andThen(Effect.promise(metrics.render)),
          Effect.map((body) => HttpServerResponse.text(body, { contentType: metrics.contentType, headers: noStore }))
        )
      })
    })
  )
