/**
 * The Prometheus metrics, loaded (with prom-client) only when METRICS_TOKEN is set: a server
 * without it neither imports this module nor does any per-request work for it.
 *
 * prom-client rather than Effect's metrics with `effect/observability/PrometheusMetrics`: that
 * formats Effect's own metrics but collects nothing about the process, while prom-client's
 * default metrics give what an operator needs from it (event-loop lag, heap and RSS, GC,
 * handles) under the names dashboards expect; and an Effect metric update per request runs
 * through the fiber's context, where a prom-client child is a plain object call.
 *
 * Per request the cost is O(1) and allocation-free once warm: the label children of each
 * (route, method, status) are resolved once and kept in maps keyed by the router's own route
 * object and a small number, so no label string is built per request. Routes are the
 * registered patterns (`/api/v1/cards/:id`), never the raw path, so the series are bounded;
 * a request no route matched counts under `unmatched`.
 */
import * as prom from "prom-client"

export interface RequestMetrics {
  /** Counts one finished request; `route` is the router's matched route, if any. */
  readonly observe: (
    route: { readonly path: string } | undefined,
    method: string,
    status: number,
    seconds: number
  ) => void
  /** Sets the gauges read from the database before a scrape (PostgreSQL only). */
  readonly setConnections: (byState: ReadonlyArray<{ readonly state: string; readonly count: number }>) => void
  readonly render: () => Promise<string>
  readonly contentType: string
}

interface Children {
  readonly count: prom.Counter.Internal
  readonly duration: prom.Histogram.Internal<"route" | "method" | "status">
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
const methodIndex = (method: string): number => {
  const i = METHODS.indexOf(method)
  return i === -1 ? METHODS.length : i
}
const UNMATCHED = { path: "unmatched" }

export const makeRequestMetrics = (): RequestMetrics => {
  // a registry of its own: several servers in one process (tests) must not share series
  const registry = new prom.Registry()
  prom.collectDefaultMetrics({ register: registry })
  const requests = new prom.Counter({
    name: "http_requests_total",
    help: "HTTP requests by route pattern, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry]
  })
  const durations = new prom.Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by route pattern, method and status, until the response is handed to Node",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry]
  })
  const connections = new prom.Gauge({
    name: "board_db_connections",
    help: "Connections to this database by state, as PostgreSQL reports them at scrape time (all instances)",
    labelNames: ["state"] as const,
    registers: [registry]
  })
  const byRoute = new Map<object, Map<number, Children>>()
  const childrenOf = (route: { readonly path: string }, method: string, status: number): Children => {
    let byKey = byRoute.get(route)
    if (byKey === undefined) {
      byKey = new Map()
      byRoute.set(route, byKey)
    }
    const key = status * 16 + methodIndex(method)
    let children = byKey.get(key)
    if (children === undefined) {
      const labels = {
        route: route.path,
        method: methodIndex(method) < METHODS.length ? method : "OTHER",
        status: String(status)
      }
      children = { count: requests.labels(labels), duration: durations.labels(labels) }
      byKey.set(key, children)
    }
    return children
  }
  return {
    observe: (route, method, status, seconds) => {
      const children = childrenOf(route ?? UNMATCHED, method, status)
      children.count.inc()
      children.duration.observe(seconds)
    },
    setConnections: (byState) => {
      connections.reset()
      for (const { state, count } of byState) connections.set({ state }, count)
    },
    render: () => registry.metrics(),
    contentType: registry.contentType
  }
}
