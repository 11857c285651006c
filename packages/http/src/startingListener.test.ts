import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { healthFastPath } from "./monitoring/healthFastPath.ts"
import { makeRequestLogger } from "./middleware/RequestLog.ts"
import { createStartingServer } from "./startingListener.ts"

describe("createStartingServer", () => {
  it("answers 503 starting until the application's handler is attached, then only that handler answers", async () => {
    const server = createStartingServer({})
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/health`
    try {
      const before = await fetch(url)
      expect(before.status).toBe(503)
      expect(before.headers.get("retry-after")).toBe("1")
      expect(await before.json()).toEqual({ error: "starting" })
      server.on("request", (_req, res) => res.end("ready"))
      const after = await fetch(url)
      expect(after.status).toBe(200)
      expect(await after.text()).toBe("ready")
    } finally {
      server.close()
    }
  })

  it("lets the fast path answer first only once the application is attached; what it declines reaches the application", async () => {
    const server = createStartingServer({}, undefined, (req, res) => {
      if (req.url !== "/fast") return false
      res.end("fast")
      return true
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      expect((await fetch(`${origin}/fast`)).status).toBe(503)
      server.on("request", (_req, res) => res.end("app"))
      expect(await (await fetch(`${origin}/fast`)).text()).toBe("fast")
      expect(await (await fetch(`${origin}/other`)).text()).toBe("app")
    } finally {
      server.close()
    }
  })

  it("health's fast path answers the bare path itself and leaves the rest, and every request under CORS, to the application", async () => {
    const logger = makeRequestLogger({ level: "error", format: "json" })
    const seen: Array<string | undefined> = []
    const app = (req: http.IncomingMessage, res: http.ServerResponse) => {
      seen.push(req.url)
      res.statusCode = 500
      res.end("app")
    }
    const plain = createStartingServer({}, undefined, healthFastPath({ logger, corsOrigins: [], metrics: false }))
    const cors = healthFastPath({ logger, corsOrigins: ["https://a.example"], metrics: false })
    expect(cors).toBeUndefined()
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve))
    const origin = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
    try {
      plain.on("request", app)
      const fast = await fetch(`${origin}/api/v1/health`)
      expect(fast.status).toBe(200)
      expect(await fast.text()).toBe(`{"status":"ok","service":"service-api"}`)
      expect((await fetch(`${origin}/api/v1/health?x=1`)).status).toBe(500)
      expect(seen).toEqual(["/api/v1/health?x=1"])
    } finally {
      plain.close()
    }
  })

  it("closes at once when a request in flight at close is answered (not after the keep-alive timeout)", async () => {
    const server = createStartingServer({ keepAliveTimeout: 30_000 })
    let answer: (() => void) | undefined
    server.on("request", (_req, res) => {
      answer = () => res.end("late")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const agent = new http.Agent({ keepAlive: true })
    const reply = new Promise<string>((resolve, reject) =>
      http
        .get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { agent }, (res) => {
          let text = ""
          res.on("data", (d) => (text += d))
          res.on("end", () => resolve(text))
        })
        .on("error", reject)
    )
    while (answer === undefined) await new Promise((r) => setTimeout(r, 10))
    const started = Date.now()
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    answer()
    expect(await reply).toBe("late")
    await closed
    expect(Date.now() - started).toBeLessThan(2_000)
    agent.destroy()
  })
})
