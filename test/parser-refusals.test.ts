/**
 * Issue 28, low finding: requests Node's HTTP parser refuses before any route sees them (a
 * 70,000-character query, a malformed request line or header) were answered with Node's bare
 * status line and an empty body. They answer the same statuses with `{error}` saying why.
 * Sent over a raw socket: a client library would refuse to send most of them. The parser runs
 * before the database is reached, so one backend is enough.
 */
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { call } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

interface RawReply {
  readonly status: number
  readonly headers: Record<string, string>
  readonly body: string
}

/** Writes `request` as is and reads until the server closes the connection. */
const sendRaw = (port: number, request: string): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    let received = ""
    socket.setEncoding("utf8")
    socket.on("data", (d) => (received += d))
    socket.on("error", reject)
    socket.on("close", () => {
      const split = received.indexOf("\r\n\r\n")
      const [statusLine = "", ...headerLines] = received.slice(0, split).split("\r\n")
      const headers: Record<string, string> = {}
      for (const line of headerLines) {
        const colon = line.indexOf(":")
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: received.slice(split + 4) })
    })
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer; received so far: ${received}`)))
    socket.write(request)
  })

describe("requests the HTTP parser refuses", () => {
  let server: TestServer
  let port: number

  beforeAll(async () => {
    server = await startServer("pglite")
    port = Number(new URL(server.baseUrl).port)
  })
  afterAll(() => server.stop())

  it("a 70,000-character query: 431 with {error} naming the limit", async () => {
    const reply = await sendRaw(port, `GET /api/v1/search?q=${"a".repeat(70_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`)
    expect(reply.status).toBe(431)
    expect(reply.headers["content-type"]).toBe("application/json")
    expect(Number(reply.headers["content-length"])).toBe(Buffer.byteLength(reply.body))
    expect(JSON.parse(reply.body)).toEqual({
      error: "the request line and headers are larger than 16 KB together: shorten the URL (its query) or the headers"
    })
  })

  it("one header of 20,000 characters: 431 with {error}", async () => {
    const reply = await sendRaw(
      port,
      `GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`
    )
    expect(reply.status).toBe(431)
    expect(JSON.parse(reply.body).error).toMatch(/larger than 16 KB/)
  })

  it.each([
    ["a malformed request line", "GET\r\n\r\n", /^malformed HTTP request: .+/],
    [
      "an unknown method",
      "FETCH /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n",
      /^malformed HTTP request: Invalid method/
    ],
    [
      "a header without a colon",
      "GET /api/v1/health HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n",
      /^malformed HTTP request: .+/
    ],
    ["a bad HTTP version", "GET /api/v1/health HTTP/9.9\r\nHost: x\r\n\r\n", /^malformed HTTP request: .+/],
    [
      "both Content-Length and chunked",
      "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      /^malformed HTTP request: .+/
    ]
  ])("%s: 400 with {error} saying what is malformed", async (_name, request, message) => {
    const reply = await sendRaw(port, request)
    expect(reply.status, reply.body).toBe(400)
    expect(reply.headers["content-type"]).toBe("application/json")
    const body = JSON.parse(reply.body)
    expect(Object.keys(body)).toEqual(["error"])
    expect(body.error).toMatch(message)
  })

  it("the server keeps serving after them", async () => {
    expect((await call(server.baseUrl, "GET", "/v1/health")).status).toBe(200)
  })
})
