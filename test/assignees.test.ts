/**
 * Issue 19, part 1: a card's assignees and due date, over real HTTP on each database. Assignees
 * are members of the card's workspace (anyone else is a 400 that names them), a PATCH replaces
 * the set and logs `card.assigned` (object: the card after, previous: the old ids), a create
 * carries them in its `card.created` event, and the board and search filter by assignee.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("assignees and due dates on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  /** A member of a's workspace. */
  let m: Account
  /** Not a member of a's workspace. */
  let outsider: Account
  let h: Record<string, string>

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "owner")
    m = await bootstrap(base, "member")
    outsider = await bootstrap(base, "outsider")
    h = key(a.apiKey)
    const added = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/members`, {
      body: { email: m.email },
      headers: bearer(a.session)
    })
    expect(added.status, added.text).toBe(201)
  }, 120_000)
  afterAll(() => server?.stop())

  const create = (body: Record<string, unknown>, headers = h) =>
    call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, ...body },
      headers
    })
  const patch = (id: string, body: unknown, headers = h) => call(base, "PATCH", `/v1/cards/${id}`, { body, headers })
  const eventsOf = (cardId: string, type: string) =>
    server
      .query<{ type: string; data: any; actor: any }>(
        "SELECT type, data::text AS data, actor::text AS actor FROM events WHERE card_id = $1 AND type = $2 ORDER BY n",
        [cardId, type]
      )
      .then((rows) => rows.map((r) => ({ ...r, data: JSON.parse(r.data), actor: JSON.parse(r.actor) })))

  it("a card without them has no assignees and no due date, everywhere it is shown", async () => {
    const r = await create({ title: "Plain" })
    expect(r.status).toBe(201)
    expect(r.body.assigneeIds).toEqual([])
    expect(r.body.dueAt).toBeNull()
    const got = await call(base, "GET", `/v1/cards/${r.body.id}`, { headers: h })
    expect(got.body).toEqual(r.body)
    const [created] = await eventsOf(r.body.id, "card.created")
    expect(created!.data.object).toEqual(r.body)
  })

  it("creates a card with assignees and a due date in one go: answer, read, event and rows agree", async () => {
    const r = await create({
      title: "Assigned",
      assigneeIds: [m.userId, a.userId, m.userId],
      dueAt: "2026-05-01T17:00:00+02:00"
    })
    expect(r.status, r.text).toBe(201)
    // the same moment: ids by id (assigned together), duplicates once
    expect(r.body.assigneeIds).toEqual([a.userId, m.userId].sort())
    expect(r.body.dueAt).toBe("2026-05-01T15:00:00.000Z")
    const got = await call(base, "GET", `/v1/cards/${r.body.id}`, { headers: h })
    expect(got.body).toEqual(r.body)
    const [created] = await eventsOf(r.body.id, "card.created")
    expect(created!.data.object).toEqual(r.body)
    const rows = await server.query(
      "SELECT user_id::text AS u FROM card_assignees WHERE card_id = $1 ORDER BY user_id",
      [r.body.id]
    )
    expect(rows.map((x: any) => x.u)).toEqual([a.userId, m.userId].sort())
  })

  it("refuses a non-member assignee with a 400 that names them, and writes nothing", async () => {
    const before = await server.query("SELECT count(*)::int AS n FROM cards WHERE project_id = $1", [a.projectId])
    const r = await create({ title: "Nope", assigneeIds: [m.userId, outsider.userId] })
    expect(r.status).toBe(400)
    expect(r.body.error).toContain(outsider.userId)
    expect(r.body.error).not.toContain(m.userId)
    const after = await server.query("SELECT count(*)::int AS n FROM cards WHERE project_id = $1", [a.projectId])
    expect(after).toEqual(before)
    // an id that is not even a UUID is malformed
    const bad = await create({ title: "Nope", assigneeIds: ["nobody"] })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ error: expect.stringContaining("assigneeIds") })
  })

  it("refuses a due date that is not an ISO date-time", async () => {
    for (const dueAt of ["tomorrow", "2026-02-30T10:00:00Z", "2026-05-01", "2026-05-01T10:00:00", 42]) {
      const r = await create({ title: "Due", dueAt })
      expect(r.status, `${dueAt}: ${r.text}`).toBe(400)
      expect(r.body).toEqual({ error: expect.stringContaining("dueAt") })
    }
    const card = (await create({ title: "Due later" })).body
    const r = await patch(card.id, { dueAt: "next week" })
    expect(r.status).toBe(400)
    expect(r.body.error).toContain("dueAt")
  })

  it("PATCH sets and clears the due date", async () => {
    const card = (await create({ title: "Deadline" })).body
    const set = await patch(card.id, { dueAt: "2027-01-02T03:04:05.678Z" })
    expect(set.status).toBe(200)
    expect(set.body.dueAt).toBe("2027-01-02T03:04:05.678Z")
    const cleared = await patch(card.id, { dueAt: null })
    expect(cleared.body.dueAt).toBeNull()
    expect((await call(base, "GET", `/v1/cards/${card.id}`, { headers: h })).body.dueAt).toBeNull()
  })

  it("PATCH replaces the set, in assignment order, and logs card.assigned with the old ids", async () => {
    const card = (await create({ title: "Hand over", assigneeIds: [a.userId] })).body
    const r = await patch(card.id, { assigneeIds: [m.userId, a.userId] })
    expect(r.status, r.text).toBe(200)
    // a kept its earlier assignment, so it stays first
    expect(r.body.assigneeIds).toEqual([a.userId, m.userId])
    const [assigned] = await eventsOf(card.id, "card.assigned")
    expect(assigned!.data.object).toEqual(r.body)
    expect(assigned!.data.previous).toEqual({ assigneeIds: [a.userId] })
    expect(assigned!.actor).toEqual({ type: "user", userId: a.userId, name: "owner" })

    const only = await patch(card.id, { assigneeIds: [m.userId] })
    expect(only.body.assigneeIds).toEqual([m.userId])
    // the same set again changes nothing and logs nothing
    const same = await patch(card.id, { assigneeIds: [m.userId] })
    expect(same.body.assigneeIds).toEqual([m.userId])
    const all = await eventsOf(card.id, "card.assigned")
    expect(all).toHaveLength(2)
    expect(all[1]!.data.previous).toEqual({ assigneeIds: [a.userId, m.userId] })
    expect(all[1]!.data.object).toEqual(only.body)

    const none = await patch(card.id, { assigneeIds: [] })
    expect(none.body.assigneeIds).toEqual([])
  })

  it("a PATCH naming a non-member changes nothing at all, not even the other fields", async () => {
    const card = (await create({ title: "Stays", assigneeIds: [m.userId] })).body
    const r = await patch(card.id, { title: "Changed", assigneeIds: [outsider.userId] })
    expect(r.status).toBe(400)
    expect(r.body.error).toContain(outsider.userId)
    const got = (await call(base, "GET", `/v1/cards/${card.id}`, { headers: h })).body
    expect(got.title).toBe("Stays")
    expect(got.assigneeIds).toEqual([m.userId])
  })

  it("a PATCH of the title and the assignees does both and logs card.assigned", async () => {
    const card = (await create({ title: "Before" })).body
    const r = await patch(card.id, { title: "After", assigneeIds: [m.userId] })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ title: "After", assigneeIds: [m.userId] })
    const [assigned] = await eventsOf(card.id, "card.assigned")
    expect(assigned!.data.object).toEqual(r.body)
  })

  it("the board and search filter by assignee (me or an id), with the cards' true positions", async () => {
    const p = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: a.workspaceId, name: "Filtered", template: "kanban" },
      headers: h
    })
    const projectId = p.body.project.id
    const col = p.body.columns[0].id
    const word = `flt${Date.now().toString(36)}`
    const make = async (title: string, assigneeIds: Array<string>) =>
      (
        await call(base, "POST", "/v1/cards", {
          body: { projectId, columnId: col, title: `${word} ${title}`, assigneeIds },
          headers: h
        })
      ).body
    const c0 = await make("nobody", [])
    const c1 = await make("mine", [a.userId])
    const c2 = await make("theirs", [m.userId])
    const c3 = await make("both", [a.userId, m.userId])

    const full = (await call(base, "GET", `/v1/board/${projectId}`, { headers: h })).body
    expect(full.cards.map((c: any) => c.id)).toEqual([c0.id, c1.id, c2.id, c3.id])

    const mine = await call(base, "GET", `/v1/board/${projectId}?assignee=me`, { headers: h })
    expect(mine.status).toBe(200)
    // the same cards as on the full board, byte for byte, only fewer
    expect(mine.body.cards).toEqual(full.cards.filter((c: any) => [c1.id, c3.id].includes(c.id)))
    expect(mine.body.cards.map((c: any) => c.position)).toEqual([1, 3])
    expect(mine.body.columns).toEqual(full.columns)
    expect(mine.body.labels).toEqual(full.labels)
    const theirs = await call(base, "GET", `/v1/board/${projectId}?assignee=${m.userId}`, { headers: h })
    expect(theirs.body.cards.map((c: any) => c.id)).toEqual([c2.id, c3.id])
    // the member's own "me"
    const asMember = await call(base, "GET", `/v1/board/${projectId}?assignee=me`, { headers: key(m.apiKey) })
    expect(asMember.body.cards.map((c: any) => c.id)).toEqual([c2.id, c3.id])
    const nobody = await call(base, "GET", `/v1/board/${projectId}?assignee=${outsider.userId}`, { headers: h })
    expect(nobody.status).toBe(200)
    expect(nobody.body.cards).toEqual([])
    expect(nobody.body.project).toEqual(full.project)
    const bad = await call(base, "GET", `/v1/board/${projectId}?assignee=someone`, { headers: h })
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual({ error: expect.stringContaining("assignee") })

    const search = async (q: string) => (await call(base, "GET", `/v1/search?q=${word}&${q}`, { headers: h })).body
    expect(new Set((await search("assignee=me")).map((c: any) => c.id))).toEqual(new Set([c1.id, c3.id]))
    expect(new Set((await search(`assignee=${m.userId}`)).map((c: any) => c.id))).toEqual(new Set([c2.id, c3.id]))
    expect((await search("")).length).toBe(4)
    expect((await call(base, "GET", `/v1/search?q=${word}&assignee=x`, { headers: h })).status).toBe(400)
  })

  it("deleting a card drops its assignments; the delete event carries them", async () => {
    const card = (await create({ title: "Gone", assigneeIds: [m.userId] })).body
    expect((await call(base, "DELETE", `/v1/cards/${card.id}`, { headers: h })).status).toBe(204)
    expect(await server.query("SELECT 1 FROM card_assignees WHERE card_id = $1", [card.id])).toEqual([])
    const [deleted] = await eventsOf(card.id, "card.deleted")
    expect(deleted!.data.object.assigneeIds).toEqual([m.userId])
  })

  it("another user cannot assign on a card they cannot see (404)", async () => {
    const card = (await create({ title: "Private" })).body
    const r = await patch(card.id, { assigneeIds: [outsider.userId] }, key(outsider.apiKey))
    expect(r.status).toBe(404)
  })
})
