/** Issue 18, history: a project's and a card's events through the API, paged, filtered, access-checked. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { spawn } from "node:child_process"
import { dialectBackends as backends, postgresUrl } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("event history on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  let cards: Array<{ id: string; ref: string }>
  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "hist")
    cards = []
    for (let i = 0; i < 5; i++) {
      const c = await call(base, "POST", "/v1/cards", {
        body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: `Card ${i}` },
        headers: key(a.apiKey)
      })
      expect(c.status).toBe(201)
      cards.push(c.body)
    }
    const moved = await call(base, "POST", `/v1/cards/${cards[0]!.id}/move`, {
      body: { columnId: a.columns[1]!.id },
      headers: key(a.apiKey)
    })
    expect(moved.status).toBe(200)
  }, 60_000)
  afterAll(() => server?.stop())

  const events = (query = "", headers: Record<string, string> = key(a.apiKey)) =>
    call(base, "GET", `/v1/projects/${a.projectId}/events${query}`, { headers })

  it("lists a project's events oldest first, with the actor and the object", async () => {
    const all = await events()
    expect(all.status).toBe(200)
    expect(all.body.next).toBeNull()
    expect(all.body.events.map((e: any) => e.type)).toEqual([...Array(5).fill("card.created"), "card.moved"])
    const ids = all.body.events.map((e: any) => e.id)
    expect([...ids].sort()).toEqual(ids)
    const first = all.body.events[0]
    expect(first).toMatchObject({
      projectId: a.projectId,
      workspaceId: a.workspaceId,
      actor: { type: "user", userId: a.userId, name: "hist" },
      data: { object: { id: cards[0]!.id, title: "Card 0" } }
    })
    expect(all.body.events[5].data.previous).toEqual({ columnId: a.columns[0]!.id, position: 0 })
  })

  // On the embedded database only: a fresh one starts near transaction 1,000, so crossing the next
  // power of ten is cheap; PostgreSQL's transaction ids are the whole cluster's and already large.
  // The statements are the same on both.
  it.skipIf(backend === "postgres")(
    "keeps log order when transaction ids cross a power of ten (they are compared as numbers, not text)",
    async () => {
      const b = await bootstrap(base, "digits")
      const create = async (title: string) => {
        const c = await call(base, "POST", "/v1/cards", {
          body: { projectId: b.projectId, columnId: b.columns[0]!.id, title },
          headers: key(b.apiKey)
        })
        expect(c.status).toBe(201)
      }
      await create("Before")
      // burn transaction ids up to the next power of ten: each subtransaction that writes takes one
      const [{ xid }] = await server.query<{ xid: string }>("SELECT pg_current_xact_id()::text AS xid")
      const next = 10 ** xid.length
      await server.query(`CREATE TEMP TABLE burn (x int)`)
      await server.query(
        `DO $$ BEGIN FOR i IN 1..${next - Number(xid) + 1} LOOP
         BEGIN INSERT INTO burn VALUES (i); EXCEPTION WHEN others THEN NULL; END;
       END LOOP; END $$`
      )
      await server.query(`DROP TABLE burn`)
      await create("After")
      const r = await call(base, "GET", `/v1/projects/${b.projectId}/events`, { headers: key(b.apiKey) })
      expect(r.body.events.map((e: any) => e.data.object.title)).toEqual(["Before", "After"])
      const ids = r.body.events.map((e: any) => e.id)
      expect([...ids].sort()).toEqual(ids)
      // and a cursor at the first still finds the second
      const after = await call(base, "GET", `/v1/projects/${b.projectId}/events?after=${ids[0]}`, {
        headers: key(b.apiKey)
      })
      expect(after.body.events.map((e: any) => e.data.object.title)).toEqual(["After"])
    },
    60_000
  )

  // Transaction ids are the PostgreSQL server's: a long transaction of another database must not
  // hold this board's history back (it did, while the test suite seeded a benchmark elsewhere).
  it.skipIf(backend !== "postgres")(
    "is not held back by a long transaction in another database",
    async () => {
      const other = spawn(
        "psql",
        // one command each, so the id is printed while the transaction is still open
        [postgresUrl!, "-At", "-c", "BEGIN", "-c", "SELECT pg_current_xact_id()", "-c", "SELECT pg_sleep(10)"],
        { stdio: ["ignore", "pipe", "inherit"] }
      )
      const b = await bootstrap(base, "beside")
      try {
        // its transaction has its id once the first statement printed it
        await new Promise<void>((resolve, reject) => {
          other.stdout!.once("data", () => resolve())
          other.once("exit", (code) => reject(new Error(`psql exited with ${code}`)))
        })
        const c = await call(base, "POST", "/v1/cards", {
          body: { projectId: b.projectId, columnId: b.columns[0]!.id, title: "Beside a long transaction" },
          headers: key(b.apiKey)
        })
        expect(c.status).toBe(201)
        const all = (await call(base, "GET", `/v1/projects/${b.projectId}/events`, { headers: key(b.apiKey) })).body
          .events
        expect(all.at(-1)?.data.object.id).toBe(c.body.id)
      } finally {
        other.kill()
      }
    },
    60_000
  )

  it("pages with limit and next, with no gap and no duplicate", async () => {
    const all = (await events()).body.events.map((e: any) => e.id)
    const seen: Array<string> = []
    let after: string | null = null
    let pages = 0
    do {
      const page: any = await events(`?limit=2${after === null ? "" : `&after=${after}`}`)
      expect(page.status).toBe(200)
      expect(page.body.events.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.events.map((e: any) => e.id))
      after = page.body.next
      pages++
    } while (after !== null)
    expect(seen).toEqual(all)
    expect(pages).toBe(3)
    // after the last id: nothing, and no next
    const end = await events(`?after=${all[all.length - 1]}`)
    expect(end.body).toEqual({ events: [], next: null })
  })

  it("filters by types", async () => {
    const moved = await events("?types=card.moved")
    expect(moved.body.events.map((e: any) => e.type)).toEqual(["card.moved"])
    const both = await events("?types=card.moved,card.created&limit=500")
    expect(both.body.events).toHaveLength(6)
    const none = await events("?types=card.deleted")
    expect(none.body).toEqual({ events: [], next: null })
  })

  it("refuses bad parameters with 400 and a message naming them", async () => {
    const unknown = await events("?types=card.moved,card.exploded")
    expect(unknown.status).toBe(400)
    expect(unknown.body.error).toContain("card.exploded")
    for (const q of ["?limit=0", "?limit=501", "?limit=ten", "?after=nope", "?after=0000000000000000000000zz"]) {
      const r = await events(q)
      expect(r.status, q).toBe(400)
      expect(typeof r.body.error, q).toBe("string")
    }
    expect((await events("?limit=500")).status).toBe(200)
  })

  it("hides another user's project (404) and a workspace outside an OAuth grant (403)", async () => {
    const b = await bootstrap(base, "other")
    expect((await events("", key(b.apiKey))).status).toBe(404)
    expect((await call(base, "GET", `/v1/cards/${cards[0]!.id}/history`, { headers: key(b.apiKey) })).status).toBe(404)
    expect(
      (await call(base, "GET", `/v1/projects/${a.projectId}/events/stream`, { headers: key(b.apiKey) })).status
    ).toBe(404)
    // a second workspace of a's, outside the grant
    const ws2 = await call(base, "POST", "/v1/workspaces", { body: { name: "granted" }, headers: bearer(a.session) })
    const { tokens } = await fullFlow(base, a, [ws2.body.workspace.id])
    const denied = await events("", bearer(tokens.access_token))
    expect(denied.status).toBe(403)
    expect(typeof denied.body.error).toBe("string")
    expect(
      (await call(base, "GET", `/v1/cards/${cards[0]!.ref}/history`, { headers: bearer(tokens.access_token) })).status
    ).toBe(403)
    expect(
      (await call(base, "GET", `/v1/projects/${a.projectId}/events/stream`, { headers: bearer(tokens.access_token) }))
        .status
    ).toBe(403)
    // with a's own key the same project answers
    expect((await events()).status).toBe(200)
  })

  it("gives a card's history by id and by ref", async () => {
    const byId = await call(base, "GET", `/v1/cards/${cards[0]!.id}/history`, { headers: key(a.apiKey) })
    expect(byId.status).toBe(200)
    expect(byId.body.events.map((e: any) => e.type)).toEqual(["card.created", "card.moved"])
    expect(byId.body.events.every((e: any) => e.data.object.id === cards[0]!.id)).toBe(true)
    const byRef = await call(base, "GET", `/v1/cards/${cards[0]!.ref.toLowerCase()}/history`, {
      headers: key(a.apiKey)
    })
    expect(byRef.status).toBe(200)
    expect(byRef.body).toEqual(byId.body)
    const paged = await call(base, "GET", `/v1/cards/${cards[0]!.id}/history?limit=1`, { headers: key(a.apiKey) })
    expect(paged.body.events).toHaveLength(1)
    expect(paged.body.next).toBe(byId.body.events[0].id)
    expect((await call(base, "GET", `/v1/cards/NOPE-999/history`, { headers: key(a.apiKey) })).status).toBe(404)
    expect(
      (await call(base, "GET", `/v1/cards/${cards[1]!.id}/history?limit=0`, { headers: key(a.apiKey) })).status
    ).toBe(400)
  })
})
