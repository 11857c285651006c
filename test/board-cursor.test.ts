/**
 * Issue 28, "a live view is live": the board read carries the event cursor of its own snapshot
 * (`eventCursor`), so a client that opens the stream (or reads history) after it receives every
 * change the board does not show, and nothing it needs is skipped, also while others write.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

const NONE = "0".repeat(24)

describe.each(backends)("the board's event cursor on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account

  const board = async () => {
    const r = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: key(a.apiKey) })
    expect(r.status).toBe(200)
    return r.body
  }
  const createCard = async (title: string) => {
    const r = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title },
      headers: key(a.apiKey)
    })
    if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`)
    return r.body
  }
  /** The project's events after a cursor, through the history API, every page. */
  const eventsAfter = async (after: string) => {
    const all: Array<any> = []
    let cursor: string | null = after
    while (cursor !== null) {
      const page: any = await call(base, "GET", `/v1/projects/${a.projectId}/events?limit=500&after=${cursor}`, {
        headers: key(a.apiKey)
      })
      expect(page.status).toBe(200)
      all.push(...page.body.events)
      cursor = page.body.next
    }
    return all
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "cursor")
  }, 60_000)
  afterAll(() => server?.stop())

  it("is 24 zeros before the first event, then the newest event's id, last in the board", async () => {
    const empty = await board()
    expect(empty.eventCursor).toBe(NONE)
    // a valid cursor for the stream and history: everything comes after it
    expect(await eventsAfter(empty.eventCursor)).toEqual([])
    const card = await createCard("First")
    const after = await board()
    const [created] = await eventsAfter(NONE)
    expect(created.data.object.id).toBe(card.id)
    expect(after.eventCursor).toBe(created.id)
    expect(Object.keys(after).at(-1)).toBe("eventCursor")
    // the assignee-filtered board carries it too
    const mine = await call(base, "GET", `/v1/board/${a.projectId}?assignee=me`, { headers: key(a.apiKey) })
    expect(mine.body.eventCursor).toBe(created.id)
  })

  it("under concurrent writes: every change is in the snapshot or after its cursor, none lost", async () => {
    let writing = true
    const written: Array<string> = []
    const writers = [0, 1, 2].map(async (w) => {
      for (let i = 0; writing; i++) written.push((await createCard(`w${w}-${i}`)).id)
    })
    const snapshots: Array<{ cards: Set<string>; cursor: string }> = []
    for (let i = 0; i < 15; i++) {
      const b = await board()
      snapshots.push({ cards: new Set(b.cards.map((c: any) => c.id)), cursor: b.eventCursor })
    }
    writing = false
    await Promise.all(writers)
    const everything = (await board()).cards.map((c: any) => c.id).sort()
    for (const s of snapshots) {
      const later = await eventsAfter(s.cursor)
      // the snapshot plus the events after its cursor give the final board: no gap
      const rebuilt = new Set(s.cards)
      for (const e of later) if (e.type === "card.created") rebuilt.add(e.data.object.id)
      expect([...rebuilt].sort()).toEqual(everything)
      // and every event at or before the cursor is in the snapshot
      const before = (await eventsAfter(NONE)).filter((e) => e.id <= s.cursor && e.type === "card.created")
      for (const e of before) expect(s.cards.has(e.data.object.id)).toBe(true)
    }
    expect(written.length).toBeGreaterThan(0)
  }, 60_000)
})
