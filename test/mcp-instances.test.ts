/**
 * Issue 33, part 1: `/api/mcp` through two `board serve` instances on one PostgreSQL, with
 * every request going to the other instance than the one before (a round-robin relay, no
 * sticky routing). The official SDK v2 client speaks the stateless 2026-07-28 revision; the
 * 1.x SDK and raw JSON-RPC speak the session revisions (2025-11-25, 2025-06-18, 2025-03-26),
 * whose sessions any instance serves. Each lists tools and prompts, claims the next card,
 * reports and releases it. The tool and prompt lists are the same on both instances, and the
 * 2026-07-28 ones carry a cache hint.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postgresUrl } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { type Instances, startInstances } from "./support/instances.ts"
import { type RoundRobin, roundRobin } from "./support/roundRobin.ts"

const MODERN = "2026-07-28"
const ACCEPT = "application/json, text/event-stream"

/** POSTs to the MCP endpoint and reads the whole answer, JSON or an event stream (which ends with the answer). */
const post = async (base: string, body: string, headers: Record<string, string>) => {
  const res = await fetch(`${base}/mcp`, { method: "POST", body, headers })
  const text = await res.text()
  let parsed: any
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.status, headers: res.headers, text, body: parsed }
}

/** A 2026-07-28 request by hand: the headers and `_meta` the revision requires of every request. */
const modern = (base: string, apiKey: string, method: string, params: Record<string, unknown> = {}) =>
  post(
    base,
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "by-hand", version: "1.0.0" }
        }
      }
    }),
    {
      ...key(apiKey),
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-protocol-version": MODERN,
      "mcp-method": method
    }
  )

/** A session revision's request by hand (initialize without a session, the rest within one). */
const legacy = async (
  base: string,
  apiKey: string,
  body: Record<string, unknown>,
  session?: { id: string; version: string }
) =>
  post(base, JSON.stringify({ jsonrpc: "2.0", ...body }), {
    ...key(apiKey),
    "content-type": "application/json",
    accept: ACCEPT,
    ...(session === undefined ? {} : { "mcp-session-id": session.id, "mcp-protocol-version": session.version })
  })

/** The JSON-RPC message of an answer sent as JSON or as one SSE event. */
const message = (r: { body: any; text: string }) =>
  r.body ??
  JSON.parse(
    r.text
      .split("\n")
      .find((l) => l.startsWith("data: "))!
      .slice(6)
  )

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
const textOf = (result: any) => (result.content as Array<{ type: string; text: string }>)[0]!.text
const dataOf = (result: any) => result.structuredContent ?? JSON.parse(textOf(result))

describe.skipIf(postgresUrl === undefined)("MCP through two instances with no sticky routing", () => {
  let instances: Instances | undefined
  let relay: RoundRobin
  let base: string
  let a: Account

  beforeAll(async () => {
    instances = await startInstances()
    relay = await roundRobin(instances.bases.map((b) => new URL(b).origin))
    base = `${relay.origin}/api`
    a = await bootstrap(instances.bases[0]!, "mcp-two")
  }, 120_000)
  afterAll(async () => {
    await relay?.close()
    await instances?.stop()
  })

  /** A project with two cards in To Do, for one client's run of the queue. */
  const queue = async (name: string) => {
    const project = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: a.workspaceId, name, template: "kanban" },
      headers: bearer(a.session)
    })
    const projectId = project.body.project.id as string
    for (const [title, priority] of [
      ["Later", "low"],
      ["First", "urgent"]
    ] as const) {
      await call(base, "POST", "/v1/cards", {
        body: { projectId, title, priority, columnId: project.body.columns[0].id },
        headers: key(a.apiKey)
      })
    }
    return { projectId, done: project.body.columns.find((c: any) => c.name === "Done").id as string }
  }

  /** The relay's MCP requests from `from` on went to both instances, alternating. */
  const alternated = (from: number) => {
    const mcp = relay.served.slice(from).filter((r) => r.path === "/api/mcp")
    expect(mcp.length).toBeGreaterThanOrEqual(4)
    expect(new Set(mcp.map((r) => r.to))).toEqual(new Set([0, 1]))
  }

  it("tool and prompt lists are the same on every instance, and cacheable in 2026-07-28", async () => {
    const [one, two] = await Promise.all(instances!.bases.map((b) => modern(b, a.apiKey, "tools/list")))
    expect(one!.status).toBe(200)
    const [tools1, tools2] = [message(one!).result, message(two!).result]
    expect(tools1.tools).toEqual(tools2.tools)
    expect(tools1.tools.length).toBeGreaterThan(20)
    expect(tools1).toMatchObject({ ttlMs: 300_000, cacheScope: "private" })
    const prompts = await Promise.all(instances!.bases.map((b) => modern(b, a.apiKey, "prompts/list")))
    expect(message(prompts[0]!).result.prompts).toEqual(message(prompts[1]!).result.prompts)
    expect(message(prompts[0]!).result).toMatchObject({ ttlMs: 300_000, cacheScope: "private" })
    // the session revisions list the same tools, in the same order
    const init = await legacy(instances!.bases[1]!, a.apiKey, {
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "lists", version: "1" } }
    })
    const session = { id: init.headers.get("mcp-session-id")!, version: "2025-11-25" }
    const listed = await legacy(instances!.bases[1]!, a.apiKey, { id: 2, method: "tools/list", params: {} }, session)
    expect(message(listed).result.tools.map((t: any) => t.name)).toEqual(tools1.tools.map((t: any) => t.name))
  })

  it("the SDK v2 client (2026-07-28): tools, claim next, report, release, prompts", async () => {
    const { projectId, done } = await queue("Modern queue")
    const from = relay.served.length
    const client = new ClientV2(
      { name: "two-instances-v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MODERN } } }
    )
    await client.connect(
      new TransportV2(new URL(`${base}/mcp`), { requestInit: { headers: { "X-API-Key": a.apiKey } } })
    )
    expect(client.getProtocolEra()).toBe("modern")
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["claim_next_card", "report", "release_card"]))
    const claimed = dataOf(
      await client.callTool({ name: "claim_next_card", arguments: { projectId, column: "To Do" } })
    )
    expect(claimed.card.title).toBe("First")
    const sessionId = claimed.session.id as string
    const reported = dataOf(
      await client.callTool({ name: "report", arguments: { sessionId, type: "thought", body: "on it" } })
    )
    expect(reported.activity.type).toBe("thought")
    const released = dataOf(
      await client.callTool({ name: "release_card", arguments: { sessionId, status: "complete", moveTo: "Done" } })
    )
    expect(released.session.status).toBe("complete")
    const card = await call(base, "GET", `/v1/cards/${claimed.card.id}`, { headers: key(a.apiKey) })
    expect(card.body.columnId).toBe(done)
    const { prompts } = await client.listPrompts()
    expect(prompts.map((p) => p.name).sort()).toEqual(["analysis", "draft", "execute", "work_queue"])
    const prompt = await client.getPrompt({ name: "work_queue", arguments: { projectId } })
    expect((prompt.messages[0]!.content as { text: string }).text).toContain("claim_next_card")
    await client.close()
    alternated(from)
  })

  it("the 1.x SDK client (2025-11-25 session): every request on the other instance, the session holds", async () => {
    const { projectId, done } = await queue("Session queue")
    const from = relay.served.length
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { "X-API-Key": a.apiKey } }
    })
    const client = new Client({ name: "two-instances-v1", version: "1.0.0" })
    await client.connect(transport)
    expect(transport.protocolVersion).toBe("2025-11-25")
    const sessionId = transport.sessionId!
    for (let i = 0; i < 2; i++) expect((await client.listTools()).tools.length).toBeGreaterThan(20)
    const claimed = dataOf(
      await client.callTool({ name: "claim_next_card", arguments: { projectId, column: "To Do" } })
    )
    expect(claimed.card.title).toBe("First")
    const agent = claimed.session.id as string
    await client.callTool({ name: "report", arguments: { sessionId: agent, type: "action", body: "ran the tests" } })
    const released = dataOf(
      await client.callTool({
        name: "release_card",
        arguments: { sessionId: agent, status: "complete", moveTo: "Done" }
      })
    )
    expect(released.session.status).toBe("complete")
    expect((await call(base, "GET", `/v1/cards/${claimed.card.id}`, { headers: key(a.apiKey) })).body.columnId).toBe(
      done
    )
    expect((await client.listPrompts()).prompts.length).toBe(4)
    // one session throughout, answered by both instances
    expect(transport.sessionId).toBe(sessionId)
    alternated(from)
    // ending it on one instance ends it on the other
    await transport.terminateSession()
    for (const b of instances!.bases) {
      const after = await legacy(
        b,
        a.apiKey,
        { id: 9, method: "tools/list", params: {} },
        { id: sessionId, version: "2025-11-25" }
      )
      expect(after.status).toBe(404)
    }
    await client.close()
  })

  for (const version of ["2025-06-18", "2025-03-26"]) {
    it(`a ${version} session by hand, alternating: initialize, tools, claim, report, release, prompts`, async () => {
      const { projectId } = await queue(`Queue ${version}`)
      const from = relay.served.length
      const init = await legacy(base, a.apiKey, {
        id: 1,
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "by-hand", version: "1" } }
      })
      expect(message(init).result.protocolVersion).toBe(version)
      const session = { id: init.headers.get("mcp-session-id")!, version }
      expect((await legacy(base, a.apiKey, { method: "notifications/initialized" }, session)).status).toBe(202)
      const rpc = async (id: number, method: string, params: Record<string, unknown>) => {
        const r = await legacy(base, a.apiKey, { id, method, params }, session)
        expect(r.status).toBe(200)
        const m = message(r)
        expect(m.error).toBeUndefined()
        return m.result
      }
      expect((await rpc(2, "tools/list", {})).tools.length).toBeGreaterThan(20)
      // 2025-03-26 has no structured content: the agent session's id is read from the text
      const claimed = await rpc(3, "tools/call", { name: "claim_next_card", arguments: { projectId, column: "To Do" } })
      expect(textOf(claimed)).toMatch(/^Claimed /)
      const agent = (claimed.structuredContent?.session.id ?? textOf(claimed).match(UUID)![0]) as string
      const reported = await rpc(4, "tools/call", {
        name: "report",
        arguments: { sessionId: agent, type: "thought", body: "hm" }
      })
      expect(reported.isError).not.toBe(true)
      const released = await rpc(5, "tools/call", {
        name: "release_card",
        arguments: { sessionId: agent, status: "complete" }
      })
      expect(released.isError).not.toBe(true)
      const after = await call(base, "GET", `/v1/agent-sessions/${agent}`, { headers: key(a.apiKey) })
      expect(after.body.status).toBe("complete")
      expect(after.body.activities.map((x: any) => x.body)).toEqual(["hm"])
      expect((await rpc(6, "prompts/list", {})).prompts.length).toBe(4)
      alternated(from)
    })
  }

  it("a session is its user's on every instance", async () => {
    const b = await bootstrap(instances!.bases[1]!, "mcp-two-other")
    const init = await legacy(instances!.bases[0]!, a.apiKey, {
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "mine", version: "1" } }
    })
    const session = { id: init.headers.get("mcp-session-id")!, version: "2025-11-25" }
    for (const at of instances!.bases) {
      const theirs = await legacy(at, b.apiKey, { id: 2, method: "tools/list", params: {} }, session)
      expect(theirs.status).toBe(404)
      expect(theirs.body).toEqual({ error: expect.stringMatching(/initialize a new one/) })
      const mine = await legacy(at, a.apiKey, { id: 3, method: "tools/list", params: {} }, session)
      expect(mine.status).toBe(200)
    }
  })
})
