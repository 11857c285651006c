/**
 * Issue 33: the access matrix's scope column. Every operation of /api/v1/openapi.json on A's
 * workspace (support/accessRows.ts), with three keys of A's (the owner, so the role never
 * refuses): a read-only key, a key that reads and writes but neither deletes nor manages, and a
 * key for a project of another workspace. Each gets what the row's scopes say (its method's
 * scope, and `admin` where marked) or 404 outside its projects; a refusal changes nothing (the
 * digest of everything A's). MCP tools, natural-language commands and an `mcp:read` grant are
 * held to the same, and an expired key answers 401.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Fixture, type KeyScope, ROWS, scopesNeeded, WEBHOOK_URL } from "./support/accessRows.ts"
import { type AccessWorld, accessWorld } from "./support/accessWorld.ts"
import { backends } from "./support/backends.ts"
import { bearer, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

type KeyName = "read" | "readWrite" | "otherProject"
const KEYS: ReadonlyArray<KeyName> = ["read", "readWrite", "otherProject"]
const SCOPES: Record<KeyName, ReadonlyArray<KeyScope>> = {
  read: ["read"],
  readWrite: ["read", "write"],
  otherProject: ["read", "write", "delete", "admin"]
}

/**
 * What a key gets for a row: 404 outside its projects; 403 without a scope the row needs; 404
 * for a resource only the key that made it works; else 2xx.
 */
const expectedFor = (name: string, keyName: KeyName): "ok" | number =>
  keyName === "otherProject"
    ? 404
    : !scopesNeeded(name, ROWS[name]!).every((s) => SCOPES[keyName].includes(s))
      ? 403
      : ROWS[name]!.ownKeyOnly === true
        ? 404
        : "ok"

describe.each(backends)("the access matrix's scope column on %s", (backend) => {
  let server: TestServer
  let base: string
  let world: AccessWorld
  const keys = {} as Record<KeyName, string>

  const makeKey = async (body: Record<string, unknown>) => {
    const r = await call(base, "POST", "/v1/api-keys", {
      body: { name: "scoped", ...body },
      headers: key(world.A.apiKey)
    })
    if (r.status !== 201) throw new Error(`making a key: ${r.status} ${r.text}`)
    return r.body
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    world = await accessWorld(server)
    keys.read = (await makeKey({ scopes: ["read"] })).rawKey
    keys.readWrite = (await makeKey({ scopes: ["read", "write"] })).rawKey
    keys.otherProject = (await makeKey({ projectIds: [world.W2.projectId] })).rawKey
  })
  afterAll(() => server?.stop())

  const workspaceRows = Object.entries(ROWS).filter(([, r]) => r.scope === "workspace")

  it("has a scope for every operation, and no write, delete or management a read key may do", () => {
    expect(workspaceRows.length).toBeGreaterThan(50)
    const readWrites = Object.keys(ROWS).filter(
      (name) => !name.startsWith("GET ") && expectedFor(name, "read") === "ok"
    )
    expect(readWrites).toEqual([])
    const deletesWithoutDelete = workspaceRows.filter(
      ([name]) => name.startsWith("DELETE ") && expectedFor(name, "readWrite") === "ok"
    )
    expect(deletesWithoutDelete).toEqual([])
  })

  describe("every operation, per key: the expected status, and a refusal changes nothing", () => {
    it.each(workspaceRows)("%s", async (name, row) => {
      let f: Fixture | undefined
      for (const keyName of KEYS) {
        if (f === undefined) {
          await world.prepare()
          f = await world.fixture()
        }
        const req = world.concrete(row.req(f))
        const before = await world.digest()
        const r = await call(base, req.method, req.path, {
          ...(req.body !== undefined ? { body: req.body } : {}),
          headers: key(keys[keyName])
        })
        const expected = expectedFor(name, keyName)
        const label = `${name} with the ${keyName} key: ${r.text.slice(0, 200)}`
        if (expected === "ok") expect(r.status, label).toBeLessThan(300)
        else expect(r.status, label).toBe(expected)
        if (r.status >= 300) {
          expect(r.body, label).toEqual({ error: expect.any(String) })
          expect(await world.digest(), `${name} with the ${keyName} key changed A's data`).toEqual(before)
          // a scope's refusal names the scope the operation needs
          if (r.status === 403) expect(r.body.error, label).toMatch(/needs the "(write|delete|admin)" scope/)
        } else if (name.split(" ")[0] !== "GET") f = undefined
      }
    })
  })

  it("account operations: a read key makes no keys and no workspaces; a project key makes keys within its project only", async () => {
    const spare = await makeKey({})
    const before = await world.digest()
    for (const [method, path, body] of [
      ["POST", "/v1/api-keys", { name: "escalate" }],
      ["POST", "/v1/workspaces", { name: "Mine" }]
    ] as const) {
      const r = await call(base, method, path, { body, headers: key(keys.read) })
      expect(r.status, r.text).toBe(403)
      expect(r.body.error).toMatch(/needs the "write" scope/)
    }
    const revoke = await call(base, "DELETE", `/v1/api-keys/${spare.id}`, { headers: key(keys.readWrite) })
    expect(revoke.status, revoke.text).toBe(403)
    expect(revoke.body.error).toMatch(/"delete" scope/)
    expect(await world.digest()).toEqual(before)

    // a key made with a limited key is limited as much, never more
    const wider = await call(base, "POST", "/v1/api-keys", {
      body: { name: "wider", projectIds: [world.A.projectId] },
      headers: key(keys.otherProject)
    })
    expect(wider.status, wider.text).toBe(404)
    const inherited = await call(base, "POST", "/v1/api-keys", {
      body: { name: "child" },
      headers: key(keys.otherProject)
    })
    expect(inherited.status, inherited.text).toBe(201)
    expect(inherited.body.projectIds).toEqual([world.W2.projectId])
    const ws = await call(base, "POST", "/v1/workspaces", { body: { name: "Mine" }, headers: key(keys.otherProject) })
    expect(ws.status, ws.text).toBe(403)

    // the project key sees its own project, and only it
    const mine = await call(base, "GET", `/v1/board/${world.W2.projectId}`, { headers: key(keys.otherProject) })
    expect(mine.status, mine.text).toBe(200)
    // the same project with its id in capitals (the path accepts them; the key keeps ids as the database writes them)
    const shouted = await call(base, "GET", `/v1/board/${world.W2.projectId.toUpperCase()}`, {
      headers: key(keys.otherProject)
    })
    expect(shouted.status, shouted.text).toBe(200)
    expect(shouted.body).toEqual(mine.body)
    const list = await call(base, "GET", "/v1/workspaces", { headers: key(keys.otherProject) })
    expect(list.body.map((w: { id: string }) => w.id)).toEqual([world.W2.workspaceId])
    const search = await call(base, "GET", `/v1/search?q=${(await world.fixture()).word}`, {
      headers: key(keys.otherProject)
    })
    expect(search.body).toEqual([])
  })

  it("a key limited to one project of a workspace reaches that project's webhooks by id, and no other's", async () => {
    const f = await world.fixture()
    // a second project in the same workspace, the key's one project
    const p2 = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: world.A.workspaceId, name: "Second", template: "kanban" },
      headers: key(world.A.apiKey)
    })
    expect(p2.status, p2.text).toBe(201)
    const projectKey = (await makeKey({ projectIds: [p2.body.project.id] })).rawKey
    // webhooks made disabled at once, as the fixture's, so nothing is ever sent to WEBHOOK_URL
    const hook = async (scope: Record<string, string>) => {
      const made = await call(base, "POST", "/v1/webhooks", {
        body: { url: WEBHOOK_URL, events: ["project_link.deleted"], ...scope },
        headers: key(world.A.apiKey)
      })
      expect(made.status, made.text).toBe(201)
      const off = await call(base, "PATCH", `/v1/webhooks/${made.body.id}`, {
        body: { enabled: false },
        headers: key(world.A.apiKey)
      })
      expect(off.status, off.text).toBe(200)
      return made.body.id as string
    }
    const mine = await hook({ projectId: p2.body.project.id })
    const elsewhere = [f.webhook, await hook({ workspaceId: world.A.workspaceId })]

    const listed = await call(base, "GET", `/v1/webhooks?workspaceId=${world.A.workspaceId}`, {
      headers: key(projectKey)
    })
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body.map((w: { id: string }) => w.id)).toEqual([mine])
    const before = await world.digest()
    for (const id of elsewhere)
      for (const [method, path, body] of [
        ["GET", `/v1/webhooks/${id}`, undefined],
        ["GET", `/v1/webhooks/${id}/deliveries`, undefined],
        ["POST", `/v1/webhooks/${id}/ping`, undefined],
        ["PATCH", `/v1/webhooks/${id}`, { description: "intruder" }],
        ["DELETE", `/v1/webhooks/${id}`, undefined],
        // the fixture's webhook has a delivery to retry
        ...(id === f.webhook
          ? ([["POST", `/v1/webhooks/${id}/deliveries/${f.delivery}/retry`, undefined]] as const)
          : [])
      ] as const) {
        const r = await call(base, method, path, { ...(body ? { body } : {}), headers: key(projectKey) })
        expect(r.status, `${method} ${path}: ${r.text}`).toBe(404)
        expect(r.body).toEqual({ error: `webhook ${id} not found` })
      }
    expect(await world.digest()).toEqual(before)

    // its own project's webhook it reads, changes and deletes, as it made it
    const read = await call(base, "GET", `/v1/webhooks/${mine}`, { headers: key(projectKey) })
    expect(read.status, read.text).toBe(200)
    expect(read.body.projectId).toBe(p2.body.project.id)
    const changed = await call(base, "PATCH", `/v1/webhooks/${mine}`, {
      body: { description: "the key's own" },
      headers: key(projectKey)
    })
    expect(changed.status, changed.text).toBe(200)
    expect(changed.body.description).toBe("the key's own")
    const deleted = await call(base, "DELETE", `/v1/webhooks/${mine}`, { headers: key(projectKey) })
    expect(deleted.status, deleted.text).toBe(204)
    const gone = await call(base, "GET", `/v1/webhooks/${mine}`, { headers: key(world.A.apiKey) })
    expect(gone.status).toBe(404)
  })

  it("the keys list says each key's scopes, projects and expiry", async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString()
    const made = await makeKey({ scopes: ["read"], projectIds: [world.A.projectId], expiresAt })
    expect(made).toMatchObject({ scopes: ["read"], projectIds: [world.A.projectId], expiresAt })
    const listed = await call(base, "GET", "/v1/api-keys", { headers: key(world.A.apiKey) })
    expect(listed.body.find((k: { id: string }) => k.id === made.id)).toMatchObject({
      scopes: ["read"],
      projectIds: [world.A.projectId],
      expiresAt
    })
    const past = await call(base, "POST", "/v1/api-keys", {
      body: { name: "past", expiresAt: "2020-01-01T00:00:00Z" },
      headers: key(world.A.apiKey)
    })
    expect(past.status, past.text).toBe(400)
    expect(past.body.error).toMatch(/expiresAt/)
  })

  it("natural-language commands with a read key are refused naming the scope, and change nothing", async () => {
    const f = await world.fixture()
    const before = await world.digest()
    for (const command of [`move ${f.ref} to Done`, `rename ${f.ref} to Stolen`, "create card Intruder in To Do"]) {
      const r = await call(base, "POST", "/v1/nlu", {
        body: { command, projectId: f.projectId },
        headers: key(keys.read)
      })
      expect(r.status, `${command}: ${r.text}`).toBe(403)
      expect(r.body.error).toMatch(/"write" scope/)
    }
    const del = await call(base, "POST", "/v1/nlu", {
      body: { command: `delete ${f.ref}`, projectId: f.projectId },
      headers: key(keys.readWrite)
    })
    expect(del.status, del.text).toBe(403)
    expect(del.body.error).toMatch(/"delete" scope/)
    expect(await world.digest()).toEqual(before)
  })

  const mcpClient = async (headers: Record<string, string>) => {
    const client = new Client({ name: "access-scopes", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }))
    return client
  }

  it("MCP lists only the tools a credential may use: a read key and an mcp:read grant read and write nothing", async () => {
    const f = await world.fixture()
    const full = await mcpClient(key(world.A.apiKey))
    const all = (await full.listTools()).tools.map((t) => t.name)
    await full.close()
    const flow = await fullFlow(base, world.A, [world.A.workspaceId], "mcp:read")
    expect(flow.tokens.scope).toBe("mcp:read")
    expect(flow.consentPage).toMatch(/not be able to change or delete anything/)
    for (const headers of [key(keys.read), bearer(flow.tokens.access_token)]) {
      const client = await mcpClient(headers)
      try {
        const tools = (await client.listTools()).tools
        expect(tools.length).toBeGreaterThan(3)
        expect(tools.length).toBeLessThan(all.length)
        for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true)
        const before = await world.digest()
        for (const [tool, args] of [
          ["create_card", { projectId: f.projectId, column: "To Do", title: "Intruder" }],
          ["move_card", { card: f.card, column: "Done" }],
          ["run_command", { command: `move ${f.ref} to Done`, projectId: f.projectId }]
        ] as const) {
          const r = (await client.callTool({ name: tool, arguments: args }).catch((e: Error) => ({
            isError: true,
            content: [{ text: e.message }]
          }))) as { isError?: boolean }
          expect(r.isError, tool).toBe(true)
        }
        expect(await world.digest()).toEqual(before)
        const board = (await client.callTool({ name: "show_board", arguments: { projectId: f.projectId } })) as {
          isError?: boolean
        }
        expect(board.isError).not.toBe(true)
      } finally {
        await client.close()
      }
    }
    // over REST the grant reads and is refused writing, naming the scope
    const write = await call(base, "POST", "/v1/cards", {
      body: { projectId: f.projectId, columnId: f.columns[0], title: "Intruder" },
      headers: bearer(flow.tokens.access_token)
    })
    expect(write.status, write.text).toBe(403)
    expect(write.body.error).toMatch(/OAuth grant .*"write" scope/)
  })

  it("a key past its expiresAt answers 401", async () => {
    const made = await makeKey({ expiresAt: new Date(Date.now() + 1500).toISOString() })
    const ok = await call(base, "GET", "/v1/workspaces", { headers: key(made.rawKey) })
    expect(ok.status).toBe(200)
    await new Promise((r) => setTimeout(r, 1700))
    const late = await call(base, "GET", "/v1/workspaces", { headers: key(made.rawKey) })
    expect(late.status, late.text).toBe(401)
    expect(late.body.error).toMatch(/expired/)
  })
})
