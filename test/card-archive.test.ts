/**
 * Issue 33 part 4, archive instead of delete: POST /v1/cards/{id}/archive and /restore over real
 * HTTP on each database. The card keeps its ref and shape (`archivedAt` set, `position` 0);
 * it leaves the board, search and the queue, and `?archived=true` lists it instead; the cards
 * after it close ranks and a restore puts it at the end of its column; a claimed card's live
 * session is released; moving or claiming an archived card is a 409; both operations are
 * idempotent; `card.archived` and `card.restored` are in the project's history.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("archiving cards on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    A = await bootstrap(base, "archive")
  }, 120_000)
  afterAll(() => server?.stop())

  const h = () => key(A.apiKey)
  const newProject = async (name: string) => {
    const r = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: A.workspaceId, name, template: "kanban" },
      headers: bearer(A.session)
    })
    expect(r.status).toBe(201)
    return { id: r.body.project.id as string, columns: r.body.columns as Array<{ id: string; name: string }> }
  }
  const newCard = async (projectId: string, columnId: string, title: string) => {
    const r = await call(base, "POST", "/v1/cards", { body: { projectId, columnId, title }, headers: h() })
    expect(r.status).toBe(201)
    return r.body
  }
  const archive = (id: string) => call(base, "POST", `/v1/cards/${id}/archive`, { headers: h() })
  const restore = (id: string) => call(base, "POST", `/v1/cards/${id}/restore`, { headers: h() })
  const board = async (projectId: string, query = "") => {
    const r = await call(base, "GET", `/v1/board/${projectId}${query}`, { headers: h() })
    expect(r.status).toBe(200)
    return r.body
  }
  const places = (b: any, columnId: string) =>
    b.cards.filter((c: any) => c.columnId === columnId).map((c: any) => [c.title, c.position])

  it("archives and restores with the card's shape and events, idempotently", async () => {
    const p = await newProject("Shape")
    const card = await newCard(p.id, p.columns[0]!.id, "Keep me")
    expect(card.archivedAt).toBeNull()
    const a = await archive(card.id)
    expect(a.status).toBe(200)
    expect(a.body).toMatchObject({ id: card.id, ref: card.ref, columnId: card.columnId, position: 0, claim: null })
    expect(new Date(a.body.archivedAt).toISOString()).toBe(a.body.archivedAt)
    expect(Object.keys(a.body)).toEqual(Object.keys(card))
    // a read, by id and by ref, says so too
    const byRef = await call(base, "GET", `/v1/cards/${card.ref}`, { headers: h() })
    expect(byRef.body.archivedAt).toBe(a.body.archivedAt)
    // again: the card as it is, no second event
    const again = await archive(card.id)
    expect(again.status).toBe(200)
    expect(again.body.archivedAt).toBe(a.body.archivedAt)
    const r = await restore(card.id)
    expect(r.status).toBe(200)
    expect(r.body.archivedAt).toBeNull()
    expect(r.body.ref).toBe(card.ref)
    expect((await restore(card.id)).body.archivedAt).toBeNull()
    const events = await call(base, "GET", `/v1/projects/${p.id}/events`, { headers: h() })
    const types = events.body.events.map((e: any) => e.type)
    expect(types).toEqual(["card.created", "card.archived", "card.restored"])
    const [, archived, restored] = events.body.events
    expect(archived.data.object).toEqual(a.body)
    expect(archived.data.previous).toEqual({ archivedAt: null })
    expect(restored.data.object.archivedAt).toBeNull()
    expect(restored.data.previous).toEqual({ archivedAt: a.body.archivedAt })
    expect(archived.actor).toMatchObject({ type: "user", userId: A.userId })
    // an unknown card is a 404 with words
    const missing = await archive("00000000-0000-4000-8000-000000000000")
    expect(missing.status).toBe(404)
    expect(missing.body.error).toMatch(/not found/)
  })

  it("leaves the board and search, and ?archived=true lists it instead", async () => {
    const p = await newProject("Lists")
    const col = p.columns[0]!.id
    const kept = await newCard(p.id, col, "zebra kept")
    const gone = await newCard(p.id, col, "zebra gone")
    expect((await archive(gone.id)).status).toBe(200)
    const live = await board(p.id)
    expect(live.cards.map((c: any) => c.id)).toEqual([kept.id])
    const archivedBoard = await board(p.id, "?archived=true")
    expect(archivedBoard.cards.map((c: any) => c.id)).toEqual([gone.id])
    expect(archivedBoard.cards[0].archivedAt).not.toBeNull()
    expect(archivedBoard.columns).toEqual(live.columns)
    const search = (q: string) => call(base, "GET", `/v1/search?q=${q}&projectId=${p.id}`, { headers: h() })
    expect((await search("zebra")).body.map((c: any) => c.id)).toEqual([kept.id])
    expect((await search("zebra&archived=true")).body.map((c: any) => c.id)).toEqual([gone.id])
    expect((await search("zebra&archived=false")).body.map((c: any) => c.id)).toEqual([kept.id])
    const bad = await call(base, "GET", `/v1/board/${p.id}?archived=yes`, { headers: h() })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/true or false/)
    // with the assignee filter too
    for (const c of [kept, gone]) {
      const r = await call(base, "PATCH", `/v1/cards/${c.id}`, { body: { assigneeIds: [A.userId] }, headers: h() })
      expect(r.status).toBe(200)
    }
    expect((await board(p.id, "?assignee=me")).cards.map((c: any) => [c.id, c.position])).toEqual([[kept.id, 0]])
    expect((await board(p.id, "?assignee=me&archived=true")).cards.map((c: any) => [c.id, c.position])).toEqual([
      [gone.id, 0]
    ])
  })

  it("closes ranks on archive, restores at the end of the column, and keeps refs unique", async () => {
    const p = await newProject("Order")
    const col = p.columns[0]!.id
    const [a, b, c] = [await newCard(p.id, col, "a"), await newCard(p.id, col, "b"), await newCard(p.id, col, "c")]
    await archive(a.id)
    expect(places(await board(p.id), col)).toEqual([
      ["b", 0],
      ["c", 1]
    ])
    // the column's reads agree: a card read alone says its place among the live cards
    expect((await call(base, "GET", `/v1/cards/${c.id}`, { headers: h() })).body.position).toBe(1)
    // new cards and moves draw keys among the live cards only
    const d = await newCard(p.id, col, "d")
    expect(d.position).toBe(2)
    const top = await call(base, "POST", `/v1/cards/${d.id}/move`, {
      body: { columnId: col, position: 0 },
      headers: h()
    })
    expect(top.body.position).toBe(0)
    const restored = await restore(a.id)
    expect(restored.body.position).toBe(3)
    expect(places(await board(p.id), col)).toEqual([
      ["d", 0],
      ["b", 1],
      ["c", 2],
      ["a", 3]
    ])
    expect(b.ref).not.toBe(a.ref)
    const e = await newCard(p.id, col, "e")
    expect(new Set([a.ref, b.ref, c.ref, d.ref, e.ref]).size).toBe(5)
    expect(e.position).toBe(4)
  })

  it("restores racing creates and archives in one column still leave positions 0..n-1 and unique keys", async () => {
    const p = await newProject("Race")
    const col = p.columns[0]!.id
    const cards = []
    for (let i = 0; i < 12; i++) cards.push(await newCard(p.id, col, `r${i}`))
    for (const c of cards.slice(0, 6)) await archive(c.id)
    const answers = await Promise.all([
      ...cards.slice(0, 6).map((c) => restore(c.id)),
      ...cards.slice(6, 9).map((c) => archive(c.id)),
      ...Array.from({ length: 6 }, (_, i) =>
        call(base, "POST", "/v1/cards", { body: { projectId: p.id, columnId: col, title: `new${i}` }, headers: h() })
      )
    ])
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(9).fill(200), ...Array(6).fill(201)])
    const live = (await board(p.id)).cards
    expect(live.length).toBe(12 - 3 + 6)
    expect(live.map((c: any) => c.position)).toEqual(live.map((_: unknown, i: number) => i))
    // every card read alone agrees with the board
    for (const c of live) {
      const one = await call(base, "GET", `/v1/cards/${c.id}`, { headers: h() })
      expect(one.body.position).toBe(c.position)
    }
    expect((await board(p.id, "?archived=true")).cards.length).toBe(3)
  })

  it("refuses to move or claim an archived card until it is restored", async () => {
    const p = await newProject("Refusals")
    const card = await newCard(p.id, p.columns[0]!.id, "frozen")
    await archive(card.id)
    const move = await call(base, "POST", `/v1/cards/${card.id}/move`, {
      body: { columnId: p.columns[1]!.id },
      headers: h()
    })
    expect(move.status).toBe(409)
    expect(move.body.error).toBe(
      `card ${card.ref} is archived; restore it (POST /v1/cards/${card.id}/restore) before moving it`
    )
    const claim = await call(base, "POST", `/v1/cards/${card.id}/claim`, { body: {}, headers: h() })
    expect(claim.status).toBe(409)
    expect(claim.body.error).toMatch(/is archived; restore it/)
    // editing the fields stays allowed: archiving hides a card, it does not freeze it
    const patch = await call(base, "PATCH", `/v1/cards/${card.id}`, { body: { title: "still here" }, headers: h() })
    expect(patch.status).toBe(200)
    expect(patch.body.archivedAt).not.toBeNull()
    // and a column holding archived cards is not deleted out from under them
    const del = await call(base, "DELETE", `/v1/columns/${p.columns[0]!.id}`, { headers: h() })
    expect(del.status).toBe(409)
    expect(del.body.error).toMatch(/1 archived/)
  })

  it("keeps archived cards out of the queue and releases a claimed card's session", async () => {
    const p = await newProject("Queue")
    const col = p.columns[0]!.id
    const first = await newCard(p.id, col, "first")
    const second = await newCard(p.id, col, "second")
    await archive(first.id)
    const next = await call(base, "POST", `/v1/projects/${p.id}/claim-next`, { body: {}, headers: h() })
    expect(next.status).toBe(201)
    expect(next.body.card.id).toBe(second.id)
    const session = next.body.session.id as string
    const archived = await archive(second.id)
    expect(archived.body.claim).toBeNull()
    const s = await call(base, "GET", `/v1/agent-sessions/${session}`, { headers: h() })
    expect(s.body.status).toBe("released")
    // the released session's heartbeat is refused: the agent stops
    const beat = await call(base, "POST", `/v1/agent-sessions/${session}/heartbeat`, { body: {}, headers: h() })
    expect(beat.status).toBe(409)
    const none = await call(base, "POST", `/v1/projects/${p.id}/claim-next`, { body: {}, headers: h() })
    expect(none.status).toBe(204)
    // restored, it is work again
    await restore(first.id)
    const again = await call(base, "POST", `/v1/projects/${p.id}/claim-next`, { body: {}, headers: h() })
    expect(again.body.card.id).toBe(first.id)
    const events = await call(base, "GET", `/v1/projects/${p.id}/events?types=agent_session.updated,card.archived`, {
      headers: h()
    })
    const tail = events.body.events.map((e: any) => [e.type, e.data.object.status ?? e.data.object.ref])
    expect(tail).toEqual([
      ["card.archived", first.ref],
      ["agent_session.updated", "released"],
      ["card.archived", second.ref]
    ])
  })

  it("archives and restores by a natural-language command; delete stays delete", async () => {
    const p = await newProject("Words")
    const card = await newCard(p.id, p.columns[0]!.id, "words")
    const nlu = (command: string) => call(base, "POST", "/v1/nlu", { body: { command, projectId: p.id }, headers: h() })
    const a = await nlu(`archive ${card.ref}`)
    expect(a.status).toBe(200)
    expect(a.body.intent).toBe("archive_card")
    expect(a.body.actions).toEqual([{ type: "card.archived", cardId: card.id, ref: card.ref }])
    expect(a.body.result.archivedAt).not.toBeNull()
    const r = await nlu(`restore ${card.ref}`)
    expect(r.body.intent).toBe("restore_card")
    expect(r.body.result.archivedAt).toBeNull()
    const d = await nlu(`delete ${card.ref}`)
    expect(d.body.intent).toBe("delete_card")
  })
})
