/** Issue 5: the blind intake channel and its tokens, over real HTTP on each database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("intake on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  let h: Record<string, string>

  const mint = async (columnId = a.columns[0]!.id, extra: Record<string, unknown> = {}) => {
    const r = await call(base, "POST", "/v1/intake-tokens", {
      body: { columnId, name: "support form", ...extra },
      headers: h
    })
    expect(r.status).toBe(201)
    return r.body as { id: string; token: string; columnId: string }
  }
  const file = (token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    call(base, "POST", "/v1/intake", {
      body,
      headers: { ...(token === undefined ? {} : { "x-intake-key": token }), ...headers }
    })
  const cardsIn = (columnId: string) =>
    server.query<{ title: string; position: number; source: string; intake_token_id: string | null }>(
      `SELECT title, (row_number() OVER (ORDER BY sort_key, id) - 1)::int AS position, source, intake_token_id FROM cards WHERE column_id = $1 ORDER BY sort_key, id`,
      [columnId]
    )
  const newColumn = async (name: string) =>
    (await call(base, "POST", "/v1/columns", { body: { projectId: a.projectId, name }, headers: h })).body.id as string

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "intaker")
    h = key(a.apiKey)
  })
  afterAll(() => server?.stop())

  describe("tokens", () => {
    it("mints a svc_in_ token shown once, lists without it, stores only a digest", async () => {
      const col = await newColumn("Inbox tokens")
      const t = await mint(col, { expiresAt: "2099-01-01T00:00:00Z" })
      expect(t).toMatchObject({
        columnId: col,
        projectId: a.projectId,
        name: "support form",
        expiresAt: "2099-01-01T00:00:00.000Z",
        revokedAt: null
      })
      expect(t.token).toMatch(/^svc_in_[0-9A-Za-z]{36}$/)
      const list = await call(base, "GET", `/v1/projects/${a.projectId}/intake-tokens`, { headers: h })
      expect(list.status).toBe(200)
      expect(list.body.find((x: any) => x.id === t.id)).toMatchObject({ id: t.id, columnId: col })
      expect(list.text).not.toContain("svc_in_")
      const stored = await server.query(`SELECT * FROM intake_tokens WHERE id = $1`, [t.id])
      expect(JSON.stringify(stored)).not.toContain(t.token)
      expect(server.logLines.join("\n")).not.toContain(t.token)
    })

    it("a session can mint; bad input is 400; another user's column is 404", async () => {
      const viaSession = await call(base, "POST", "/v1/intake-tokens", {
        body: { columnId: a.columns[0]!.id },
        headers: bearer(a.session)
      })
      expect(viaSession.status).toBe(201)
      expect(
        (
          await call(base, "POST", "/v1/intake-tokens", {
            body: { columnId: a.columns[0]!.id, expiresAt: "tomorrow" },
            headers: h
          })
        ).status
      ).toBe(400)
      expect(
        (
          await call(base, "POST", "/v1/intake-tokens", {
            body: { columnId: a.columns[0]!.id, expiresAt: "2001-01-01T00:00:00Z" },
            headers: h
          })
        ).status
      ).toBe(400)
      const b = await bootstrap(base, "other-intaker")
      expect(
        (
          await call(base, "POST", "/v1/intake-tokens", {
            body: { columnId: a.columns[0]!.id },
            headers: key(b.apiKey)
          })
        ).status
      ).toBe(404)
      expect(
        (await call(base, "GET", `/v1/projects/${a.projectId}/intake-tokens`, { headers: key(b.apiKey) })).status
      ).toBe(404)
      const t = await mint()
      expect((await call(base, "DELETE", `/v1/intake-tokens/${t.id}`, { headers: key(b.apiKey) })).status).toBe(404)
      expect((await file(t.token, { title: "still works" })).status).toBe(201)
    })
  })

  describe("filing", () => {
    it('answers exactly {"ok":true} with 201, no Location, and files at the end of the token\'s column', async () => {
      const col = await newColumn("Inbox")
      await call(base, "POST", "/v1/cards", {
        body: { projectId: a.projectId, columnId: col, title: "already here" },
        headers: h
      })
      const t = await mint(col)
      const r = await file(t.token, { title: "Printer on fire", description: "3rd floor" })
      expect(r.status).toBe(201)
      expect(r.text).toBe(`{"ok":true}`)
      expect(r.headers.get("location")).toBeNull()
      expect(await cardsIn(col)).toEqual([
        { title: "already here", position: 0, source: "api", intake_token_id: null },
        { title: "Printer on fire", position: 1, source: "intake", intake_token_id: t.id }
      ])
      const board = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: h })
      expect(board.body.cards.find((c: any) => c.title === "Printer on fire")).toMatchObject({
        source: "intake",
        intakeTokenId: t.id,
        description: "3rd floor"
      })
    })

    it.each([
      ["missing title", { description: "x" }],
      ["blank title", { title: "  " }],
      ["title of 501", { title: "t".repeat(501) }],
      ["description of 10001", { title: "ok", description: "d".repeat(10_001) }],
      ["title not a string", { title: 7 }],
      ["an array", ["title"]]
    ])("%s answers 400 {error}", async (_label, body) => {
      const t = await mint()
      const r = await file(t.token, body)
      expect(r.status).toBe(400)
      expect(typeof r.body.error).toBe("string")
    })

    it("malformed JSON is 400, but a bad token with a bad body is 401 (authenticate first)", async () => {
      const t = await mint()
      const malformed = await call(base, "POST", "/v1/intake", {
        raw: "{",
        headers: { "x-intake-key": t.token, "content-type": "application/json" }
      })
      expect(malformed.status).toBe(400)
      const both = await call(base, "POST", "/v1/intake", {
        raw: "{",
        headers: { "x-intake-key": "svc_in_nope", "content-type": "application/json" }
      })
      expect(both.status).toBe(401)
    })

    it("accepts the limits and refuses an Idempotency-Key that is empty or over 200", async () => {
      const t = await mint()
      expect((await file(t.token, { title: "t".repeat(500), description: "d".repeat(10_000) })).status).toBe(201)
      expect((await file(t.token, { title: "k" }, { "idempotency-key": "k".repeat(200) })).status).toBe(201)
      expect((await file(t.token, { title: "k" }, { "idempotency-key": "k".repeat(201) })).status).toBe(400)
      expect((await file(t.token, { title: "k" }, { "idempotency-key": "" })).status).toBe(400)
      // characters, not bytes: 200 UTF-8 "é" (400 bytes on the wire) are within the limit
      const utf8Header = (text: string) => Buffer.from(text, "utf8").toString("latin1")
      expect((await file(t.token, { title: "k" }, { "idempotency-key": utf8Header("é".repeat(200)) })).status).toBe(201)
      expect((await file(t.token, { title: "k" }, { "idempotency-key": utf8Header("é".repeat(201)) })).status).toBe(400)
      expect((await file(t.token, { title: "k" }, { "idempotency-key": utf8Header("🦄".repeat(200)) })).status).toBe(
        201
      )
      // and keys differing only in their bytes stay distinct
      const before = (await server.query("SELECT count(*)::int AS n FROM cards"))[0].n
      expect((await file(t.token, { title: "k" }, { "idempotency-key": "\u00c3" })).status).toBe(201)
      expect((await file(t.token, { title: "k" }, { "idempotency-key": utf8Header("\u00c3") })).status).toBe(201)
      expect((await server.query("SELECT count(*)::int AS n FROM cards"))[0].n).toBe(before + 2)
    })
  })

  describe("the six unusable tokens", () => {
    it("answer one identical 401: status, headers apart from Date, and body bytes", async () => {
      const revoked = await mint()
      expect((await call(base, "DELETE", `/v1/intake-tokens/${revoked.id}`, { headers: h })).status).toBe(204)
      const expired = await mint()
      await server.query(`UPDATE intake_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        expired.id
      ])
      const deletedCol = await newColumn("Doomed inbox")
      const deleted = await mint(deletedCol)
      expect((await call(base, "DELETE", `/v1/columns/${deletedCol}`, { headers: h })).status).toBe(204)
      const movedCol = await newColumn("Wandering inbox")
      const moved = await mint(movedCol)
      const other = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: a.workspaceId, name: "Elsewhere" },
        headers: h
      })
      await server.query(`UPDATE board_columns SET project_id = $1, position = 0 WHERE id = $2`, [
        other.body.project.id,
        movedCol
      ])
      const unknown = `svc_in_${"A".repeat(30)}000000`
      const cases = [unknown, "garbage", revoked.token, expired.token, deleted.token, moved.token, undefined]
      const replies = await Promise.all(cases.map((t) => file(t, { title: "should not land" })))
      const shape = (r: { status: number; headers: Headers; text: string }) => ({
        status: r.status,
        headers: [...r.headers.entries()].filter(([k]) => k !== "date" && k !== "x-request-id"),
        body: r.text
      })
      expect(replies[0]!.status).toBe(401)
      for (const r of replies) expect(shape(r)).toEqual(shape(replies[0]!))
      expect(await server.query(`SELECT 1 FROM cards WHERE title = 'should not land'`)).toHaveLength(0)
    })

    it("an intake token is refused on every other endpoint, in any header", async () => {
      const t = await mint()
      const everyHeader: Array<Record<string, string>> = [
        { "x-intake-key": t.token },
        { "x-api-key": t.token },
        bearer(t.token)
      ]
      for (const headers of everyHeader) {
        for (const [method, path] of [
          ["GET", "/v1/workspaces"],
          ["GET", `/v1/board/${a.projectId}`],
          ["POST", "/v1/api-keys"],
          ["POST", "/v1/intake-tokens"]
        ] as const) {
          const r = await call(base, method, path, {
            headers,
            body: method === "POST" ? { name: "x", columnId: a.columns[0]!.id } : undefined
          })
          expect(r.status).toBe(401)
        }
      }
    })
  })

  describe("idempotency", () => {
    it("the same key files one card and answers the same 201; a different body with it files nothing new", async () => {
      const col = await newColumn("Idem")
      const t = await mint(col)
      const first = await file(t.token, { title: "once" }, { "idempotency-key": "order-1" })
      const again = await file(t.token, { title: "once" }, { "idempotency-key": "order-1" })
      const changed = await file(t.token, { title: "different" }, { "idempotency-key": "order-1" })
      expect([first.status, again.status, changed.status]).toEqual([201, 201, 201])
      expect(again.text).toBe(first.text)
      expect((await cardsIn(col)).map((c) => c.title)).toEqual(["once"])
    })

    it("validation failures are not recorded; without the header every call files", async () => {
      const col = await newColumn("Idem 2")
      const t = await mint(col)
      expect((await file(t.token, { title: "" }, { "idempotency-key": "fix-me" })).status).toBe(400)
      expect((await file(t.token, { title: "fixed" }, { "idempotency-key": "fix-me" })).status).toBe(201)
      await file(t.token, { title: "plain" })
      await file(t.token, { title: "plain" })
      expect((await cardsIn(col)).map((c) => c.title)).toEqual(["fixed", "plain", "plain"])
    })

    it("keys are per token: the same key on two tokens files two cards", async () => {
      const col = await newColumn("Idem 3")
      const [t1, t2] = [await mint(col), await mint(col)]
      await file(t1.token, { title: "from one" }, { "idempotency-key": "shared" })
      await file(t2.token, { title: "from two" }, { "idempotency-key": "shared" })
      expect(await cardsIn(col)).toHaveLength(2)
    })

    it("20 parallel requests with one key file one card and all answer 201", async () => {
      const col = await newColumn("Idem race")
      const t = await mint(col)
      const replies = await Promise.all(
        Array.from({ length: 20 }, () => file(t.token, { title: "raced" }, { "idempotency-key": "burst" }))
      )
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201))
      expect(await cardsIn(col)).toHaveLength(1)
      const claims = await server.query(`SELECT card_id FROM intake_claims WHERE token_id = $1`, [t.id])
      expect(claims).toHaveLength(1)
      expect(claims[0].card_id).not.toBeNull()
    })

    it("a revoked token with a previously used key answers 401", async () => {
      const t = await mint()
      expect((await file(t.token, { title: "x" }, { "idempotency-key": "late" })).status).toBe(201)
      await call(base, "DELETE", `/v1/intake-tokens/${t.id}`, { headers: h })
      expect((await file(t.token, { title: "x" }, { "idempotency-key": "late" })).status).toBe(401)
    })
  })
})
