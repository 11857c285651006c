/**
 * Issue 16, item 5: GET /v1/cards/{id} takes a card's ref (WEB-12) as well as its id, over real
 * HTTP on each database: by ref it answers what the id answers, among the projects the caller
 * can see, and a ref that several of the caller's projects hold is a 400 naming them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("a card by ref on %s", (backend) => {
  let server: TestServer
  let base: string

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
  })
  afterAll(() => server?.stop())

  const newCard = async (account: Account, title: string, projectId = account.projectId) => {
    const board = await call(base, "GET", `/v1/board/${projectId}`, { headers: key(account.apiKey) })
    const r = await call(base, "POST", "/v1/cards", {
      body: { projectId, columnId: board.body.columns[0].id, title },
      headers: key(account.apiKey)
    })
    expect(r.status).toBe(201)
    return r.body
  }
  const get = (idOrRef: string, headers: Record<string, string>) =>
    call(base, "GET", `/v1/cards/${idOrRef}`, { headers })

  it("answers by ref, in any case, exactly what it answers by id", async () => {
    const a = await bootstrap(base, "reffer")
    await newCard(a, "First")
    const card = await newCard(a, "By ref")
    expect(card.ref).toMatch(/^WEB-2$/)
    const byId = await get(card.id, key(a.apiKey))
    expect(byId.status).toBe(200)
    expect(byId.body).toEqual(card)
    for (const ref of [card.ref, card.ref.toLowerCase(), "Web-2"]) {
      const byRef = await get(ref, key(a.apiKey))
      expect(byRef.status, ref).toBe(200)
      expect(byRef.text, ref).toBe(byId.text)
      expect(byRef.headers.get("content-type")).toBe(byId.headers.get("content-type"))
    }
  })

  it("an unknown ref is 404 with an {error} body", async () => {
    const a = await bootstrap(base, "unknown")
    await newCard(a, "Only card")
    for (const ref of ["WEB-99999", "NOPE-1", "WEB-99999999999999"]) {
      const r = await get(ref, key(a.apiKey))
      expect(r.status, ref).toBe(404)
      expect(r.body, ref).toEqual({ error: expect.stringContaining("not found") })
    }
    // neither an id nor a ref: malformed, as before
    for (const bad of ["not_a_ref", "WEB-", "-12", "WEB-1x"]) {
      const r = await get(bad, key(a.apiKey))
      expect(r.status, bad).toBe(400)
      expect(r.body, bad).toEqual({ error: expect.any(String) })
    }
  })

  it("a ref of a card in a workspace the caller is not a member of is 404, as its id is", async () => {
    const owner = await bootstrap(base, "owner", "Mobile")
    const stranger = await bootstrap(base, "stranger")
    const card = await newCard(owner, "Private")
    expect((await get(card.ref, key(owner.apiKey))).status).toBe(200)
    const byId = await get(card.id, key(stranger.apiKey))
    const byRef = await get(card.ref, key(stranger.apiKey))
    expect(byId.status).toBe(404)
    expect(byRef.status).toBe(404)
    expect(byRef.body).toEqual({ error: expect.any(String) })
    expect(byRef.text).not.toContain("Private")
    // the stranger's own card of the same number stays theirs
    const own = await newCard(stranger, "Mine")
    const mine = await get(own.ref, key(stranger.apiKey))
    expect(mine.body.id).toBe(own.id)
  })

  it("an OAuth grant that does not cover the card's workspace answers by ref what it answers by id", async () => {
    const a = await bootstrap(base, "granted")
    const card = await newCard(a, "Outside the grant")
    const elsewhere = await call(base, "POST", "/v1/workspaces", {
      body: { name: "Elsewhere" },
      headers: bearer(a.session)
    })
    expect(elsewhere.status).toBe(201)
    const narrow = (await fullFlow(base, a, [elsewhere.body.workspace.id])).tokens.access_token
    const byId = await get(card.id, bearer(narrow))
    const byRef = await get(card.ref, bearer(narrow))
    expect(byId.status).toBe(403)
    expect(byRef.status).toBe(byId.status)
    expect(byRef.body).toEqual(byId.body)
    // a grant that covers it reaches the card by ref as by id
    const wide = (await fullFlow(base, a, [a.workspaceId])).tokens.access_token
    const covered = await get(card.ref, bearer(wide))
    expect(covered.status).toBe(200)
    expect(covered.text).toBe((await get(card.id, bearer(wide))).text)
  })

  it("a ref held by several of the caller's projects is 400 naming them; each id still answers", async () => {
    const a = await bootstrap(base, "twice")
    const shop = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: a.workspaceId, name: "Webshop", template: "kanban" },
      headers: bearer(a.session)
    })
    expect(shop.status).toBe(201)
    const site = await newCard(a, "Site card")
    const other = await newCard(a, "Shop card", shop.body.project.id)
    expect(other.ref).toBe(site.ref)
    const r = await get(site.ref.toLowerCase(), key(a.apiKey))
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ error: expect.any(String) })
    for (const part of ["ambiguous", '"Website"', '"Webshop"', a.projectId, shop.body.project.id, "card id"]) {
      expect(r.body.error).toContain(part)
    }
    expect((await get(site.id, key(a.apiKey))).body).toEqual(site)
    expect((await get(other.id, key(a.apiKey))).body).toEqual(other)
  })

  it("the OpenAPI document describes the parameter as an id or a ref", async () => {
    const doc = await call(base, "GET", "/v1/openapi.json")
    const op = doc.body.paths["/v1/cards/{id}"].get
    const param = op.parameters.find((p: any) => p.name === "id")
    expect(param.description).toBe("card id (UUID) or ref such as WEB-12")
    expect(param.schema.description).toBe("card id (UUID) or ref such as WEB-12")
    expect(new RegExp(param.schema.pattern, "u").test("WEB-12")).toBe(true)
    // the other card routes still take the id only
    const patch = doc.body.paths["/v1/cards/{id}"].patch.parameters.find((p: any) => p.name === "id")
    expect(new RegExp(patch.schema.pattern, "u").test("WEB-12")).toBe(false)
  })
})
