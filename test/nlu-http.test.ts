/** Issue 4: POST /v1/nlu over HTTP — the wire shape, statuses, and effects read back. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("POST /v1/nlu on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "speaker")
  })
  afterAll(() => server?.stop())

  it("creates, moves and labels cards from plain English, saying what it understood and did", async () => {
    const created = await call(base, "POST", "/v1/nlu", {
      body: { command: `create a card "Fix the login page" in In Progress with priority high labelled bug` },
      headers: key(a.apiKey)
    })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({
      command: `create a card "Fix the login page" in In Progress with priority high labelled bug`,
      intent: "create_card",
      understood: true,
      projectId: a.projectId
    })
    expect(created.body.actions.map((x: any) => x.type)).toContain("card.created")
    const card = created.body.result
    const read = await call(base, "GET", `/v1/cards/${card.id}`, { headers: key(a.apiKey) })
    expect(read.body).toMatchObject({ title: "Fix the login page", columnId: a.columns[1]!.id, priority: "high" })
    expect(read.body.labels.map((l: any) => l.name)).toEqual(["bug"])

    const moved = await call(base, "POST", "/v1/nlu", {
      body: { command: `move ${card.ref} to done`, projectId: a.projectId },
      headers: key(a.apiKey)
    })
    expect(moved.status).toBe(200)
    expect(moved.body.actions[0]).toMatchObject({ type: "card.moved", cardId: card.id, columnId: a.columns[2]!.id })
    expect((await call(base, "GET", `/v1/cards/${card.id}`, { headers: key(a.apiKey) })).body.columnId).toBe(
      a.columns[2]!.id
    )
  })

  it("answers 400 with why and a working example for what it cannot parse or resolve", async () => {
    const nonsense = await call(base, "POST", "/v1/nlu", {
      body: { command: "make me a sandwich" },
      headers: key(a.apiKey)
    })
    expect(nonsense.status).toBe(400)
    expect(nonsense.body.error).toMatch(/Try: /)
    const unknownColumn = await call(base, "POST", "/v1/nlu", {
      body: { command: `create card "x" in Nowhere` },
      headers: key(a.apiKey)
    })
    expect(unknownColumn.status).toBe(400)
    expect(unknownColumn.body.error).toMatch(/To Do/)
    for (const command of ["", "   ", "x".repeat(1001)]) {
      expect((await call(base, "POST", "/v1/nlu", { body: { command }, headers: key(a.apiKey) })).status).toBe(400)
    }
    expect((await call(base, "POST", "/v1/nlu", { body: {}, headers: key(a.apiKey) })).status).toBe(400)
    expect((await call(base, "POST", "/v1/nlu", { body: { command: "show WEB-1" } })).status).toBe(401)
  })

  it("never acts on another user's board", async () => {
    const card = (
      await call(base, "POST", "/v1/cards", {
        body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "Mine alone" },
        headers: key(a.apiKey)
      })
    ).body
    const b = await bootstrap(base, "meddler")
    const r = await call(base, "POST", "/v1/nlu", {
      body: { command: `delete ${card.ref}`, projectId: a.projectId },
      headers: key(b.apiKey)
    })
    expect(r.status).toBe(400)
    const r2 = await call(base, "POST", "/v1/nlu", {
      body: { command: `rename "Mine alone" to "Yours"` },
      headers: key(b.apiKey)
    })
    expect(r2.status).toBe(400)
    expect((await call(base, "GET", `/v1/cards/${card.id}`, { headers: key(a.apiKey) })).body.title).toBe("Mine alone")
  })
})
