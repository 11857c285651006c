/** Temporary: the one-statement card writes log their events with the card in its REST shape. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("card events on %s", (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer(backend)
  })
  afterAll(() => server?.stop())

  it("create, move, delete", async () => {
    const base = server.baseUrl
    const a = await bootstrap(base, "ev")
    const board = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: key(a.apiKey) })
    const c = await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: board.body.columns[0].id, title: "E <1>" },
      headers: key(a.apiKey)
    })
    expect(c.status).toBe(201)
    const m = await call(base, "POST", `/v1/cards/${c.body.id}/move`, {
      body: { columnId: board.body.columns[1].id },
      headers: key(a.apiKey)
    })
    expect(m.status).toBe(200)
    const d = await call(base, "DELETE", `/v1/cards/${c.body.id}`, { headers: key(a.apiKey) })
    expect(d.status).toBe(204)
    const rows = await server.query(`SELECT type, actor, data, tx::text AS tx, n::text AS n FROM events ORDER BY tx, n`)
    console.log(JSON.stringify(rows, null, 1))
    expect(rows.map((r) => r.type)).toEqual(["card.created", "card.moved", "card.deleted"])
    const data = (r: any) => (typeof r.data === "string" ? JSON.parse(r.data) : r.data)
    expect(data(rows[0]).object).toEqual(c.body)
    expect(data(rows[1]).object).toEqual(m.body)
    expect(data(rows[1]).previous).toEqual({ columnId: board.body.columns[0].id, position: 0 })
    expect(data(rows[2]).object).toEqual(m.body)
  })
})
