/**
 * MCP sessions are bounded: Effect's MCP server keeps a session until its client sends DELETE,
 * which most clients never do. A user's least recently used session beyond
 * MCP_SESSIONS_PER_USER, and any session idle for MCP_SESSION_IDLE, is ended in the MCP server
 * itself (the request log shows the internal DELETE answered 204, which only a live session
 * gets) and answers 404 afterwards, on which MCP clients open a new one.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { eventually } from "./support/poll.ts"
import { startServer, type TestServer } from "./support/server.ts"

const open = async (base: string, apiKey: string) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { "X-API-Key": apiKey } }
  })
  const client = new Client({ name: "session-bounds", version: "1.0.0" })
  await client.connect(transport)
  return { client, sessionId: transport.sessionId!, protocol: transport.protocolVersion ?? "2025-11-25" }
}

const listTools = (base: string, apiKey: string, session: { sessionId: string; protocol: string }) =>
  call(base, "POST", "/mcp", {
    raw: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params: {} }),
    headers: {
      ...key(apiKey),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": session.sessionId,
      "mcp-protocol-version": session.protocol
    }
  })

/** Internal DELETEs of /api/mcp the request log shows, by status. */
const endedInServer = (server: TestServer) =>
  server.logLines
    .map((l) => JSON.parse(l))
    .filter((l) => l.method === "DELETE" && l.path === "/api/mcp" && l.userId === null)
    .map((l) => l.status)

describe("MCP session bounds", () => {
  let server: TestServer
  let a: Account
  let b: Account

  beforeAll(async () => {
    server = await startServer("pglite", { MCP_SESSIONS_PER_USER: "2", MCP_SESSION_IDLE: "5s", LOG_LEVEL: "info" })
    a = await bootstrap(server.baseUrl, "sessions-a")
    b = await bootstrap(server.baseUrl, "sessions-b")
  })
  afterAll(async () => {
    await server?.stop()
  })

  it("ends a user's least recently used session beyond their limit, in the MCP server too", async () => {
    const base = server.baseUrl
    const first = await open(base, a.apiKey)
    const second = await open(base, a.apiKey)
    const theirs = await open(base, b.apiKey)
    expect((await listTools(base, a.apiKey, first)).status).toBe(200) // second is now the least recently used
    const before = endedInServer(server).length
    const third = await open(base, a.apiKey)

    const gone = await listTools(base, a.apiKey, second)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ error: expect.stringMatching(/initialize a new one/) })
    for (const live of [first, third]) expect((await listTools(base, a.apiKey, live)).status).toBe(200)
    expect((await listTools(base, b.apiKey, theirs)).status).toBe(200)
    await eventually(() => expect(endedInServer(server).slice(before)).toEqual([204]))
    // the SDK client of a live session keeps working
    expect((await third.client.listTools()).tools.length).toBeGreaterThan(0)
    for (const s of [first, second, third, theirs]) await s.client.close().catch(() => undefined)
  })

  it("ends a session idle for longer than MCP_SESSION_IDLE", async () => {
    const base = server.baseUrl
    const idle = await open(base, b.apiKey)
    expect((await listTools(base, b.apiKey, idle)).status).toBe(200)
    const before = endedInServer(server).length
    await new Promise((r) => setTimeout(r, 5_300))
    const late = await listTools(base, b.apiKey, idle)
    expect(late.status).toBe(404)
    await eventually(() => expect(endedInServer(server).slice(before)).toContain(204))
    // a new session works at once
    const fresh = await open(base, b.apiKey)
    expect((await listTools(base, b.apiKey, fresh)).status).toBe(200)
    await fresh.client.close().catch(() => undefined)
  })

  it("a DELETE without a credential ends nothing, whatever it carries", async () => {
    const base = server.baseUrl
    const session = await open(base, a.apiKey)
    const forged = await call(base, "DELETE", "/mcp", { headers: { "mcp-session-id": session.sessionId } })
    expect(forged.status).toBe(401)
    expect((await listTools(base, a.apiKey, session)).status).toBe(200)
    await session.client.close().catch(() => undefined)
  })
})
