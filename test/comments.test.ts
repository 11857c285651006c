/**
 * Issue 19, part 2: comments on cards, over real HTTP on each database. The author is the event
 * log's actor (an OAuth client is an agent named after its client), only the author may edit or
 * delete (another member: 403; someone who cannot see the card: 404; a token outside its grant:
 * 403), pages are oldest first, every change logs its event with the REST answer as its object,
 * and the agent prompt quotes the latest comments.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("comments on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  /** A member of a's workspace. */
  let m: Account
  /** Someone else entirely. */
  let outsider: Account
  let h: Record<string, string>
  /** a's OAuth token bound to a's workspace (an agent), and one bound to a's second workspace only. */
  let agent: string
  let elsewhere: string

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "ann")
    m = await bootstrap(base, "max")
    outsider = await bootstrap(base, "outsider")
    h = key(a.apiKey)
    expect(
      (
        await call(base, "POST", `/v1/workspaces/${a.workspaceId}/members`, {
          body: { email: m.email },
          headers: bearer(a.session)
        })
      ).status
    ).toBe(201)
    const ws2 = await call(base, "POST", "/v1/workspaces", { body: { name: "second" }, headers: bearer(a.session) })
    agent = (await fullFlow(base, a, [a.workspaceId])).tokens.access_token
    elsewhere = (await fullFlow(base, a, [ws2.body.workspace.id])).tokens.access_token
  }, 120_000)
  afterAll(() => server?.stop())

  const newCard = async (title = "Talk about it") => {
    const r = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title },
      headers: h
    })
    expect(r.status).toBe(201)
    return r.body as { id: string; ref: string }
  }
  const comment = (cardId: string, body: unknown, headers = h) =>
    call(base, "POST", `/v1/cards/${cardId}/comments`, { body: { body }, headers })
  const eventsOf = async (cardId: string) =>
    (
      await server.query<{ type: string; data: string; actor: string }>(
        "SELECT type, data::text AS data, actor::text AS actor FROM events WHERE card_id = $1 AND type LIKE 'comment.%' ORDER BY n",
        [cardId]
      )
    ).map((r) => ({ type: r.type, data: JSON.parse(r.data), actor: JSON.parse(r.actor) }))

  it("creates a comment: 201 with the author as an actor, Markdown kept, and its event", async () => {
    const card = await newCard()
    const body = "## Plan\n\n- [ ] step one\n- **bold** `code` <b>html</b>\n"
    const r = await comment(card.id, body)
    expect(r.status, r.text).toBe(201)
    expect(r.body).toEqual({
      id: expect.any(String),
      cardId: card.id,
      author: { type: "user", userId: a.userId, name: "ann" },
      body,
      createdAt: expect.any(String),
      updatedAt: r.body.createdAt
    })
    const [created] = await eventsOf(card.id)
    expect(created!.type).toBe("comment.created")
    expect(created!.data).toEqual({ object: r.body })
    expect(created!.actor).toEqual(r.body.author)
  })

  it("an OAuth client comments as an agent with its client's name", async () => {
    const card = await newCard()
    const r = await comment(card.id, "on it", bearer(agent))
    expect(r.status, r.text).toBe(201)
    expect(r.body.author).toEqual({ type: "agent", userId: a.userId, name: "Test Agent", onBehalfOf: a.userId })
  })

  it("refuses bodies that are empty, blank, too long or hold NUL, and a card it cannot find", async () => {
    const card = await newCard()
    for (const body of ["", "   \n", "x".repeat(10_001), "a\u0000b", 42]) {
      const r = await comment(card.id, body)
      expect(r.status, JSON.stringify(body).slice(0, 40)).toBe(400)
      expect(r.body).toEqual({ error: expect.stringContaining("body") })
    }
    // 10,000 characters, counted as code points
    expect((await comment(card.id, "😀".repeat(10_000))).status).toBe(201)
    expect((await comment(crypto.randomUUID(), "hello")).status).toBe(404)
    const page = await call(base, "GET", `/v1/cards/${card.id}/comments`, { headers: h })
    expect(page.body.total).toBe(1)
  })

  it("lists oldest first with limit and offset, and refuses bad pages", async () => {
    const card = await newCard()
    const made: Array<any> = []
    for (let i = 0; i < 7; i++) made.push((await comment(card.id, `comment ${i}`)).body)
    const all = await call(base, "GET", `/v1/cards/${card.id}/comments`, { headers: h })
    expect(all.status).toBe(200)
    expect(all.body).toEqual({ comments: made, total: 7, limit: 50, offset: 0 })
    const page = await call(base, "GET", `/v1/cards/${card.id}/comments?limit=3&offset=2`, { headers: h })
    expect(page.body).toEqual({ comments: made.slice(2, 5), total: 7, limit: 3, offset: 2 })
    const past = await call(base, "GET", `/v1/cards/${card.id}/comments?offset=100`, { headers: h })
    expect(past.body).toEqual({ comments: [], total: 7, limit: 50, offset: 100 })
    for (const q of ["limit=0", "limit=501", "limit=x", "offset=-1"]) {
      const r = await call(base, "GET", `/v1/cards/${card.id}/comments?${q}`, { headers: h })
      expect(r.status, q).toBe(400)
      expect(r.body).toEqual({ error: expect.any(String) })
    }
    expect((await call(base, "GET", `/v1/cards/${card.id}/comments?limit=500`, { headers: h })).status).toBe(200)
  })

  it("the author edits and deletes; events carry the comment and the old body", async () => {
    const card = await newCard()
    const made = (await comment(card.id, "first draft")).body
    const edited = await call(base, "PATCH", `/v1/comments/${made.id}`, { body: { body: "second draft" }, headers: h })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ id: made.id, body: "second draft", createdAt: made.createdAt })
    const bad = await call(base, "PATCH", `/v1/comments/${made.id}`, { body: { body: "" }, headers: h })
    expect(bad.status).toBe(400)
    // the same user's agent counts as the author
    const byAgent = await call(base, "PATCH", `/v1/comments/${made.id}`, {
      body: { body: "third draft" },
      headers: bearer(agent)
    })
    expect(byAgent.status).toBe(200)
    const listed = (await call(base, "GET", `/v1/cards/${card.id}/comments`, { headers: h })).body
    expect(listed.comments).toEqual([byAgent.body])
    const gone = await call(base, "DELETE", `/v1/comments/${made.id}`, { headers: h })
    expect(gone.status).toBe(204)
    expect((await call(base, "GET", `/v1/cards/${card.id}/comments`, { headers: h })).body.total).toBe(0)
    expect((await call(base, "DELETE", `/v1/comments/${made.id}`, { headers: h })).status).toBe(404)

    const events = await eventsOf(card.id)
    expect(events.map((e) => e.type)).toEqual([
      "comment.created",
      "comment.updated",
      "comment.updated",
      "comment.deleted"
    ])
    expect(events[1]!.data).toEqual({ object: edited.body, previous: { body: "first draft" } })
    expect(events[2]!.data).toEqual({ object: byAgent.body, previous: { body: "second draft" } })
    expect(events[2]!.actor).toEqual({ type: "agent", userId: a.userId, name: "Test Agent", onBehalfOf: a.userId })
    expect(events[3]!.data).toEqual({ object: byAgent.body })
  })

  it("others may not edit or delete: a member 403, an outsider 404, a token outside its grant 403", async () => {
    const card = await newCard()
    const made = (await comment(card.id, "mine")).body
    const attempts: Array<[string, Record<string, string>, number]> = [
      ["a member who is not the author", key(m.apiKey), 403],
      ["someone who cannot see the card", key(outsider.apiKey), 404],
      ["the author's token bound to another workspace", bearer(elsewhere), 403]
    ]
    for (const [who, headers, status] of attempts) {
      const patched = await call(base, "PATCH", `/v1/comments/${made.id}`, { body: { body: "hijacked" }, headers })
      expect(patched.status, `PATCH by ${who}: ${patched.text}`).toBe(status)
      expect(patched.body).toEqual({ error: expect.any(String) })
      const deleted = await call(base, "DELETE", `/v1/comments/${made.id}`, { headers })
      expect(deleted.status, `DELETE by ${who}`).toBe(status)
      expect(deleted.body).toEqual({ error: expect.any(String) })
    }
    // reading and writing on the card follow the card's access
    expect((await comment(card.id, "hi", key(outsider.apiKey))).status).toBe(404)
    expect((await comment(card.id, "hi", bearer(elsewhere))).status).toBe(403)
    expect((await call(base, "GET", `/v1/cards/${card.id}/comments`, { headers: key(outsider.apiKey) })).status).toBe(
      404
    )
    expect((await call(base, "GET", `/v1/cards/${card.id}/comments`, { headers: bearer(elsewhere) })).status).toBe(403)
    // a member may comment and read; the comment is unchanged
    expect((await comment(card.id, "me too", key(m.apiKey))).body.author).toEqual({
      type: "user",
      userId: m.userId,
      name: "max"
    })
    const listed = (await call(base, "GET", `/v1/cards/${card.id}/comments`, { headers: key(m.apiKey) })).body
    expect(listed.comments[0]).toEqual(made)
    expect((await eventsOf(card.id)).map((e) => e.type)).toEqual(["comment.created", "comment.created"])
  })

  it("deleting the card deletes its comments", async () => {
    const card = await newCard()
    const made = (await comment(card.id, "bye")).body
    expect((await call(base, "DELETE", `/v1/cards/${card.id}`, { headers: h })).status).toBe(204)
    expect(await server.query("SELECT 1 FROM comments WHERE id = $1", [made.id])).toEqual([])
  })

  it("every prompt variant quotes the latest ten comments, oldest first, with author and time", async () => {
    const card = await newCard("Prompted")
    const made: Array<any> = []
    for (let i = 0; i < 12; i++) made.push((await comment(card.id, `note number ${i}\nsecond line ${i}`)).body)
    made.push((await comment(card.id, `agent says ${"y".repeat(1_200)}`, bearer(agent))).body)
    for (const variant of ["analysis", "draft", "execute"]) {
      const r = await call(base, "GET", `/v1/cards/${card.id}/prompt?variant=${variant}`, { headers: h })
      expect(r.status).toBe(200)
      const prompt: string = r.body.prompt
      expect(prompt).toContain("## Comments (the latest 10 of 13, oldest first)")
      expect(prompt).not.toContain("note number 2\n")
      expect(prompt).toContain(`**ann**, ${made[3].createdAt}:\n> note number 3\n> second line 3`)
      expect(prompt.indexOf("note number 3")).toBeLessThan(prompt.indexOf("note number 11"))
      expect(prompt).toContain(`**Test Agent (agent)**, ${made[12].createdAt}:\n> agent says ${"y".repeat(989)}`)
      expect(prompt).not.toContain("y".repeat(1_000))
      expect(prompt).toContain("…")
    }
  })
})
