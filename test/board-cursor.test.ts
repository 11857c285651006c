/**
 * Issue 28, "a live view is live": the board read carries the event cursor of its own snapshot
 * (`eventCursor`), so a client that opens the stream (or reads history) after it receives every
 * change the board does not show, and nothing it needs is skipped, also while others write.
 */
import { spawn } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { waitFor } from "./support/poll.ts"
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
    const [created] = await eventsAfter(NONE)
    expect(created.data.object.id).toBe(card.id)
    // Never ahead of the newest event, and what it leaves out comes after it. On PostgreSQL a
    // transaction open anywhere on the server (the other suites' too) holds the cursor back for
    // as long as it runs, by design: so the newest id is awaited, with a deadline.
    const first = await board()
    expect(first.eventCursor <= created.id).toBe(true)
    if (first.eventCursor !== created.id)
      expect((await eventsAfter(first.eventCursor)).map((e) => e.id)).toContain(created.id)
    const settled = async (query: string) =>
      waitFor("the board's cursor to reach the newest event", async () => {
        const r = await call(base, "GET", `/v1/board/${a.projectId}${query}`, { headers: key(a.apiKey) })
        return r.body.eventCursor === created.id ? r.body : undefined
      })
    const after = await settled("")
    expect(Object.keys(after).at(-1)).toBe("eventCursor")
    // the assignee-filtered board carries it too
    await settled("?assignee=me")
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

  it.skipIf(backend !== "postgres")(
    "a transaction of the board's database still open at the read: its event comes after the cursor, not before",
    async () => {
      // psql holds a transaction that logged an event; a change committed after it sorts after
      // it in the log but is visible first. A cursor taken as "the newest visible event" would
      // pass the open one's event, and a stream from it would never give it.
      const held = spawn("psql", [server.config.databaseUrl!, "-At", "-v", "ON_ERROR_STOP=1"], {
        stdio: ["pipe", "pipe", "inherit"]
      })
      try {
        const heldId = await new Promise<string>((resolve, reject) => {
          let out = ""
          held.stdout!.on("data", (d: Buffer) => {
            out += d.toString()
            // the RETURNING row, `tx|n`, among psql's command tags
            const row = /^(\d+)\|(\d+)$/m.exec(out)
            if (row !== null)
              resolve(BigInt(row[1]!).toString(16).padStart(12, "0") + BigInt(row[2]!).toString(16).padStart(12, "0"))
          })
          held.once("exit", (code) => reject(new Error(`psql exited with ${code}`)))
          held.stdin!.write(
            `BEGIN;\nINSERT INTO events (workspace_id, project_id, type, actor, data, created_at) VALUES ('${a.workspaceId}', '${a.projectId}', 'label.created', '{"type":"system"}', '{"object":{}}', now()) RETURNING tx, n;\n`
          )
        })
        const later = await createCard("Committed while another transaction is open")
        const b = await board()
        expect(b.cards.some((c: any) => c.id === later.id)).toBe(true)
        expect(b.eventCursor < heldId).toBe(true)
        held.stdin!.end("COMMIT;\n")
        await new Promise((resolve) => held.once("exit", resolve))
        const after = (await eventsAfter(b.eventCursor)).map((e) => e.id)
        expect(after).toContain(heldId)
        // the card's own event comes again: the page applies its whole object once more
        const created = (await eventsAfter(NONE)).find((e) => e.data.object.id === later.id)
        expect(after).toContain(created.id)
      } finally {
        held.kill()
      }
    },
    30_000
  )
})
