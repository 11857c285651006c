/**
 * Issue 30, part 6: agents as members, over real HTTP. An admin makes an agent (a member of kind
 * `agent`), gives it a key, and what the key does is recorded as the agent acting on behalf of
 * its creator, in events, history, claims and comments; an OAuth client's events carry
 * `onBehalfOf` too. The agent is listed among the members, assignable, cannot sign in or make
 * agents or keys, and deleting it kills its keys at once and ends what they opened.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("agents as members on %s", (backend) => {
  let server: TestServer
  let base: string
  /** Owner of the workspace (so an admin). */
  let a: Account
  /** A plain member of a's workspace. */
  let m: Account
  let agent: { id: string; name: string }
  let rawKey: string
  let keyId: string

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "Ada")
    m = await bootstrap(base, "Max")
    const added = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/members`, {
      body: { email: m.email },
      headers: bearer(a.session)
    })
    expect(added.status, added.text).toBe(201)
  }, 120_000)
  afterAll(() => server?.stop())

  const history = async (cardId: string, headers = key(a.apiKey)) => {
    const r = await call(base, "GET", `/v1/cards/${cardId}/history`, { headers })
    expect(r.status, r.text).toBe(200)
    return r.body.events as Array<{ type: string; actor: Record<string, unknown>; data: any }>
  }

  it("an admin creates an agent: 201 with its shape; a member gets 403 naming the role; bad input 400", async () => {
    const r = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/agents`, {
      body: { name: " Claude ", description: "Writes the code" },
      headers: key(a.apiKey)
    })
    expect(r.status, r.text).toBe(201)
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      workspaceId: a.workspaceId,
      name: "Claude",
      description: "Writes the code",
      createdBy: a.userId,
      createdAt: expect.any(String)
    })
    agent = r.body

    const byMember = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/agents`, {
      body: { name: "Sneaky" },
      headers: key(m.apiKey)
    })
    expect(byMember.status).toBe(403)
    expect(byMember.body.error).toMatch(/your role in this workspace is member.*admin/)

    const blank = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/agents`, {
      body: { name: "  " },
      headers: key(a.apiKey)
    })
    expect(blank.status).toBe(400)
    expect(blank.body.error).toMatch(/name/)

    // an outsider cannot tell the workspace exists
    const outsider = await bootstrap(base, "Eve")
    const byOutsider = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/agents`, {
      body: { name: "Spy" },
      headers: key(outsider.apiKey)
    })
    expect(byOutsider.status).toBe(404)

    const listed = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/agents`, { headers: key(m.apiKey) })
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([agent])
  })

  it("the members list shows the agent with kind agent (role member, no email), people with kind person", async () => {
    const r = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/members`, { headers: key(m.apiKey) })
    expect(r.status).toBe(200)
    const byId = new Map(r.body.map((x: any) => [x.userId, x]))
    expect(byId.get(agent.id)).toMatchObject({ kind: "agent", role: "member", fullName: "Claude", email: "" })
    expect(byId.get(a.userId)).toMatchObject({ kind: "person", role: "owner", email: a.email.toLowerCase() })
    expect(byId.get(m.userId)).toMatchObject({ kind: "person", role: "member" })
  })

  it("keys: an admin makes one (shown once, scopes validated and stored); a member who did not create it gets 403", async () => {
    const bad = await call(base, "POST", `/v1/agents/${agent.id}/api-keys`, {
      body: { name: "ci", scopes: ["read", "root"] },
      headers: key(a.apiKey)
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/scope/)
    const none = await call(base, "POST", `/v1/agents/${agent.id}/api-keys`, {
      body: { name: "ci", scopes: [] },
      headers: key(a.apiKey)
    })
    expect(none.status).toBe(400)

    const r = await call(base, "POST", `/v1/agents/${agent.id}/api-keys`, {
      body: { name: "ci", scopes: ["write", "read", "write"] },
      headers: key(a.apiKey)
    })
    expect(r.status, r.text).toBe(201)
    expect(r.body).toMatchObject({ agentId: agent.id, name: "ci", scopes: ["read", "write"] })
    expect(r.body.rawKey).toMatch(/^svc_/)
    rawKey = r.body.rawKey
    keyId = r.body.id
    const [row] = await server.query<{ scopes: string; user_id: string }>(
      "SELECT scopes::text AS scopes, user_id::text AS user_id FROM api_keys WHERE id = $1",
      [keyId]
    )
    expect(row).toEqual({ scopes: "{read,write}", user_id: agent.id })

    const listed = await call(base, "GET", `/v1/agents/${agent.id}/api-keys`, { headers: key(a.apiKey) })
    expect(listed.body).toEqual([
      {
        id: keyId,
        agentId: agent.id,
        name: "ci",
        scopes: ["read", "write"],
        projectIds: null,
        expiresAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String)
      }
    ])
    expect(listed.text).not.toContain(rawKey)

    const byMember = await call(base, "POST", `/v1/agents/${agent.id}/api-keys`, {
      body: { name: "mine" },
      headers: key(m.apiKey)
    })
    expect(byMember.status).toBe(403)
    expect(byMember.body.error).toMatch(/admin/)
    expect((await call(base, "GET", `/v1/agents/${agent.id}/api-keys`, { headers: key(m.apiKey) })).status).toBe(403)
  })

  it("what the agent's key does is the agent's, on behalf of its creator: create, move, claim, comment", async () => {
    const h = key(rawKey)
    const me = await call(base, "GET", "/v1/me", { headers: h })
    expect(me.body).toMatchObject({ id: agent.id, full_name: "Claude", credential: "apiKey" })

    const created = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "Agent's card" },
      headers: h
    })
    expect(created.status, created.text).toBe(201)
    const cardId = created.body.id as string
    const moved = await call(base, "POST", `/v1/cards/${cardId}/move`, {
      body: { columnId: a.columns[1]!.id },
      headers: h
    })
    expect(moved.status, moved.text).toBe(200)
    const claimed = await call(base, "POST", `/v1/cards/${cardId}/claim`, { body: {}, headers: h })
    expect(claimed.status, claimed.text).toBe(201)
    const comment = await call(base, "POST", `/v1/cards/${cardId}/comments`, { body: { body: "On it" }, headers: h })
    expect(comment.status, comment.text).toBe(201)

    const actor = { type: "agent", userId: agent.id, name: "Claude", onBehalfOf: a.userId }
    expect(claimed.body.actor).toEqual(actor)
    expect(comment.body.author).toEqual(actor)
    // the card and the board show the claim as the agent's
    const card = await call(base, "GET", `/v1/cards/${cardId}`, { headers: key(m.apiKey) })
    expect(card.body.claim.actor).toEqual(actor)
    const board = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: key(m.apiKey) })
    expect(board.body.cards.find((c: any) => c.id === cardId).claim.actor).toEqual(actor)

    const events = await history(cardId, key(m.apiKey))
    expect(events.map((e) => e.type)).toEqual([
      "card.created",
      "card.moved",
      "agent_session.created",
      "comment.created"
    ])
    for (const e of events) expect(e.actor, e.type).toEqual(actor)
    // the project's event log says the same
    const page = await call(base, "GET", `/v1/projects/${a.projectId}/events`, { headers: key(a.apiKey) })
    const mine = page.body.events.filter((e: any) => e.data.object?.id === cardId || e.data.object?.cardId === cardId)
    expect(mine.length).toBeGreaterThanOrEqual(4)
    for (const e of mine) expect(e.actor).toEqual(actor)
  })

  it("a card can be assigned to the agent, and the assignment reads back", async () => {
    const created = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "For the agent", assigneeIds: [agent.id] },
      headers: key(a.apiKey)
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body.assigneeIds).toEqual([agent.id])
    const patched = await call(base, "PATCH", `/v1/cards/${created.body.id}`, {
      body: { assigneeIds: [agent.id, m.userId] },
      headers: key(m.apiKey)
    })
    expect(patched.status, patched.text).toBe(200)
    expect([...patched.body.assigneeIds].sort()).toEqual([agent.id, m.userId].sort())
    const filtered = await call(base, "GET", `/v1/search?assignee=${agent.id}&q=agent`, { headers: key(a.apiKey) })
    expect(filtered.status, filtered.text).toBe(200)
  })

  it("the agent is a member: its key cannot make agents, keys or workspaces; it cannot sign in", async () => {
    const h = key(rawKey)
    const makeAgent = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/agents`, {
      body: { name: "Child" },
      headers: h
    })
    expect(makeAgent.status).toBe(403)
    expect(makeAgent.body.error).toMatch(/member/)
    const ownKey = await call(base, "POST", `/v1/agents/${agent.id}/api-keys`, { body: { name: "more" }, headers: h })
    expect(ownKey.status).toBe(403)
    const plainKey = await call(base, "POST", "/v1/api-keys", { body: { name: "more" }, headers: h })
    expect(plainKey.status).toBe(403)
    const ws = await call(base, "POST", "/v1/workspaces", { body: { name: "Agent land" }, headers: h })
    expect(ws.status).toBe(403)
    for (const password of ["", "!agent: no password, no sign-in", "correct horse battery"]) {
      const login = await call(base, "POST", "/v1/auth/login", { body: { email: `agent:${agent.id}`, password } })
      expect(login.status, password).not.toBe(200)
    }
    // nor can it be added elsewhere by its account's email
    const other = await bootstrap(base, "Otto")
    const add = await call(base, "POST", `/v1/workspaces/${other.workspaceId}/members`, {
      body: { email: `agent:${agent.id}` },
      headers: bearer(other.session)
    })
    expect(add.status).toBe(400)
  })

  it("an OAuth client's events carry onBehalfOf: the person who granted it", async () => {
    const { client, tokens } = await fullFlow(base, a, [a.workspaceId])
    const created = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "Via OAuth" },
      headers: bearer(tokens.access_token)
    })
    expect(created.status, created.text).toBe(201)
    const claimed = await call(base, "POST", `/v1/cards/${created.body.id}/claim`, {
      body: {},
      headers: bearer(tokens.access_token)
    })
    const actor = { type: "agent", userId: a.userId, name: client.client_name, onBehalfOf: a.userId }
    expect(claimed.body.actor).toEqual(actor)
    const events = await history(created.body.id)
    expect(events.map((e) => e.type)).toEqual(["card.created", "agent_session.created"])
    for (const e of events) expect(e.actor).toEqual(actor)
    // a person's own key stays a person
    const own = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "By hand" },
      headers: key(a.apiKey)
    })
    expect((await history(own.body.id))[0]!.actor).toEqual({ type: "user", userId: a.userId, name: "Ada" })
  })

  it("deleting the agent: a member gets 403; an admin's 204 kills its keys at once, ends its stream, membership and assignments", async () => {
    const doomed = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/agents`, {
      body: { name: "Doomed" },
      headers: key(a.apiKey)
    })
    const id = doomed.body.id as string
    const k = await call(base, "POST", `/v1/agents/${id}/api-keys`, { body: { name: "k" }, headers: key(a.apiKey) })
    const h = key(k.body.rawKey)
    const card = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "Doomed's", assigneeIds: [id] },
      headers: h
    })
    expect(card.status, card.text).toBe(201)
    const claim = await call(base, "POST", `/v1/cards/${card.body.id}/claim`, { body: {}, headers: h })
    expect(claim.status, claim.text).toBe(201)

    // an open stream of the agent's key
    const abort = new AbortController()
    const stream = await fetch(`${base}/v1/projects/${a.projectId}/events/stream`, { headers: h, signal: abort.signal })
    expect(stream.status).toBe(200)
    const ended = (async () => {
      try {
        for await (const _ of stream.body as unknown as AsyncIterable<Uint8Array>) {
          // read until the server ends it
        }
      } catch {
        // aborted
      }
      return Date.now()
    })()

    const byMember = await call(base, "DELETE", `/v1/agents/${id}`, { headers: key(m.apiKey) })
    expect(byMember.status).toBe(403)
    expect((await call(base, "GET", "/v1/me", { headers: h })).status).toBe(200)

    const deletedAt = Date.now()
    const del = await call(base, "DELETE", `/v1/agents/${id}`, { headers: key(a.apiKey) })
    expect(del.status, del.text).toBe(204)
    const refused = await call(base, "GET", "/v1/me", { headers: h })
    expect(refused.status).toBe(401)
    const timeout = setTimeout(() => abort.abort(), 5_000)
    const endedAt = await ended
    clearTimeout(timeout)
    expect(abort.signal.aborted, "the stream was still open 5 s after the delete").toBe(false)
    expect(endedAt - deletedAt).toBeLessThan(2_000)

    expect((await call(base, "DELETE", `/v1/agents/${id}`, { headers: key(a.apiKey) })).status).toBe(404)
    const agents = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/agents`, { headers: key(a.apiKey) })
    expect(agents.body.map((x: any) => x.id)).not.toContain(id)
    const members = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/members`, { headers: key(a.apiKey) })
    expect(members.body.map((x: any) => x.userId)).not.toContain(id)
    const after = await call(base, "GET", `/v1/cards/${card.body.id}`, { headers: key(a.apiKey) })
    expect(after.body.assigneeIds).toEqual([])
    // its claim ends now, not at the lease's end
    expect(after.body.claim).toBeNull()
    // history still names it; the release is the deleting admin's
    const events = await history(card.body.id)
    expect(events[0]!.actor).toEqual({ type: "agent", userId: id, name: "Doomed", onBehalfOf: a.userId })
    const released = events.filter((e) => e.type === "agent_session.updated").at(-1) as any
    expect(released.actor).toEqual({ type: "user", userId: a.userId, name: "Ada" })
    expect(released.data.object.status).toBe("released")
    expect(released.data.previous).toEqual({ status: "active" })
  })
})
