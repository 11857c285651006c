/**
 * Issue 9 (part 2): the access matrix over every operation of /api/v1/openapi.json, with real
 * credentials over real HTTP. board-access.test.ts checks the board endpoints in depth (success
 * shapes, ids inside bodies, members); this suite is driven by the document, so an operation
 * added to the API without a row here fails the first test.
 *
 * Actors on A's resources (a fresh fixture in A's first workspace W1 for every row):
 *   - B's API key                                 → 404 {error}
 *   - B's OAuth token (bound to B's workspace)    → 404 {error}
 *   - A's OAuth token bound to A's *other* workspace W2 → 403 {error} (SPEC.md, Authentication rule 3),
 *     or 401 where the operation takes no OAuth token at all;
 * and after each refused attempt, a digest of every row of A's (both workspaces, their boards, links,
 * intake tokens, A's keys and grants) is unchanged. The natural-language endpoint and every MCP tool
 * are held to the same: refused, and nothing changes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Fixture, id, type Req, ROWS } from "./support/accessRows.ts"
import { type AccessWorld, accessWorld } from "./support/accessWorld.ts"
import { backends } from "./support/backends.ts"
import { type Account, bearer, call, key, type Reply } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

const expectError = (r: Reply, label: string) => {
  expect(r.body, `${label}: ${r.text.slice(0, 200)}`).toEqual({ error: expect.any(String) })
  expect(r.body.error.length).toBeGreaterThan(0)
}

describe.each(backends)("access matrix from the OpenAPI document on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account
  let B: Account
  /** A's second workspace. */
  let W2: { workspaceId: string; projectId: string }
  let world: AccessWorld
  /** A's OAuth token, bound to W2 only, and its grant. */
  let aInW2: { token: string; grant: string }
  let aKeyId: string
  /** B's OAuth token, bound to B's workspace. */
  let bOAuth: string
  const operations: Array<string> = []
  const fixture = () => {
    return world.prepare().then(() => world.fixture())
  }
  const concrete = (req: Req) => world.concrete(req, { "{grant}": aInW2.grant, "{A.key}": aKeyId })
  const digest = () => world.digest()

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    world = await accessWorld(server)
    ;({ A, B, W2 } = world)
    const flowA = await fullFlow(base, A, [W2.workspaceId])
    const grants = await call(base, "GET", "/v1/oauth/grants", { headers: key(A.apiKey) })
    aInW2 = { token: flowA.tokens.access_token, grant: grants.body[0].id }
    aKeyId = (await call(base, "GET", "/v1/api-keys", { headers: key(A.apiKey) })).body[0].id
    bOAuth = (await fullFlow(base, B, [B.workspaceId])).tokens.access_token
    const doc = (await call(base, "GET", "/v1/openapi.json")).body
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) operations.push(`${method.toUpperCase()} ${path}`)
    }
  })
  afterAll(() => server?.stop())

  it("has a row for every operation of the document, and no row for an operation it lacks", () => {
    expect(operations.length).toBeGreaterThan(40)
    expect([...operations].sort()).toEqual(Object.keys(ROWS).sort())
  })

  it("the OAuth token bound to W2 works in W2 (so its refusals below are about the binding)", async () => {
    const r = await call(base, "GET", `/v1/board/${W2.projectId}`, { headers: bearer(aInW2.token) })
    expect(r.status).toBe(200)
    const listed = await call(base, "GET", "/v1/workspaces", { headers: bearer(aInW2.token) })
    expect(listed.body.map((w: any) => w.id)).toEqual([W2.workspaceId])
  })

  const workspaceRows = Object.entries(ROWS).filter(([, r]) => r.scope === "workspace")

  describe("every operation on A's workspace: outsiders are refused and nothing changes", () => {
    it.each(workspaceRows)("%s", async (name, row) => {
      const f = await fixture()
      const req = concrete(row.req(f))
      const before = await digest()
      const attempts: Array<[string, Record<string, string>, number]> = [
        ["B's API key", key(B.apiKey), 404],
        ["B's OAuth token", bearer(bOAuth), row.noOAuth ? 401 : 404],
        ["A's OAuth token bound to W2", bearer(aInW2.token), row.noOAuth ? 401 : 403]
      ]
      for (const [who, headers, status] of attempts) {
        const r = await call(base, req.method, req.path, {
          ...(req.body !== undefined ? { body: req.body } : {}),
          headers
        })
        expect(r.status, `${name} by ${who}: ${r.text.slice(0, 200)}`).toBe(status)
        expectError(r, `${name} by ${who}`)
        expect(r.text).not.toContain(f.word)
        expect(await digest(), `${name} by ${who} changed A's data`).toEqual(before)
      }
      // and the same request by the owner works, so the row addresses something real
      const own = await call(base, req.method, req.path, {
        ...(req.body !== undefined ? { body: req.body } : {}),
        headers: key(A.apiKey)
      })
      expect(own.status, `${name} by A: ${own.text.slice(0, 200)}`).toBeLessThan(300)
    })
  })

  describe("operations on one's own account never reach A's data", () => {
    const attempt = (req: Req, headers: Record<string, string>) =>
      call(base, req.method, req.path, { ...(req.body !== undefined ? { body: req.body } : {}), headers })

    it("GET /v1/workspaces lists only the caller's (or the grant's) workspaces", async () => {
      const byB = await attempt(ROWS["GET /v1/workspaces"]!.req(await fixture()), key(B.apiKey))
      expect(byB.body.map((w: any) => w.id)).toEqual([B.workspaceId])
      const byBOAuth = await attempt({ method: "GET", path: "/v1/workspaces" }, bearer(bOAuth))
      expect(byBOAuth.body.map((w: any) => w.id)).toEqual([B.workspaceId])
    })

    it("GET /v1/search finds none of A's cards for B, nor W1's cards for the W2-bound token", async () => {
      const f = await fixture()
      const req = ROWS["GET /v1/search"]!.req(f)
      expect((await attempt(req, key(A.apiKey))).body.map((c: any) => c.id)).toEqual([f.card])
      for (const headers of [key(B.apiKey), bearer(bOAuth), bearer(aInW2.token)]) {
        const r = await attempt(req, headers)
        expect(r.status).toBe(200)
        expect(r.body).toEqual([])
      }
    })

    it("POST /v1/nlu cannot reach A's cards: 400 for outsiders, refused for the W2-bound token, nothing changes", async () => {
      const f = await fixture()
      let before = await digest()
      const commands = [
        `move ${f.ref} to Done`,
        `add label hacked to ${f.ref}`,
        `rename ${f.ref} to Stolen`,
        `${f.ref} blocks ${f.ref}`,
        `create card Intruder in To Do`,
        `delete ${f.ref}`
      ]
      for (const command of commands) {
        for (const [who, headers] of [
          ["B's key", key(B.apiKey)],
          ["B's OAuth", bearer(bOAuth)],
          ["A's W2 token", bearer(aInW2.token)]
        ] as const) {
          for (const body of [{ command }, { command, projectId: f.projectId }]) {
            const r = await attempt({ method: "POST", path: "/v1/nlu", body }, headers)
            const label = `${JSON.stringify(body)} by ${who}`
            // a command whose card or project the caller cannot see is a 400 (SPEC lists no 404 here);
            // naming a project of a workspace outside the grant is the 403 of Authentication rule 3;
            // a create without a project may land on the caller's own board, never on A's
            expect([200, 400, 403], `${label}: ${r.text.slice(0, 200)}`).toContain(r.status)
            if (r.status === 200) expect(body.projectId, label).toBeUndefined()
            if (r.status !== 200) expectError(r, label)
            if (who === "A's W2 token" && body.projectId !== undefined) expect(r.status, label).toBe(403)
            if (who !== "A's W2 token" && body.projectId !== undefined) expect(r.status, label).toBe(400)
            expect(r.text, label).not.toContain(f.word)
            if (r.status === 200) {
              // the create landed on the caller's only visible board: B's own, or W2's for A's token
              expect(r.body.projectId, label).toBe(who === "A's W2 token" ? W2.projectId : B.projectId)
              before = await digest()
            }
            expect(await digest(), `${label} changed A's data`).toEqual(before)
          }
        }
      }
    })

    // A's OAuth grants and A's API keys: listed and revoked by their owner only, never by an OAuth token
    it.each([
      {
        what: "grant",
        list: "/v1/oauth/grants",
        del: "DELETE /v1/oauth/grants/{id}",
        id: () => aInW2.grant,
        stillWorks: () => attempt({ method: "GET", path: `/v1/board/${W2.projectId}` }, bearer(aInW2.token))
      },
      {
        what: "API key",
        list: "/v1/api-keys",
        del: "DELETE /v1/api-keys/{id}",
        id: () => aKeyId,
        stillWorks: () => attempt({ method: "GET", path: "/v1/workspaces" }, key(A.apiKey))
      }
    ])(
      "$list: B lists none of A's, B's DELETE of A's $what is 404, OAuth tokens get 401, and A's $what still works",
      async ({ what, list, del, id, stillWorks }) => {
        const listed = await attempt({ method: "GET", path: list }, key(B.apiKey))
        expect(listed.status).toBe(200)
        expect(listed.body.map((x: any) => x.id)).not.toContain(id())
        const req = concrete(ROWS[del]!.req(await fixture()))
        const before = await digest()
        const refusedToB = await attempt(req, key(B.apiKey))
        expect(refusedToB.status).toBe(404)
        expectError(refusedToB, `DELETE ${what} by B`)
        for (const headers of [bearer(aInW2.token), bearer(bOAuth)]) {
          for (const r of [req, { method: "GET", path: list }]) {
            const refused = await attempt(r, headers)
            expect(refused.status, `${r.method} ${r.path} by an OAuth token`).toBe(401)
            expectError(refused, `${what}s by an OAuth token`)
          }
        }
        expect(await digest()).toEqual(before)
        expect((await stillWorks()).status).toBe(200)
      }
    )

    it("POST /v1/workspaces and POST /v1/api-keys by B create B's own things only; OAuth tokens cannot call them", async () => {
      const before = await digest()
      for (const op of ["POST /v1/workspaces", "POST /v1/api-keys"]) {
        const req = ROWS[op]!.req(await fixture())
        const fresh = await digest()
        expect((await attempt(req, key(B.apiKey))).status).toBe(201)
        for (const headers of [bearer(aInW2.token), bearer(bOAuth)]) {
          const r = await attempt(req, headers)
          expect(r.status, `${op} by an OAuth token`).toBe(401)
          expectError(r, op)
        }
        expect(await digest()).toEqual(fresh)
      }
      expect((await digest()).n).toBeGreaterThan(before.n) // the fixtures themselves are A's rows
    })
  })

  describe("operations outside any workspace", () => {
    it("POST /v1/intake takes only an intake token: every other credential is 401 and files nothing", async () => {
      const f = await fixture()
      const before = await digest()
      for (const headers of [key(A.apiKey), key(B.apiKey), bearer(aInW2.token), bearer(bOAuth), bearer(A.session)]) {
        const r = await call(base, "POST", "/v1/intake", { body: ROWS["POST /v1/intake"]!.req(f).body, headers })
        expect(r.status).toBe(401)
        expectError(r, "intake")
      }
      expect(await digest()).toEqual(before)
    })

    it("desktop builds are install-wide: every user's credential reads them alike, the session token none", async () => {
      for (const [name, row] of Object.entries(ROWS).filter(([, r]) => r.scope === "global")) {
        const req = row.req(await fixture())
        const answers = []
        for (const headers of [key(A.apiKey), key(B.apiKey), bearer(aInW2.token), bearer(bOAuth)]) {
          const r = await call(base, req.method, req.path, { headers })
          expect([200, 302, 404], `${name}: ${r.text.slice(0, 200)}`).toContain(r.status)
          answers.push(r.status)
        }
        expect(new Set(answers).size, name).toBe(1)
        expect((await call(base, req.method, req.path, { headers: bearer(A.session) })).status).toBe(401)
      }
    })
  })

  describe("MCP tools", () => {
    const connect = async (headers: Record<string, string>) => {
      const client = new Client({ name: "access-matrix", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }))
      return client
    }

    it("every tool with A's ids is a tool error for B's key and for both OAuth tokens, and nothing changes", async () => {
      const f = await fixture()
      const attempts: Array<[string, Record<string, unknown>]> = [
        ["list_projects", { workspaceId: A.workspaceId }],
        ["show_board", { projectId: f.projectId }],
        ["show_card", { card: f.card }],
        ["show_card", { card: f.ref, projectId: f.projectId }],
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
        ["list_links", { projectId: f.projectId }],
        ["get_prompt", { card: f.card }],
        ["comment", { card: f.card, body: "intruder" }],
        ["list_events", { projectId: f.projectId }],
        ["card_history", { card: f.card }],
        ["run_command", { command: `move ${f.ref} to Done`, projectId: f.projectId }],
        ["claim_card", { card: f.card }],
        ["claim_next_card", { projectId: f.projectId, column: "To Do" }],
        ["heartbeat", { sessionId: f.session }],
        ["report", { sessionId: f.session, type: "response", body: "intruder" }],
        ["release_card", { sessionId: f.session, moveTo: "Done" }]
      ]
      const clients = [
        ["B's key", await connect(key(B.apiKey))],
        ["B's OAuth token", await connect(bearer(bOAuth))],
        ["A's token bound to W2", await connect(bearer(aInW2.token))]
      ] as const
      try {
        const { tools } = await clients[0][1].listTools()
        // every tool that takes an id is attempted; the three without one are checked for leaks below
        expect(new Set(attempts.map(([n]) => n))).toEqual(
          new Set(tools.map((t) => t.name).filter((n) => !["list_workspaces", "search_cards"].includes(n)))
        )
        const before = await digest()
        for (const [who, client] of clients) {
          for (const [tool, args] of attempts) {
            const r = (await client.callTool({ name: tool, arguments: args })) as {
              isError?: boolean
              content: Array<{ text?: string }>
            }
            const text = r.content.map((c) => c.text ?? "").join("\n")
            expect(r.isError, `${tool} by ${who} should fail: ${text.slice(0, 200)}`).toBe(true)
            expect(text, `${tool} by ${who}`).toMatch(
              who === "A's token bound to W2" ? /not found|no card|not granted|grant|workspace/i : /not found|no card/i
            )
            expect(text).not.toContain(f.word)
          }
          const listed = (await client.callTool({ name: "list_workspaces", arguments: {} })) as {
            structuredContent?: any
          }
          expect(JSON.stringify(listed.structuredContent)).not.toContain(A.workspaceId)
          const found = (await client.callTool({ name: "search_cards", arguments: { query: f.word } })) as {
            structuredContent?: any
          }
          expect(found.structuredContent.cards).toEqual([])
        }
        expect(await digest()).toEqual(before)
      } finally {
        for (const [, c] of clients) await c.close()
      }
    })
  })

  it("a refused request by any credential leaves no trace in A's data even when aimed at ids that exist nowhere", async () => {
    // the same matrix on ghost ids: never 5xx, never 2xx, always {error}
    const f = await fixture()
    const ghost: Fixture = {
      ...f,
      projectId: id(),
      card: id(),
      target: id(),
      label: id(),
      spare: id(),
      subtask: id(),
      link: id(),
      emptyColumn: id(),
      projectLink: id(),
      intakeToken: id(),
      webhook: id(),
      delivery: id(),
      session: id(),
      invitation: id(),
      repository: id(),
      spareWorkspace: id(),
      agent: id(),
      agentKey: id(),
      columns: f.columns.map(() => id())
    }
    const before = await digest()
    for (const [name, row] of workspaceRows) {
      const req = concrete(row.req(ghost))
      for (const headers of [key(B.apiKey), bearer(aInW2.token)]) {
        const r = await call(base, req.method, req.path, {
          ...(req.body !== undefined ? { body: req.body } : {}),
          headers
        })
        expect([401, 403, 404], `${name}: ${r.text.slice(0, 200)}`).toContain(r.status)
        expectError(r, name)
      }
    }
    expect(await digest()).toEqual(before)
  })
})
