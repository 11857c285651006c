/**
 * Issue 17, findings 3 and 4: readiness beside liveness, Prometheus metrics (off unless
 * configured, behind a token), the service version, and request ids (accepted when sane,
 * always returned, the id of the log line). Real HTTP against the real server on each database.
 */
import { makeRequestLogger, serverLayer } from "@board/http"
import { Effect, Layer, ManagedRuntime, References } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import type * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Backend, dialectBackends as backends, createTestDatabase, postgresUrl } from "./support/backends.ts"
import { bootstrap, call, key } from "./support/client.ts"
import { freePort, startServer, type TestServer, testHasher } from "./support/server.ts"
import { parseConfig } from "@board/core"

const TOKEN = "metrics-token-0123456789abcdef"
const rootVersion = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")).version

describe.each(backends)("monitoring on %s", (backend: Backend) => {
  let server: TestServer
  let metered: TestServer
  let base: string
  beforeAll(async () => {
    ;[server, metered] = await Promise.all([startServer(backend), startServer(backend, { METRICS_TOKEN: TOKEN })])
    base = server.baseUrl
  })
  afterAll(async () => {
    await Promise.all([server?.stop(), metered?.stop()])
  })

  describe("readiness and version", () => {
    it("GET /v1/ready answers 200 ready when the database (and Redis, when configured) answers", async () => {
      const r = await call(base, "GET", "/v1/ready")
      expect(r.status).toBe(200)
      expect(r.body).toEqual({
        status: "ready",
        version: rootVersion,
        database: backend === "postgres" ? "postgresql" : "embedded",
        redis: "not configured"
      })
      expect(r.headers.get("cache-control")).toBe("no-store")
    })

    it("health stays liveness, exactly as SPEC.md says", async () => {
      expect((await call(base, "GET", "/v1/health")).text).toBe(`{"status":"ok","service":"service-api"}`)
    })

    it("health answers alike before the router (monitoring/healthFastPath.ts) and through it", async () => {
      // a query string leaves the request to the router; the bare path is answered before it
      const id = `probe-${crypto.randomBytes(6).toString("hex")}`
      const fast = await fetch(`${base}/v1/health`, { headers: { "x-request-id": id } })
      const routed = await fetch(`${base}/v1/health?via=router`, { headers: { "x-request-id": `${id}-r` } })
      const shape = async (r: Response) => ({
        status: r.status,
        text: await r.text(),
        headers: [...r.headers.entries()].filter(([name]) => name !== "date" && name !== "x-request-id")
      })
      expect(await shape(fast)).toEqual(await shape(routed))
      expect(fast.headers.get("x-request-id")).toBe(id)
      expect(routed.headers.get("x-request-id")).toBe(`${id}-r`)
      const lines = server.logLines.map((l) => JSON.parse(l))
      const line = (requestId: string) => lines.find((l) => l.requestId === requestId)
      const expected = { msg: "request", method: "GET", path: "/api/v1/health", status: 200, userId: null }
      expect(line(id)).toMatchObject(expected)
      expect(line(`${id}-r`)).toMatchObject(expected)
      // a request with a body is the router's (its 413 rule), as is every other method
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          `${base}/v1/health`,
          { headers: { "content-length": String(2 * 1024 * 1024) } },
          (r) => {
            resolve(r.statusCode ?? 0)
            // the promised body never comes: end the connection rather than leave it open
            req.destroy()
          }
        )
        req.on("error", reject)
        req.flushHeaders()
      })
      expect(status).toBe(413)
      expect((await fetch(`${base}/v1/health`, { method: "HEAD" })).status).toBe(200)
    })

    it("GET /v1 carries the service version beside the API version", async () => {
      const r = await call(base, "GET", "/v1")
      expect(r.body.version).toBe("1.0")
      expect(r.body.serviceVersion).toBe(rootVersion)
      expect(rootVersion).toMatch(/^\d+\.\d+\.\d+/)
    })
  })

  describe("request ids", () => {
    const sane = ["abc-123", "req_42:retry.1", "A".repeat(128), crypto.randomUUID()]
    it("a sane X-Request-Id is echoed and names the request's log line", async () => {
      for (const id of sane) {
        const r = await call(base, "GET", "/v1/health", { headers: { "x-request-id": id } })
        expect(r.headers.get("x-request-id")).toBe(id)
      }
      const id = `trace-${crypto.randomBytes(6).toString("hex")}`
      await call(base, "GET", "/v1/workspaces", { headers: { "x-request-id": id } })
      const line = server.logLines.map((l) => JSON.parse(l)).find((l) => l.requestId === id)
      expect(line).toMatchObject({ msg: "request", path: "/api/v1/workspaces", status: 401 })
    })

    it("an insane one is replaced by a fresh id", async () => {
      for (const bad of ["A".repeat(129), "has space", "semi;colon", "ünï", "a/b", "<script>"]) {
        const r = await call(base, "GET", "/v1/health", { headers: { "x-request-id": bad } })
        const id = r.headers.get("x-request-id")
        expect(id).not.toBe(bad)
        expect(id).toMatch(/^[0-9a-f-]{36}$/)
      }
    })

    it("every response carries one: 200, 401, 404, 405, OAuth, MCP, files, ready", async () => {
      const cases: Array<[string, string, number]> = [
        ["GET", "/v1/health", 200],
        ["GET", "/v1/workspaces", 401],
        ["GET", "/v1/nope", 404],
        ["DELETE", "/v1/health", 405],
        ["GET", "/v1/ready", 200],
        ["POST", "/mcp", 401]
      ]
      for (const [method, path, status] of cases) {
        const r = await call(base, method, path)
        expect(r.status, `${method} ${path}`).toBe(status)
        expect(r.headers.get("x-request-id"), `${method} ${path}`).toMatch(/^[0-9a-f-]{36}$/)
      }
      const origin = base.replace(/\/api$/, "")
      for (const path of ["/.well-known/oauth-authorization-server", "/files/nope.zip", "/oauth/authorize"]) {
        const r = await fetch(`${origin}${path}`, { headers: { "x-request-id": "outside-api" }, redirect: "manual" })
        expect(r.headers.get("x-request-id"), path).toBe("outside-api")
      }
    })
  })

  describe("metrics", () => {
    it("are off unless METRICS_TOKEN is set: /metrics is 404", async () => {
      const r = await fetch(`${base.replace(/\/api$/, "")}/metrics`)
      expect(r.status).toBe(404)
    })

    it("need the token: 401 without it or with a wrong one", async () => {
      const url = `${metered.baseUrl.replace(/\/api$/, "")}/metrics`
      for (const headers of [
        {},
        { authorization: `Bearer ${TOKEN}x` },
        { authorization: "Bearer short" },
        { authorization: TOKEN },
        { "x-api-key": TOKEN }
      ]) {
        const r = await fetch(url, { headers })
        expect(r.status).toBe(401)
        expect(r.headers.get("www-authenticate")).toContain("Bearer")
        expect(await r.text()).not.toContain("http_requests_total")
      }
    })

    it("count requests by route pattern and status, with latency, process and event-loop metrics", async () => {
      const url = `${metered.baseUrl.replace(/\/api$/, "")}/metrics`
      const scrape = async () => {
        const r = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
        expect(r.status).toBe(200)
        expect(r.headers.get("content-type")).toContain("text/plain")
        return r.text()
      }
      const a = await bootstrap(metered.baseUrl, "metered")
      const cardRoute = (text: string, status: number) => {
        const m = new RegExp(
          `^http_requests_total\\{route="/api/v1/cards/:id",method="GET",status="${status}"\\} (\\d+)$`,
          "m"
        ).exec(text)
        return m === null ? 0 : Number(m[1])
      }
      const missing = crypto.randomUUID()
      const first = await call(metered.baseUrl, "GET", `/v1/cards/${missing}`, { headers: key(a.apiKey) })
      const before = cardRoute(await scrape(), first.status)
      expect(before).toBeGreaterThanOrEqual(1)
      await call(metered.baseUrl, "GET", `/v1/cards/${crypto.randomUUID()}`, { headers: key(a.apiKey) })
      await call(metered.baseUrl, "GET", `/v1/nope-${crypto.randomUUID()}`)
      const text = await scrape()
      expect(cardRoute(text, first.status)).toBe(before + 1)
      // the pattern, never the raw path: no id reaches a label
      expect(text).not.toContain(missing)
      expect(text).not.toContain("nope-")
      expect(text).toMatch(/^http_requests_total\{route="unmatched",method="GET",status="404"\} \d+$/m)
      expect(text).toMatch(
        /^http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/v1\/cards\/:id",method="GET",status="\d+"\} \d+$/m
      )
      // with metrics on, health goes through the router too, and is counted
      await call(metered.baseUrl, "GET", "/v1/health")
      expect(await scrape()).toMatch(
        /^http_requests_total\{route="\/api\/v1\/health",method="GET",status="200"\} [1-9]\d*$/m
      )
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m)
      expect(text).toMatch(/^process_resident_memory_bytes /m)
      expect(text).toMatch(/^nodejs_heap_size_used_bytes /m)
      if (backend === "postgres") expect(text).toMatch(/^board_db_connections\{state="[a-z ]+"\} \d+$/m)
    })
  })
})

describe.skipIf(postgresUrl === undefined)("readiness when the database goes away (PostgreSQL)", () => {
  it("answers 503 naming the database and the cause, while health stays 200", async () => {
    const database = await createTestDatabase({ migrated: true })
    const port = await freePort()
    const config = parseConfig({
      DATA_DIR: "memory:",
      PORT: String(port),
      LOG_FORMAT: "json",
      DATABASE_URL: database.url
    })
    const logger = makeRequestLogger({ level: "info", format: "json", write: () => {} })
    const runtime = ManagedRuntime.make(
      serverLayer(config, { hasher: testHasher, logger }).pipe(
        Layer.provide(Layer.succeed(References.MinimumLogLevel, "None")),
        Layer.orDie
      )
    )
    try {
      await runtime.runPromise(Effect.void)
      const base = `http://127.0.0.1:${port}/api`
      expect((await call(base, "GET", "/v1/ready")).status).toBe(200)
      // the server's database is terminated and dropped under it
      await database.drop()
      const r = await call(base, "GET", "/v1/ready")
      expect(r.status).toBe(503)
      expect(r.body.error).toMatch(/^not ready: database: .+/)
      expect(r.body.error).toContain("does not exist")
      expect((await call(base, "GET", "/v1/health")).status).toBe(200)
    } finally {
      await runtime.dispose().catch(() => {})
      await database.drop()
    }
  })
})

describe.skipIf(process.env.REDIS_URL === undefined)("readiness with Redis configured", () => {
  it("asks Redis too: 200 with redis ok", async () => {
    const server = await startServer("pglite", { REDIS_URL: process.env.REDIS_URL! })
    try {
      const r = await call(server.baseUrl, "GET", "/v1/ready")
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ status: "ready", database: "embedded", redis: "ok" })
    } finally {
      await server.stop()
    }
  })
})

describe("traces", () => {
  it("are exported over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT when it is set", async () => {
    const received: Array<{ path: string; body: string }> = []
    const collector = http.createServer((req, res) => {
      let body = ""
      req.on("data", (d) => (body += d))
      req.on("end", () => {
        received.push({ path: req.url ?? "", body })
        res.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
    const endpoint = `http://127.0.0.1:${(collector.address() as net.AddressInfo).port}`
    try {
      const server = await startServer("pglite", { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint })
      const r = await call(server.baseUrl, "GET", "/v1/workspaces")
      expect(r.status).toBe(401)
      // the exporter flushes what it holds when the server stops
      await server.stop()
      const traces = received.filter((x) => x.path === "/v1/traces")
      expect(traces.length).toBeGreaterThan(0)
      const all = traces.map((x) => x.body).join("\n")
      expect(all).toContain('"resourceSpans"')
      expect(all).toContain('"board"')
      expect(all).toContain("/api/v1/workspaces")
    } finally {
      collector.close()
    }
  })
})
