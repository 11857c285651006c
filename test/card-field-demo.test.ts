/**
 * Issue 29, a card field added by its schema line and its column alone: `estimate` shows in
 * every place the card's REST shape is written (a create's answer and event, a read, a move's
 * answer and event, search, the board's JSON byte for byte, a delete's event).
 */
import { Boards, type Principal } from "@board/core"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Board } from "../packages/core/src/contract.ts"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("a new card field on %s", (backend) => {
  let server: TestServer
  let a: Account
  let h: Record<string, string>

  beforeAll(async () => {
    server = await startServer(backend)
    a = await bootstrap(server.baseUrl, "estimate")
    h = key(a.apiKey)
  })
  afterAll(() => server?.stop())

  const rest = async (method: string, path: string, body?: unknown) => {
    const r = await call(server.baseUrl, method, path, { headers: h, ...(body === undefined ? {} : { body }) })
    expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300)
    return r
  }
  const eventObject = async (type: string, cardId: string) => {
    const [row] = await server.query(
      "SELECT data::text AS data FROM events WHERE type = $1 AND card_id = $2 ORDER BY tx DESC, n DESC LIMIT 1",
      [type, cardId]
    )
    return JSON.parse(row.data).object
  }

  it("is in every card answer, event and the board", async () => {
    const [todo, doing] = a.columns.map((c) => c.id) as [string, string]
    const created = (await rest("POST", "/v1/cards", { projectId: a.projectId, columnId: todo, title: "sized" })).body
    expect(created.estimate).toBeNull()
    expect((await eventObject("card.created", created.id)).estimate).toBeNull()

    await server.query("UPDATE cards SET estimate = 5 WHERE id = $1", [created.id])
    expect((await rest("GET", `/v1/cards/${created.id}`)).body.estimate).toBe(5)
    // the key sits where the schema puts it, after dueAt
    expect(Object.keys((await rest("GET", `/v1/cards/${created.id}`)).body).slice(11, 13)).toEqual([
      "dueAt",
      "estimate"
    ])

    const moved = (await rest("POST", `/v1/cards/${created.id}/move`, { columnId: doing })).body
    expect(moved.estimate).toBe(5)
    expect((await eventObject("card.moved", created.id)).estimate).toBe(5)
    const found = (await rest("GET", `/v1/search?q=sized&projectId=${a.projectId}`)).body
    expect(found.data ?? found).toEqual(expect.arrayContaining([expect.objectContaining({ estimate: 5 })]))

    // the board's JSON, byte for byte the Board schema's encoding
    const served = await rest("GET", `/v1/board/${a.projectId}`)
    const principal: Principal = { userId: a.userId, via: "apiKey", workspaces: "all" }
    const view = await server.run(
      Effect.gen(function* () {
        return yield* (yield* Boards).get(principal, a.projectId)
      })
    )
    expect(served.text).toBe(JSON.stringify(Schema.encodeSync(Board)(view as any)))
    expect(served.body.cards.find((c: any) => c.id === created.id).estimate).toBe(5)

    await rest("DELETE", `/v1/cards/${created.id}`)
    expect((await eventObject("card.deleted", created.id)).estimate).toBe(5)
  })
})
