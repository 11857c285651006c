/**
 * Issue 19, the work queue: POST /v1/projects/{id}/claim-next claims the best unclaimed card
 * (priority, then board order) over real HTTP on each database, filters by column, labels and
 * assignee, answers 204 when nothing matches, and under 100 concurrent callers on 50 cards
 * claims each card exactly once. The queue's index leaves claimed cards out (cards.claimed, kept
 * by a trigger on every session change): a released card joins the queue again at once, one whose
 * lease passed once the sweep marks its session stale.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { makeShiftedClock } from "./support/shiftedClock.ts"

describe.each(backends)("the work queue on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account
  const clock = makeShiftedClock()

  beforeAll(async () => {
    server = await startServer(backend, {}, undefined, undefined, { clock: clock.clock })
    base = server.baseUrl
    A = await bootstrap(base, "queue")
  }, 120_000)
  afterAll(() => server?.stop())

  const newProject = async (name: string) => {
    const r = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: A.workspaceId, name, template: "kanban" },
      headers: bearer(A.session)
    })
    expect(r.status).toBe(201)
    return { id: r.body.project.id as string, columns: r.body.columns as Array<{ id: string; name: string }> }
  }
  const newCard = async (projectId: string, columnId: string, title: string, priority = "medium") => {
    const r = await call(base, "POST", "/v1/cards", {
      body: { projectId, columnId, title, priority },
      headers: key(A.apiKey)
    })
    expect(r.status).toBe(201)
    return r.body
  }
  // the queue without a column takes from todo columns only (column-kinds.test.ts): these tests
  // make the second column one too, to order and filter across columns
  const makeTodo = async (columnId: string) => {
    const r = await call(base, "PATCH", `/v1/columns/${columnId}`, { body: { kind: "todo" }, headers: key(A.apiKey) })
    expect(r.body.kind).toBe("todo")
  }
  const next = (projectId: string, body: unknown = {}, headers = key(A.apiKey)) =>
    call(base, "POST", `/v1/projects/${projectId}/claim-next`, { body, headers })

  it("takes cards by priority, then board order, and answers 204 when none is left", async () => {
    const p = await newProject("Order")
    const [todo, doing] = p.columns
    await makeTodo(doing!.id)
    const low = await newCard(p.id, todo!.id, "low", "low")
    const urgentLater = await newCard(p.id, doing!.id, "urgent in the second column", "urgent")
    const medium = await newCard(p.id, todo!.id, "medium", "medium")
    const urgent = await newCard(p.id, todo!.id, "urgent", "urgent")
    const high = await newCard(p.id, doing!.id, "high", "high")
    const taken: Array<string> = []
    for (let i = 0; i < 5; i++) {
      const r = await next(p.id)
      expect(r.status).toBe(201)
      expect(r.body.session.cardId).toBe(r.body.card.id)
      expect(r.body.session.status).toBe("active")
      expect(r.body.card.claim).toEqual({
        sessionId: r.body.session.id,
        actor: r.body.session.actor,
        leaseExpiresAt: r.body.session.leaseExpiresAt
      })
      // the card as its own read shows it, and the session's event in the card's history
      const read = await call(base, "GET", `/v1/cards/${r.body.card.id}`, { headers: key(A.apiKey) })
      expect(read.text).toBe(JSON.stringify(r.body.card))
      const history = await call(base, "GET", `/v1/cards/${r.body.card.id}/history`, { headers: key(A.apiKey) })
      const created = history.body.events.filter((e: { type: string }) => e.type === "agent_session.created")
      expect(created).toHaveLength(1)
      expect(created[0].data).toEqual({ object: r.body.session })
      expect(created[0].actor).toEqual({ type: "user", userId: A.userId, name: expect.any(String) })
      expect(created[0].createdAt).toBe(r.body.session.createdAt)
      taken.push(r.body.card.id)
    }
    expect(taken).toEqual([urgent.id, urgentLater.id, high.id, medium.id, low.id])
    const none = await next(p.id)
    expect(none.status).toBe(204)
    expect(none.text).toBe("")
  })

  it("filters by column, labels and assignee, and takes the lease it is given", async () => {
    const p = await newProject("Filters")
    const [todo, doing] = p.columns
    await makeTodo(doing!.id)
    const a = await newCard(p.id, todo!.id, "a")
    const b = await newCard(p.id, doing!.id, "b")
    const c = await newCard(p.id, doing!.id, "c")
    const label = await call(base, "POST", "/v1/labels", {
      body: { projectId: p.id, name: "agent-ok" },
      headers: key(A.apiKey)
    })
    expect(label.status).toBe(201)
    expect(
      (
        await call(base, "POST", `/v1/cards/${c.id}/labels`, {
          body: { labelId: label.body.id },
          headers: key(A.apiKey)
        })
      ).status
    ).toBeLessThan(300)
    const labelled = await next(p.id, { labelIds: [label.body.id], ttlSeconds: 45 })
    expect(labelled.status).toBe(201)
    expect(labelled.body.card.id).toBe(c.id)
    expect(Date.parse(labelled.body.session.leaseExpiresAt) - Date.parse(labelled.body.session.createdAt)).toBe(45_000)
    // assignees (the card_assignees table): b is A's, a is nobody's
    await server.query(`INSERT INTO card_assignees (card_id, user_id, created_at) VALUES ($1, $2, now())`, [
      b.id,
      A.userId
    ])
    const mine = await next(p.id, { assignee: "me" })
    expect(mine.body.card.id).toBe(b.id)
    expect((await next(p.id, { assignee: "me" })).status).toBe(204)
    const column = await next(p.id, { columnId: doing!.id })
    expect(column.status).toBe(204)
    const unassigned = await next(p.id, { assignee: "unassigned", columnId: todo!.id })
    expect(unassigned.body.card.id).toBe(a.id)
  })

  it("refuses what it cannot honour: a bad lease, another project's column or none, a bad label id, a project it cannot see", async () => {
    const p = await newProject("Refusals")
    const other = await newProject("Other")
    expect((await next(p.id, { ttlSeconds: 10 })).status).toBe(400)
    expect((await next(p.id, { assignee: "everyone" })).status).toBe(400)
    const elsewhere = await next(p.id, { columnId: other.columns[0]!.id })
    expect(elsewhere.status).toBe(400)
    expect(elsewhere.body.error).toMatch(/another project/)
    // a column that exists nowhere, a label id that is no uuid: refused, nothing claimed
    const nowhere = await next(p.id, { columnId: "00000000-0000-4000-8000-000000000000" })
    expect(nowhere.status).toBe(404)
    expect(typeof nowhere.body.error).toBe("string")
    const badLabel = await next(p.id, { labelIds: ["not-a-uuid"] })
    expect(badLabel.status).toBe(400)
    expect(typeof badLabel.body.error).toBe("string")
    const stranger = await bootstrap(base, "stranger")
    expect((await next(p.id, {}, key(stranger.apiKey))).status).toBe(404)
  })

  it("a card waits for whoever may claim it: a viewer, a read-only or write-only key and an archived project take nothing", async () => {
    const p = await newProject("Only writers")
    const waiting = await newCard(p.id, p.columns[0]!.id, "Waiting")
    const viewer = await bootstrap(base, "viewer")
    const added = await call(base, "POST", `/v1/workspaces/${A.workspaceId}/members`, {
      body: { email: viewer.email, role: "viewer" },
      headers: key(A.apiKey)
    })
    expect(added.status).toBe(201)
    const asViewer = await next(p.id, { columnId: p.columns[0]!.id }, key(viewer.apiKey))
    expect(asViewer.status).toBe(403)
    const readOnly = await call(base, "POST", "/v1/api-keys", {
      body: { name: "reads", scopes: ["read"] },
      headers: bearer(A.session)
    })
    const asReader = await next(p.id, {}, key(readOnly.body.rawKey))
    expect(asReader.status).toBe(403)
    expect(asReader.body.error).toMatch(/write/)
    // a key that may write but not read: the answer would carry the card, so it takes nothing
    const writeOnly = await call(base, "POST", "/v1/api-keys", {
      body: { name: "writes", scopes: ["write"] },
      headers: bearer(A.session)
    })
    expect(writeOnly.status).toBe(201)
    expect((await next(p.id, {}, key(writeOnly.body.rawKey))).status).toBe(204)
    expect((await next(p.id, { columnId: p.columns[0]!.id }, key(writeOnly.body.rawKey))).status).toBe(403)
    const archive = (archived: boolean) =>
      call(base, "PATCH", `/v1/projects/${p.id}`, { body: { archived }, headers: key(A.apiKey) })
    expect((await archive(true)).status).toBe(200)
    const archived = await next(p.id)
    expect(archived.status).toBe(409)
    expect(archived.body.error).toMatch(/archived/)
    expect((await archive(false)).status).toBe(200)
    // none of them took it: it is still the queue's first
    const taken = await next(p.id, { columnId: p.columns[0]!.id })
    expect(taken.status).toBe(201)
    expect(taken.body.card.id).toBe(waiting.id)
  })

  it("a released card is queued again at once, one whose lease passed once the sweep marks it stale", async () => {
    const p = await newProject("Flag")
    const column = p.columns[0]!.id
    const first = await newCard(p.id, column, "first", "urgent")
    const second = await newCard(p.id, column, "second", "low")
    const claimedFlag = async (id: string) =>
      (await server.query<{ claimed: boolean }>(`SELECT claimed FROM cards WHERE id = $1`, [id]))[0]!.claimed
    const a = await next(p.id, { columnId: column, ttlSeconds: 30 })
    expect(a.body.card.id).toBe(first.id)
    expect(await claimedFlag(first.id)).toBe(true)
    // the flag stays out of the card's REST shape
    expect(Object.keys(a.body.card)).not.toContain("claimed")
    const b = await next(p.id, { columnId: column, ttlSeconds: 600 })
    expect(b.body.card.id).toBe(second.id)
    expect((await next(p.id, { columnId: column })).status).toBe(204)
    // a release frees the card for the queue in its own transaction
    const released = await call(base, "POST", `/v1/agent-sessions/${b.body.session.id}/release`, {
      body: {},
      headers: key(A.apiKey)
    })
    expect(released.status).toBe(200)
    expect(await claimedFlag(second.id)).toBe(false)
    const again = await next(p.id, { columnId: column, ttlSeconds: 600 })
    expect(again.body.card.id).toBe(second.id)
    // the first lease passes: the queue takes the card once the sweep has marked the session stale
    clock.advance(30_000)
    let taken: { status: number; body: { card: { id: string } } } = { status: 0, body: { card: { id: "" } } }
    for (let i = 0; i < 100 && taken.status !== 201; i++) {
      taken = await next(p.id, { columnId: column })
      if (taken.status !== 201) await new Promise((r) => setTimeout(r, 100))
    }
    expect(taken.status).toBe(201)
    expect(taken.body.card.id).toBe(first.id)
    const [old] = await server.query<{ status: string }>(`SELECT status FROM agent_sessions WHERE id = $1`, [
      a.body.session.id
    ])
    expect(old!.status).toBe("stale")
    expect(await claimedFlag(first.id)).toBe(true)
  }, 60_000)

  it("100 concurrent callers on 50 cards: exactly 50 sessions, 50 answers of 204, no card claimed twice", async () => {
    const p = await newProject("Race")
    await makeTodo(p.columns[1]!.id)
    const cards: Array<string> = []
    for (let i = 0; i < 50; i++) cards.push((await newCard(p.id, p.columns[i % 2]!.id, `card ${i}`)).id)
    const replies = await Promise.all(Array.from({ length: 100 }, () => next(p.id, { ttlSeconds: 600 })))
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(50)
    expect(statuses.filter((s) => s === 204)).toHaveLength(50)
    const claimed = replies.filter((r) => r.status === 201).map((r) => r.body.card.id as string)
    expect(new Set(claimed).size).toBe(50)
    expect([...claimed].sort()).toEqual([...cards].sort())
    const rows = await server.query<{ card_id: string; n: number }>(
      `SELECT card_id, count(*)::int AS n FROM agent_sessions WHERE project_id = $1 GROUP BY card_id`,
      [p.id]
    )
    expect(rows).toHaveLength(50)
    expect(rows.every((r) => r.n === 1)).toBe(true)
  }, 120_000)
})
