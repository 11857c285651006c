/**
 * Issue 18, the log's writes: every change that answers 2xx, through every front end (REST, MCP
 * with an OAuth token, natural-language commands, intake), writes exactly one event of its type
 * in its own transaction, with the actor, the object as the REST answer shows it, and for updates
 * the changed fields' old values. A refused change writes none, and a change whose event cannot
 * be written does not happen either.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

interface Logged {
  readonly n: string
  readonly tx: string
  readonly type: string
  readonly actor: Record<string, unknown>
  readonly data: { object: any; previous?: Record<string, unknown> }
  readonly card_id: string | null
  readonly project_id: string
  readonly workspace_id: string
}

const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v)

describe.each(backends)("events written by changes on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  let h: Record<string, string>
  let me: { type: "user"; userId: string; name: string }
  let seen = "0"

  /** The events written since the last call, in log order. */
  const newEvents = async (): Promise<ReadonlyArray<Logged>> => {
    const rows = await server.query(
      `SELECT n::text AS n, tx::text AS tx, type, actor, data, card_id, project_id, workspace_id
       FROM events WHERE n > $1::bigint ORDER BY tx, n`,
      [seen]
    )
    for (const r of rows) if (BigInt(r.n) > BigInt(seen)) seen = r.n
    return rows.map((r) => ({ ...r, actor: json(r.actor), data: json(r.data) }))
  }
  /** Exactly one event was written since the last look, of this type: answers it. */
  const theOne = async (type: string): Promise<Logged> => {
    const events = await newEvents()
    expect(events.map((e) => e.type)).toEqual([type])
    const e = events[0]!
    expect(e.workspace_id).toBe(a.workspaceId)
    expect(e.project_id).toBe(a.projectId)
    return e
  }
  const noEvents = async () => expect((await newEvents()).map((e) => e.type)).toEqual([])

  const rest = async (method: string, path: string, body?: unknown, status = 200) => {
    const r = await call(base, method, path, { headers: h, ...(body === undefined ? {} : { body }) })
    expect(r.status, `${method} ${path}: ${r.text}`).toBe(status)
    return r.body
  }
  const column = (name: string) => a.columns.find((c) => c.name === name)!.id
  const newCard = async (title: string) => {
    const card = await rest("POST", "/v1/cards", { projectId: a.projectId, columnId: column("To Do"), title }, 201)
    await theOne("card.created")
    return card
  }
  const getCard = (id: string) => rest("GET", `/v1/cards/${id}`)

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "eve")
    h = key(a.apiKey)
    me = { type: "user", userId: a.userId, name: "eve" }
    await newEvents()
  })
  afterAll(() => server?.stop())

  describe("cards", () => {
    it("card.updated: the card after, the changed fields' old values, the person", async () => {
      const card = await newCard("Before")
      const after = await rest("PATCH", `/v1/cards/${card.id}`, { title: "After", priority: "high" })
      const e = await theOne("card.updated")
      expect(e.actor).toEqual(me)
      expect(e.card_id).toBe(card.id)
      expect(e.data.object).toEqual(after)
      expect(e.data.previous).toEqual({ title: "Before", priority: "medium" })
      // an empty patch changes nothing and logs nothing
      await rest("PATCH", `/v1/cards/${card.id}`, {})
      await noEvents()
    })

    it("card.label_added and card.label_removed: the card after, its labels before", async () => {
      const card = await newCard("Labelled")
      const label = await rest("POST", "/v1/labels", { projectId: a.projectId, name: "Urgent", color: "#ff0000" }, 201)
      await theOne("label.created")
      const added = await rest("POST", `/v1/cards/${card.id}/labels`, { labelId: label.id })
      const e = await theOne("card.label_added")
      expect(e.actor).toEqual(me)
      expect(e.card_id).toBe(card.id)
      expect(e.data.object).toEqual(added)
      expect(e.data.object.labels).toEqual([label])
      expect(e.data.previous).toEqual({ labels: [] })
      // attaching it again changes nothing: no event
      await rest("POST", `/v1/cards/${card.id}/labels`, { labelId: label.id })
      await noEvents()

      await rest("DELETE", `/v1/cards/${card.id}/labels/${label.id}`, undefined, 204)
      const r = await theOne("card.label_removed")
      expect(r.card_id).toBe(card.id)
      expect(r.data.object).toEqual(await getCard(card.id))
      expect(r.data.object.labels).toEqual([])
      expect(r.data.previous).toEqual({ labels: [label] })
    })
  })

  describe("columns", () => {
    it("column.created, column.updated (rename and reorder), column.deleted (its last state)", async () => {
      const created = await rest("POST", "/v1/columns", { projectId: a.projectId, name: "Review", position: 1 }, 201)
      const c = await theOne("column.created")
      expect(c.actor).toEqual(me)
      expect(c.card_id).toBeNull()
      expect(c.data.object).toEqual(created)
      expect(c.data.object.kind).toBe("in_progress")

      const updated = await rest("PATCH", `/v1/columns/${created.id}`, { name: "Peer review", position: 0 })
      const u = await theOne("column.updated")
      expect(u.data.object).toEqual(updated)
      expect(u.data.previous).toEqual({ name: "Review", position: 1 })
      await rest("PATCH", `/v1/columns/${created.id}`, { name: "QA" })
      expect((await theOne("column.updated")).data.previous).toEqual({ name: "Peer review" })
      // a kind change: the column after, its kind before
      const kinded = await rest("PATCH", `/v1/columns/${created.id}`, { kind: "done" })
      const k = await theOne("column.updated")
      expect(k.data.object).toEqual(kinded)
      expect(k.data.object.kind).toBe("done")
      expect(k.data.previous).toEqual({ kind: "in_progress" })

      await rest("DELETE", `/v1/columns/${created.id}`, undefined, 204)
      const d = await theOne("column.deleted")
      expect(d.data.object).toEqual(kinded)
      expect(d.data.previous).toBeUndefined()
    })
  })

  describe("labels and subtasks", () => {
    it("label.created", async () => {
      const label = await rest("POST", "/v1/labels", { projectId: a.projectId, name: "Docs" }, 201)
      const e = await theOne("label.created")
      expect(e.actor).toEqual(me)
      expect(e.card_id).toBeNull()
      expect(e.data.object).toEqual(label)
    })

    it("subtask.created, subtask.toggled and subtask.deleted belong to their card's history", async () => {
      const card = await newCard("With steps")
      const subtask = await rest("POST", "/v1/subtasks", { cardId: card.id, title: "Step one" }, 201)
      const c = await theOne("subtask.created")
      expect(c.card_id).toBe(card.id)
      expect(c.data.object).toEqual(subtask)

      const toggled = await rest("POST", `/v1/subtasks/${subtask.id}/toggle`)
      const t = await theOne("subtask.toggled")
      expect(t.card_id).toBe(card.id)
      expect(t.data.object).toEqual(toggled)
      expect(t.data.object.completed).toBe(true)
      expect(t.data.previous).toEqual({ completed: false })

      await rest("DELETE", `/v1/subtasks/${subtask.id}`, undefined, 204)
      const d = await theOne("subtask.deleted")
      expect(d.card_id).toBe(card.id)
      expect(d.data.object).toEqual(toggled)
    })
  })

  describe("links", () => {
    it("card_link.created and card_link.deleted, seen from the source card", async () => {
      const blocker = await newCard("Blocker")
      const blocked = await newCard("Blocked")
      const link = await rest(
        "POST",
        `/v1/cards/${blocker.id}/links`,
        { targetId: blocked.id, linkType: "blocks" },
        201
      )
      const c = await theOne("card_link.created")
      expect(c.actor).toEqual(me)
      expect(c.card_id).toBe(blocker.id)
      expect(c.data.object).toEqual(link)
      // the same link again answers the existing one and logs nothing
      const again = await call(base, "POST", `/v1/cards/${blocker.id}/links`, {
        body: { targetId: blocked.id, linkType: "blocks" },
        headers: h
      })
      expect(again.status).toBeLessThan(300)
      await noEvents()

      await rest("DELETE", `/v1/links/${link.id}`, undefined, 204)
      const d = await theOne("card_link.deleted")
      expect(d.card_id).toBe(blocker.id)
      expect(d.data.object).toEqual(link)
    })

    it("project_link.created, reviewed, evaluated and deleted", async () => {
      const links = `/v1/projects/${a.projectId}/links`
      const submitted = await rest("POST", links, { url: "https://example.com/guide?utm_source=x" }, 201)
      const c = await theOne("project_link.created")
      expect(c.actor).toEqual(me)
      expect(c.card_id).toBeNull()
      expect(c.data.object).toEqual(submitted.link)
      // the same URL again answers the stored link and logs nothing
      await rest("POST", links, { url: "https://example.com/guide" })
      await noEvents()

      const reviewed = await rest("PATCH", `${links}/${submitted.link.id}`, {
        title: "The guide",
        relevance: "high",
        reason: "we follow it"
      })
      const r = await theOne("project_link.reviewed")
      expect(r.data.object).toEqual(reviewed.link)
      const before = submitted.link
      expect(r.data.previous).toMatchObject({
        title: null,
        relevance: before.relevance,
        evaluation_source: "heuristic",
        reviewedBy: null,
        reviewReason: null
      })
      expect(r.data.previous).not.toHaveProperty("url")
      expect(r.data.previous).not.toHaveProperty("updatedAt")

      const evaluated = await rest("POST", `${links}/${submitted.link.id}/evaluate`)
      const v = await theOne("project_link.evaluated")
      expect(v.data.object).toEqual(evaluated.link)
      expect(v.data.previous).toMatchObject({
        evaluation_source: "human",
        reviewedBy: a.userId,
        reviewReason: "we follow it"
      })

      await rest("DELETE", `${links}/${submitted.link.id}`)
      const d = await theOne("project_link.deleted")
      expect(d.data.object).toEqual(evaluated.link)
    })
  })

  describe("every front end logs, with its actor", () => {
    it("intake: card.created by the token, named, never its secret", async () => {
      const token = await rest("POST", "/v1/intake-tokens", { columnId: column("To Do"), name: "support form" }, 201)
      const filed = await call(base, "POST", "/v1/intake", {
        body: { title: "Printer on fire" },
        headers: { "x-intake-key": token.token }
      })
      expect(filed.status).toBeLessThan(300)
      const e = await theOne("card.created")
      expect(e.actor).toEqual({ type: "intake", name: "support form" })
      expect(JSON.stringify(e)).not.toContain(token.token)
      expect(e.data.object).toEqual(await getCard(e.card_id!))
      expect(e.data.object.title).toBe("Printer on fire")
    })

    it("natural-language commands: one event per change they make", async () => {
      const card = await newCard("Spoken to")
      const urgent = await call(base, "POST", "/v1/nlu", {
        body: { command: `mark ${card.ref} as urgent`, projectId: a.projectId },
        headers: h
      })
      expect(urgent.status, urgent.text).toBe(200)
      const u = await theOne("card.updated")
      expect(u.actor).toEqual(me)
      expect(u.data.object).toEqual(await getCard(card.id))
      expect(u.data.previous).toEqual({ priority: "medium" })

      // a label the board does not have yet: the label is created, then attached
      const labelled = await call(base, "POST", "/v1/nlu", {
        body: { command: `add label spoken to ${card.ref}`, projectId: a.projectId },
        headers: h
      })
      expect(labelled.status, labelled.text).toBe(200)
      const events = await newEvents()
      expect(events.map((e) => e.type)).toEqual(["label.created", "card.label_added"])
      expect(events[1]!.data.object).toEqual(await getCard(card.id))
      expect(events[1]!.data.object.labels).toEqual([events[0]!.data.object])
    })

    it("MCP with an OAuth token: the agent, named after its registered client, for the person", async () => {
      const { tokens } = await fullFlow(base, a, [a.workspaceId])
      const mcp = new Client({ name: "events-tests", version: "1.0.0" })
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
          requestInit: { headers: bearer(tokens.access_token) }
        })
      )
      try {
        const card = await newCard("Agent's")
        const r = (await mcp.callTool({
          name: "update_card",
          arguments: { card: card.ref, title: "Agent's now" }
        })) as {
          isError?: boolean
        }
        expect(r.isError ?? false).toBe(false)
        const e = await theOne("card.updated")
        expect(e.actor).toEqual({ type: "agent", userId: a.userId, name: "Test Agent", onBehalfOf: a.userId })
        expect(e.data.object).toEqual(await getCard(card.id))
        expect(e.data.previous).toEqual({ title: "Agent's" })

        const s = (await mcp.callTool({ name: "add_subtask", arguments: { card: card.ref, title: "Sub" } })) as {
          isError?: boolean
          structuredContent?: any
        }
        expect(s.isError ?? false).toBe(false)
        const c = await theOne("subtask.created")
        expect(c.actor).toEqual({ type: "agent", userId: a.userId, name: "Test Agent", onBehalfOf: a.userId })
        expect(c.data.object).toEqual((await getCard(card.id)).subtasks[0])
      } finally {
        await mcp.close()
      }
    })
  })

  describe("a change that fails writes no event", () => {
    it("refused changes (4xx) log nothing", async () => {
      const card = await newCard("Refusals")
      const other = await rest(
        "POST",
        "/v1/projects",
        { workspaceId: a.workspaceId, name: "Elsewhere", template: "kanban" },
        201
      )
      const foreignLabel = await call(base, "POST", "/v1/labels", {
        body: { projectId: other.project.id, name: "Theirs" },
        headers: h
      })
      expect(foreignLabel.status).toBe(201)
      const label = await rest("POST", "/v1/labels", { projectId: a.projectId, name: "Once" }, 201)
      await newEvents()

      const refusals: Array<[string, string, unknown, number]> = [
        ["PATCH", `/v1/cards/${card.id}`, { title: "" }, 400],
        ["POST", `/v1/cards/${card.id}/move`, { columnId: other.columns[0].id }, 400],
        ["POST", "/v1/labels", { projectId: a.projectId, name: "once" }, 409],
        ["POST", `/v1/cards/${card.id}/labels`, { labelId: foreignLabel.body.id }, 400],
        ["DELETE", `/v1/cards/${card.id}/labels/${label.id}`, undefined, 404],
        ["DELETE", `/v1/columns/${column("To Do")}`, undefined, 409],
        ["PATCH", `/v1/columns/${column("To Do")}`, { name: "" }, 400],
        ["POST", "/v1/subtasks", { cardId: card.id, title: "" }, 400],
        ["POST", "/v1/subtasks/00000000-0000-4000-8000-000000000000/toggle", undefined, 404],
        ["POST", `/v1/cards/${card.id}/links`, { targetId: card.id, linkType: "blocks" }, 400],
        ["PATCH", `/v1/projects/${a.projectId}/links/00000000-0000-4000-8000-000000000000`, { title: "x" }, 404]
      ]
      for (const [method, path, body, status] of refusals) {
        const r = await call(base, method, path, { headers: h, ...(body === undefined ? {} : { body }) })
        expect(r.status, `${method} ${path}: ${r.text}`).toBe(status)
      }
      await noEvents()
      // and nothing changed
      expect(await getCard(card.id)).toEqual(card)
    })

    it("a change whose event cannot be written rolls back with it (no change without its event)", async () => {
      const card = await newCard("Kept")
      // the log refuses this one type: the change's transaction must fail as a whole
      await server.query(`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused by the test'; END $$`)
      await server.query(`CREATE TRIGGER refuse_event BEFORE INSERT ON events FOR EACH ROW
        WHEN (NEW.type IN ('card.updated', 'label.created', 'column.deleted')) EXECUTE FUNCTION refuse_event()`)
      try {
        const column = await rest("POST", "/v1/columns", { projectId: a.projectId, name: "Doomed" }, 201)
        await theOne("column.created")
        const patched = await call(base, "PATCH", `/v1/cards/${card.id}`, { body: { title: "Lost" }, headers: h })
        expect(patched.status).toBe(500)
        const label = await call(base, "POST", "/v1/labels", {
          body: { projectId: a.projectId, name: "Lost" },
          headers: h
        })
        expect(label.status).toBe(500)
        const deleted = await call(base, "DELETE", `/v1/columns/${column.id}`, { headers: h })
        expect(deleted.status).toBe(500)
        await noEvents()
        expect(await getCard(card.id)).toEqual(card)
        expect(await server.query(`SELECT 1 FROM labels WHERE name = 'Lost'`)).toEqual([])
        const board = await rest("GET", `/v1/board/${a.projectId}`)
        expect(board.columns.map((c: { id: string }) => c.id)).toContain(column.id)
      } finally {
        await server.query("DROP TRIGGER refuse_event ON events")
        await server.query("DROP FUNCTION refuse_event()")
      }
    })
  })
})
