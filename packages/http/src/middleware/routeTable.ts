/**
 * The route table that 404 and 405 are told apart by, derived from the registrations
 * themselves: a router that records every route added to it (by the HttpApi, the docs, OAuth,
 * file and MCP routes alike) before passing it on. Nothing lists the routes a second time.
 */
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"

export interface RouteTable {
  /** The methods some route accepts at `path`, sorted; empty when no route has the path. */
  readonly allowFor: (path: string) => ReadonlyArray<string>
}

/** `/api/v1/cards/:id` and `/files/*` as regular expressions over a request path. */
const patternOf = (path: string): RegExp =>
  new RegExp(
    `^${path
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\\?:\w+/g, "[^/]+")
      .replace(/\\\*/g, ".*")}$`
  )

/** A table and the layer that records into it every route added to the router it wraps. */
export const makeRouteTable = (): {
  readonly table: RouteTable
  readonly recording: Layer.Layer<HttpRouter.HttpRouter, never, HttpRouter.HttpRouter>
} => {
  const routes: Array<{ readonly method: string; readonly pattern: RegExp }> = []
  const record = (method: string, path: string) => {
    if (method !== "*") routes.push({ method, pattern: patternOf(path) })
  }
  const table: RouteTable = {
    allowFor: (path) => [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))].sort()
  }
  const recording = Layer.effect(
    HttpRouter.HttpRouter,
    Effect.map(
      Effect.service(HttpRouter.HttpRouter),
      (router): HttpRouter.HttpRouter =>
        // everything else (global middleware, prefixes, the http effect) is the router's own
        Object.assign(Object.create(router) as HttpRouter.HttpRouter, {
          add: ((method, path, handler, options) => {
            record(method, path)
            return router.add(method, path, handler, options)
          }) satisfies HttpRouter.HttpRouter["add"],
          addAll: ((routesToAdd) => {
            for (const route of routesToAdd) record(route.method, route.path)
            return router.addAll(routesToAdd)
          }) satisfies HttpRouter.HttpRouter["addAll"]
        })
    )
  )
  return { table, recording }
}
