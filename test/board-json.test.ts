/**
 * "Lean requests", part 2: GET /v1/board/{projectId} answers the same bytes whatever builds them.
 * The reference is the board as the core's `Boards.get` reads it (the cards one by one, each
 * with its own labels, subtasks, assignees and claim, decoded by the Card schema), encoded through
 * the HttpApi's `Board` schema and JSON.stringify (what the endpoint sent before PostgreSQL built
 * the JSON); the served body must equal it byte for byte, on each database. Both take the card's
 * keys from the Card schema (board/jsonSql.ts), so the bytes prove the SQL writes what
 * JSON.stringify would; the cards' columns are also checked against the rows as the driver reads
 * them, apart from that SQL.
 */
import { Boards, type Principal } from "@board/core"
import { Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Board } from "../packages/core/src/contract.ts"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("board JSON on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  let h: Record<string, string>

  const post = async (path: string, body: unknown, headers = h) => {
    const r = await call(base, "POST", path, { body, headers })
    expect(r.status, `${path}: ${r.text}`).toBeLessThan(300)
    return r.body
  }

  /** Today's board: the row mappers, then the Board schema's encoding, then JSON.stringify. */
  const reference = async (projectId: string): Promise<string> => {
    const principal: Principal = { userId: a.userId, via: "apiKey", workspaces: "all" }
    const view = await server.run(
      Effect.gen(function* () {
        return yield* (yield* Boards).get(principal, projectId)
      })
    )
    return JSON.stringify(Schema.encodeSync(Board)(view as any))
  }

  const expectSameBoard = async (projectId: string) => {
    const served = await call(base, "GET", `/v1/board/${projectId}`, { headers: h })
    expect(served.status).toBe(200)
    expect(served.headers.get("content-type")).toMatch(/^application\/json/)
    // streamed in parts, but with its length (not chunked): the length is the body's, in bytes
    expect(served.headers.get("content-length")).toBe(String(Buffer.byteLength(served.text)))
    const read = await reference(projectId)
    // The cursor may lag behind the newest event by design (a transaction still running when the
    // board was read holds it back; replaying events the board shows changes nothing), and the
    // reference reads it later: it must not be ahead of the reference's, and the bytes are
    // compared with the served one in its place.
    const servedCursor = (served.body as { eventCursor: string }).eventCursor
    const referenceCursor = (JSON.parse(read) as { eventCursor: string }).eventCursor
    expect(servedCursor <= referenceCursor, `${servedCursor} <= ${referenceCursor}`).toBe(true)
    const expected = read.replace(`"eventCursor":"${referenceCursor}"`, `"eventCursor":"${servedCursor}"`)
    // the structure first (a readable diff), then the bytes: key order, escapes, number forms
    expect(served.body).toEqual(JSON.parse(expected))
    expect(served.text).toBe(expected)
    // the columns as the driver reads them (Dates to toISOString), not through the card's SQL
    const rows = await server.query(
      "SELECT id, column_id, ref, title, description, priority, source, intake_token_id, created_at, updated_at, due_at FROM cards WHERE project_id = $1",
      [projectId]
    )
    const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString())
    expect(
      rows
        .map((r: any) => ({
          id: r.id,
          columnId: r.column_id,
          ref: r.ref,
          title: r.title,
          description: r.description,
          priority: r.priority,
          dueAt: iso(r.due_at),
          source: r.source,
          intakeTokenId: r.intake_token_id,
          createdAt: iso(r.created_at),
          updatedAt: iso(r.updated_at)
        }))
        .sort((x, y) => x.id.localeCompare(y.id))
    ).toEqual(
      served.body.cards
        .map((c: any) => ({
          id: c.id,
          columnId: c.columnId,
          ref: c.ref,
          title: c.title,
          description: c.description,
          priority: c.priority,
          dueAt: c.dueAt,
          source: c.source,
          intakeTokenId: c.intakeTokenId,
          createdAt: c.createdAt,
          updatedAt: c.updatedAt
        }))
        .sort((x: any, y: any) => x.id.localeCompare(y.id))
    )
    return served.body
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "jsonboard")
    h = key(a.apiKey)
  })
  afterAll(() => server?.stop())

  it("a board with several columns, labels, subtasks, nulls, escapes and an intake card", async () => {
    const [todo, doing, done] = a.columns.map((c) => c.id) as [string, string, string]
    const extra = await post("/v1/columns", { projectId: a.projectId, name: 'Blocked "waiting"' })

    // labels: ordered by lower(name), then id; one without a colour
    const red = await post("/v1/labels", { projectId: a.projectId, name: "bug", color: "#FF0000" })
    const plain = await post("/v1/labels", { projectId: a.projectId, name: "Backend" })
    const ui = await post("/v1/labels", { projectId: a.projectId, name: 'UI ✨ "quoted" \\ slash', color: "#00ff00" })
    await post("/v1/labels", { projectId: a.projectId, name: "unused" })

    const cards: Array<{ id: string }> = []
    const titles = [
      "plain",
      'quotes " and \\ backslash',
      "newline\nand\ttab\rand \u0001 \u001f control",
      "unicode: ünïcødé 日本語 😀 \u2028 \u2029 </script>",
      "<b>html</b> & ampersand / slash"
    ]
    for (const [i, title] of titles.entries()) {
      cards.push(
        await post("/v1/cards", {
          projectId: a.projectId,
          columnId: [todo, doing, done, extra.id][i % 4],
          title,
          ...(i % 2 === 0 ? { description: `description ${i}: "x"\n\u00e9` } : {}),
          ...(i % 3 === 0 ? { priority: "urgent" } : {})
        })
      )
    }
    for (let i = 0; i < 6; i++)
      cards.push(
        await post("/v1/cards", { projectId: a.projectId, columnId: todo, title: `todo ${i}`, priority: "low" })
      )
    // a card moved to the top of another column, and one with an empty description
    await post(`/v1/cards/${cards[6]!.id}/move`, { columnId: doing, position: 0 })
    await post("/v1/cards", { projectId: a.projectId, columnId: done, title: "empty description", description: "" })

    await post(`/v1/cards/${cards[0]!.id}/labels`, { labelId: red.id })
    await post(`/v1/cards/${cards[0]!.id}/labels`, { labelId: plain.id })
    await post(`/v1/cards/${cards[0]!.id}/labels`, { labelId: ui.id })
    await post(`/v1/cards/${cards[3]!.id}/labels`, { labelId: ui.id })
    const s1 = await post("/v1/subtasks", { cardId: cards[0]!.id, title: 'first "step"' })
    await post("/v1/subtasks", { cardId: cards[0]!.id, title: "second" })
    await post("/v1/subtasks", { cardId: cards[0]!.id, title: "zeroth", position: 0 })
    await post(`/v1/subtasks/${s1.id}/toggle`, {})
    await post("/v1/subtasks", { cardId: cards[4]!.id, title: "only" })

    // a card filed through an intake token: source "intake" and a non-null intakeTokenId
    const token = await post("/v1/intake-tokens", { columnId: doing, name: "form" })
    await post("/v1/intake", { title: "from the form", description: "filed" }, { "x-intake-key": token.token })

    // timestamps with microseconds must be cut to milliseconds the way the driver cuts them
    await server.query(`UPDATE cards SET updated_at = '2024-02-29T23:59:59.999999Z' WHERE id = $1`, [cards[1]!.id])
    await server.query(`UPDATE cards SET created_at = '2031-01-01T00:00:00.0005+05:30' WHERE id = $1`, [cards[2]!.id])
    await server.query(`UPDATE labels SET updated_at = '2024-06-01T12:34:56.789999Z' WHERE id = $1`, [red.id])
    await server.query(`UPDATE subtasks SET created_at = '2025-12-31T23:59:59.000001Z' WHERE id = $1`, [s1.id])
    await server.query(`UPDATE projects SET updated_at = '2026-03-04T05:06:07.0089Z' WHERE id = $1`, [a.projectId])
    // assignees (two, in assignment order) and due dates, one with microseconds to cut
    const other = await bootstrap(base, "assignee")
    await call(base, "POST", `/v1/workspaces/${a.workspaceId}/members`, {
      body: { email: other.email },
      headers: { authorization: `Bearer ${a.session}` }
    })
    await call(base, "PATCH", `/v1/cards/${cards[0]!.id}`, { body: { assigneeIds: [other.userId] }, headers: h })
    await call(base, "PATCH", `/v1/cards/${cards[0]!.id}`, {
      body: { assigneeIds: [other.userId, a.userId], dueAt: "2026-07-01T09:30:00+02:00" },
      headers: h
    })
    await post("/v1/cards", { projectId: a.projectId, columnId: doing, title: "due", assigneeIds: [a.userId] })
    await server.query(`UPDATE cards SET due_at = '2027-01-01T00:00:00.123999Z' WHERE id = $1`, [cards[3]!.id])

    // claims: a person's; an agent's whose name needs escaping; an agent without a name; a lease
    // that has passed (no claim); microseconds in a lease's end
    const claimed = []
    for (const i of [0, 2, 3, 4]) claimed.push(await post(`/v1/cards/${cards[i]!.id}/claim`, {}))
    await server.query(
      `UPDATE agent_sessions SET actor_type = 'agent', actor_name = $2, lease_expires_at = '2999-01-01T00:00:00.1234567Z' WHERE id = $1`,
      [claimed[1].id, 'Agent "q" \\ ✨\n']
    )
    await server.query(`UPDATE agent_sessions SET actor_type = 'agent', actor_name = NULL WHERE id = $1`, [
      claimed[2].id
    ])
    await server.query(`UPDATE agent_sessions SET lease_expires_at = '2001-01-01T00:00:00Z' WHERE id = $1`, [
      claimed[3].id
    ])

    const board = await expectSameBoard(a.projectId)
    const claimOf = (i: number) => board.cards.find((c: any) => c.id === cards[i]!.id).claim
    expect(claimOf(0)).toEqual({
      sessionId: claimed[0].id,
      actor: claimed[0].actor,
      leaseExpiresAt: claimed[0].leaseExpiresAt
    })
    expect(claimOf(2).actor).toEqual({ type: "agent", userId: a.userId, name: 'Agent "q" \\ ✨\n' })
    expect(claimOf(2).leaseExpiresAt).toBe("2999-01-01T00:00:00.123Z")
    expect(claimOf(3).actor).toEqual({ type: "agent", userId: a.userId })
    expect(claimOf(4)).toBeNull()
    expect(claimOf(1)).toBeNull()
    expect(board.columns).toHaveLength(4)
    expect(board.cards).toHaveLength(titles.length + 6 + 3)
    expect(board.cards.find((c: any) => c.id === cards[0]!.id)).toMatchObject({
      assigneeIds: [other.userId, a.userId],
      dueAt: "2026-07-01T07:30:00.000Z"
    })
    expect(board.cards.find((c: any) => c.id === cards[3]!.id).dueAt).toBe("2027-01-01T00:00:00.123Z")
    expect(board.labels.map((l: any) => l.name)).toEqual(["Backend", "bug", 'UI ✨ "quoted" \\ slash', "unused"])
    expect(
      board.cards.find((c: any) => c.id === cards[0]!.id).subtasks.map((s: any) => [s.title, s.completed, s.position])
    ).toEqual([
      ["zeroth", false, 0],
      ['first "step"', true, 1],
      ["second", false, 2]
    ])
    expect(board.cards.find((c: any) => c.id === cards[1]!.id).updatedAt).toBe("2024-02-29T23:59:59.999Z")
    expect(board.cards.find((c: any) => c.id === cards[2]!.id).createdAt).toBe("2030-12-31T18:30:00.000Z")
    expect(board.cards.find((c: any) => c.source === "intake").intakeTokenId).toBe(token.id)
    expect(board.project.updatedAt).toBe("2026-03-04T05:06:07.008Z")
  })

  it("a board whose columns each span more than one row of the statement (runs of 128 cards), in order", async () => {
    const project = await post("/v1/projects", { workspaceId: a.workspaceId, name: "Big", template: "kanban" })
    const columns = project.columns.map((c: { id: string }) => c.id) as Array<string>
    for (let batch = 0; batch < 26; batch++) {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post("/v1/cards", {
            projectId: project.project.id,
            columnId: columns[(batch * 20 + i) % 3],
            title: `card ${batch * 20 + i}`
          })
        )
      )
    }
    const board = await expectSameBoard(project.project.id)
    expect(board.cards).toHaveLength(520)
    // every column's positions run 0..n-1 across the row boundaries
    for (const column of columns) {
      expect(
        board.cards
          .filter((c: { columnId: string }) => c.columnId === column)
          .map((c: { position: number }) => c.position)
      ).toEqual(
        Array.from(
          { length: board.cards.filter((c: { columnId: string }) => c.columnId === column).length },
          (_, i) => i
        )
      )
    }
  })

  it("a blank project: no columns, no cards, no labels", async () => {
    const project = await post("/v1/projects", { workspaceId: a.workspaceId, name: "Empty" })
    const board = await expectSameBoard(project.project.id)
    expect(board).toMatchObject({ columns: [], cards: [], labels: [] })
  })

  it("columns without cards, and labels no card wears", async () => {
    const project = await post("/v1/projects", { workspaceId: a.workspaceId, name: "Columns only", template: "kanban" })
    await post("/v1/labels", { projectId: project.project.id, name: "lonely" })
    const board = await expectSameBoard(project.project.id)
    expect(board.columns).toHaveLength(3)
    expect(board.cards).toEqual([])
  })

  it("answers 404 for an unknown project and 401 without a credential, as before", async () => {
    expect((await call(base, "GET", `/v1/board/00000000-0000-4000-8000-000000000000`, { headers: h })).status).toBe(404)
    expect((await call(base, "GET", `/v1/board/${a.projectId}`)).status).toBe(401)
    const other = await bootstrap(base, "stranger")
    expect((await call(base, "GET", `/v1/board/${a.projectId}`, { headers: key(other.apiKey) })).status).toBe(404)
  })
})
