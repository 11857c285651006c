/**
 * Issue 30: the access matrix's role column. Every operation of /api/v1/openapi.json on A's
 * workspace (support/accessRows.ts), by a viewer, a member and an admin of that workspace (A
 * is its owner: access-matrix.test.ts checks A's request works in every row), with the status
 * each gets; a refused request changes nothing (the digest of everything A's), and no
 * operation lets a viewer write. MCP tools and natural-language commands are held to the same.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectedFor, type Fixture, isWrite, type MemberRole, ROWS } from "./support/accessRows.ts"
import { type AccessWorld, accessWorld } from "./support/accessWorld.ts"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

const ROLES: ReadonlyArray<MemberRole> = ["viewer", "member", "admin"]

describe.each(backends)("the access matrix's role column on %s", (backend) => {
  let server: TestServer
  let base: string
  let world: AccessWorld
  const by = {} as Record<MemberRole, Account>

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    world = await accessWorld(server)
    for (const role of ROLES) {
      by[role] = await bootstrap(base, role)
      const r = await call(base, "POST", `/v1/workspaces/${world.A.workspaceId}/members`, {
        body: { email: by[role].email, role },
        headers: key(world.A.apiKey)
      })
      if (r.status !== 201) throw new Error(`adding the ${role}: ${r.status} ${r.text}`)
    }
  })
  afterAll(() => server?.stop())

  const workspaceRows = Object.entries(ROWS).filter(([, r]) => r.scope === "workspace")

  it("has a role column for every operation on a workspace, and no viewer write in it", () => {
    expect(workspaceRows.length).toBeGreaterThan(50)
    const viewerWrites = workspaceRows.filter(
      ([name, row]) => isWrite(name) && expectedFor(name, row, "viewer") === "ok"
    )
    expect(viewerWrites.map(([name]) => name)).toEqual([])
  })

  describe("every operation, per role: the expected status, and a refusal changes nothing", () => {
    it.each(workspaceRows)("%s", async (name, row) => {
      let f: Fixture | undefined
      for (const role of ROLES) {
        // a fresh board when the previous role's write may have used this one up
        if (f === undefined) {
          await world.prepare()
          f = await world.fixture()
        }
        const req = world.concrete(row.req(f))
        const before = await world.digest()
        const r = await call(base, req.method, req.path, {
          ...(req.body !== undefined ? { body: req.body } : {}),
          headers: key(by[role].apiKey)
        })
        const expected = expectedFor(name, row, role)
        const label = `${name} by the ${role}: ${r.text.slice(0, 200)}`
        if (expected === "ok") expect(r.status, label).toBeLessThan(300)
        else expect(r.status, label).toBe(expected)
        if (r.status >= 300) {
          expect(r.body, label).toEqual({ error: expect.any(String) })
          expect(await world.digest(), `${name} by the ${role} changed A's data`).toEqual(before)
          // a refusal for the role says which role the caller has
          if (r.status === 403 && role === "viewer") expect(r.body.error, label).toMatch(/your role .* is viewer/)
        } else if (isWrite(name)) f = undefined
      }
    })
  })

  it("natural-language commands by a viewer are refused with the role named, and change nothing", async () => {
    const f = await world.fixture()
    const before = await world.digest()
    for (const command of [
      `move ${f.ref} to Done`,
      `add label hacked to ${f.ref}`,
      `rename ${f.ref} to Stolen`,
      "create card Intruder in To Do",
      `delete ${f.ref}`
    ]) {
      const r = await call(base, "POST", "/v1/nlu", {
        body: { command, projectId: f.projectId },
        headers: key(by.viewer.apiKey)
      })
      expect(r.status, `${command}: ${r.text}`).toBe(403)
      expect(r.body.error).toMatch(/is viewer/)
    }
    expect(await world.digest()).toEqual(before)
    const search = await call(base, "POST", "/v1/nlu", {
      body: { command: `find ${f.word}`, projectId: f.projectId },
      headers: key(by.viewer.apiKey)
    })
    expect(search.status, search.text).toBe(200)
  })

  it("every MCP tool that writes is a tool error naming the role for a viewer; its reads work; nothing changes", async () => {
    const f = await world.fixture()
    const client = new Client({ name: "access-roles", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: key(by.viewer.apiKey) } })
    )
    try {
      const writes: Array<[string, Record<string, unknown>]> = [
        ["create_card", { projectId: f.projectId, column: "To Do", title: "Intruder" }],
        ["update_card", { card: f.card, title: "Stolen" }],
        ["move_card", { card: f.card, column: "Done" }],
        ["archive_card", { card: f.card }],
        ["restore_card", { card: f.card }],
        ["add_label", { card: f.card, label: "hacked" }],
        ["remove_label", { card: f.card, label: "bug" }],
        ["add_subtask", { card: f.card, title: "Sneaky" }],
        ["toggle_subtask", { subtaskId: f.subtask }],
        ["link_cards", { card: f.card, target: f.target, linkType: "relates_to" }],
        ["submit_link", { projectId: f.projectId, url: "https://intruder.example/x" }],
        ["comment", { card: f.card, body: "intruder" }],
        ["run_command", { command: `move ${f.ref} to Done`, projectId: f.projectId }],
        ["claim_card", { card: f.card }],
        ["claim_next_card", { projectId: f.projectId, column: "To Do" }],
        ["heartbeat", { sessionId: f.session }],
        ["report", { sessionId: f.session, type: "response", body: "intruder" }],
        ["release_card", { sessionId: f.session, moveTo: "Done" }]
      ]
      const reads: Array<[string, Record<string, unknown>]> = [
        ["list_projects", { workspaceId: world.A.workspaceId }],
        ["show_board", { projectId: f.projectId }],
        ["show_card", { card: f.card }],
        ["list_links", { projectId: f.projectId }],
        ["get_prompt", { card: f.card }],
        ["list_events", { projectId: f.projectId }],
        ["card_history", { card: f.card }]
      ]
      const { tools } = await client.listTools()
      // every tool is in one list or the other (or takes no id: the account-wide two)
      expect(new Set([...writes, ...reads].map(([n]) => n))).toEqual(
        new Set(tools.map((t) => t.name).filter((n) => !["list_workspaces", "search_cards"].includes(n)))
      )
      const before = await world.digest()
      for (const [tool, args] of writes) {
        const r = (await client.callTool({ name: tool, arguments: args })) as {
          isError?: boolean
          content: Array<{ text?: string }>
        }
        const text = r.content.map((c) => c.text ?? "").join("\n")
        expect(r.isError, `${tool} by a viewer should fail: ${text.slice(0, 200)}`).toBe(true)
        expect(text, tool).toMatch(/is viewer/)
      }
      expect(await world.digest()).toEqual(before)
      for (const [tool, args] of reads) {
        const r = (await client.callTool({ name: tool, arguments: args })) as { isError?: boolean }
        expect(r.isError, `${tool} by a viewer should read`).not.toBe(true)
      }
    } finally {
      await client.close()
    }
  })
})
