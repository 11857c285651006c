/**
 * Issue 6, the MCP endpoint: Streamable HTTP at /api/mcp driven the way a real client does,
 * with the official TypeScript SDK (`Client` + `StreamableHTTPClientTransport`) and an API key.
 * Every write is read back over REST to prove its effect; another user's cards stay out of
 * reach (tool errors, nothing changed); no credential is a 401 with the challenge.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

type ToolResult = {
  readonly content: ReadonlyArray<{ readonly type: string; readonly text?: string }>
  readonly structuredContent?: any
  readonly isError?: boolean
}

/** [readOnlyHint, destructiveHint, idempotentHint] of every tool, as the issue asks them set. */
const HINTS: Record<string, readonly [boolean, boolean, boolean]> = {
  list_workspaces: [true, false, true],
  list_projects: [true, false, true],
  show_board: [true, false, true],
  search_cards: [true, false, true],
  show_card: [true, false, true],
  create_card: [false, false, false],
  update_card: [false, true, true],
  move_card: [false, false, true],
  archive_card: [false, false, true],
  restore_card: [false, false, true],
  add_label: [false, false, true],
  remove_label: [false, true, true],
  add_subtask: [false, false, false],
  toggle_subtask: [false, false, false],
  link_cards: [false, false, true],
  submit_link: [false, false, true],
  list_links: [true, false, true],
  get_prompt: [true, false, true],
  comment: [false, false, false],
  list_events: [true, false, true],
  card_history: [true, false, true],
  run_command: [false, true, false],
  claim_card: [false, false, true],
  claim_next_card: [false, false, false],
  heartbeat: [false, false, false],
  report: [false, false, false],
  release_card: [false, false, true]
}

const connect = async (baseUrl: string, apiKey: string): Promise<Client> => {
  const client = new Client({ name: "board-tests", version: "1.0.0" })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: { "X-API-Key": apiKey } } })
  )
  return client
}

describe.each(backends)("MCP endpoint on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  let b: Account
  let mcp: Client
  let other: Client

  const rest = async (path: string, account: Account = a) => {
    const r = await call(base, "GET", path, { headers: key(account.apiKey) })
    expect(r.status).toBe(200)
    return r.body
  }
  const column = (name: string) => a.columns.find((c) => c.name === name)!.id

  const callTool = async (client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> =>
    (await client.callTool({ name, arguments: args })) as unknown as ToolResult
  const textOf = (r: ToolResult) => r.content.map((c) => c.text ?? "").join("\n")
  /** A call that must succeed: answers its structured content, after checking the text is there. */
  const ok = async (name: string, args: Record<string, unknown>, client: Client = mcp) => {
    const r = await callTool(client, name, args)
    expect(r.isError ?? false, `${name} failed: ${textOf(r)}`).toBe(false)
    expect(r.content[0]).toMatchObject({ type: "text" })
    expect(textOf(r).length).toBeGreaterThan(0)
    expect(typeof r.structuredContent).toBe("object")
    return { data: r.structuredContent, text: textOf(r) }
  }
  /** A call that must answer a tool error (never a protocol error): answers its message. */
  const refused = async (name: string, args: Record<string, unknown>, client: Client = mcp) => {
    const r = await callTool(client, name, args)
    expect(r.isError, `${name} should have failed: ${textOf(r)}`).toBe(true)
    return textOf(r)
  }
  const newCard = async (title: string, columnName = "To Do") =>
    (await ok("create_card", { projectId: a.projectId, column: columnName, title })).data.card

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "agent")
    b = await bootstrap(base, "stranger")
    mcp = await connect(base, a.apiKey)
    other = await connect(base, b.apiKey)
  })
  afterAll(async () => {
    await mcp?.close()
    await other?.close()
    await server?.stop()
  })

  describe("discovery", () => {
    it("initializes with the server's name, instructions and the tools and prompts capabilities", () => {
      expect(mcp.getServerVersion()).toMatchObject({ name: "board-service" })
      expect(mcp.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {} })
      expect(mcp.getInstructions()).toMatch(/list_workspaces/)
    })

    it("lists every tool with a description, an object input schema and honest hints, and no delete tool", async () => {
      const { tools } = await mcp.listTools()
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(HINTS).sort())
      expect(tools.filter((t) => /delete|destroy|erase|trash|remove_card/i.test(t.name))).toEqual([])
      for (const tool of tools) {
        expect(tool.description?.length, tool.name).toBeGreaterThan(30)
        expect(tool.inputSchema.type).toBe("object")
        const [readOnly, destructive, idempotent] = HINTS[tool.name]!
        expect(tool.annotations, tool.name).toMatchObject({
          readOnlyHint: readOnly,
          destructiveHint: destructive,
          idempotentHint: idempotent,
          openWorldHint: false
        })
      }
      const create = tools.find((t) => t.name === "create_card")!
      expect(create.inputSchema.required).toEqual(expect.arrayContaining(["projectId", "column", "title"]))
      expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(["description", "priority"])
      )
    })

    // 16 KB for 25 tools; archive_card and restore_card (issue 33) added about 1 KB between them
    it("keeps the whole tools/list answer under 17 KB of JSON (about 4,200 tokens)", async () => {
      const { tools } = await mcp.listTools()
      expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThan(17_000)
    })

    it("comments on a card by ref, and show_card lists the latest comments with their authors", async () => {
      const card = await newCard("Discuss me")
      const { data, text } = await ok("comment", { card: card.ref, body: "Which **API** version?" })
      expect(text).toContain(card.ref)
      expect(data.comment).toMatchObject({
        cardId: card.id,
        body: "Which **API** version?",
        author: { type: "user", userId: a.userId, name: "agent" }
      })
      const listed = await rest(`/v1/cards/${card.id}/comments`)
      expect(listed.comments).toEqual([data.comment])
      for (let i = 0; i < 6; i++) await ok("comment", { card: card.id, body: `note ${i}` })
      const shown = await ok("show_card", { card: card.ref })
      expect(shown.data.commentCount).toBe(7)
      expect(shown.data.comments.map((c: any) => c.body)).toEqual(["note 1", "note 2", "note 3", "note 4", "note 5"])
      expect(shown.text).toContain("Comments (the latest 5 of 7):")
      expect(shown.text).toContain(`agent, ${shown.data.comments[4].createdAt}: note 5`)
      expect(await refused("comment", { card: card.id, body: "" })).toMatch(/body/)
    })

    it("lists workspaces and projects as text and structure", async () => {
      const ws = await ok("list_workspaces", {})
      expect(ws.data.workspaces).toEqual([expect.objectContaining({ id: a.workspaceId, role: "owner" })])
      expect(ws.text).toContain(a.workspaceId)
      const projects = await ok("list_projects", { workspaceId: a.workspaceId })
      expect(projects.data.projects).toEqual([expect.objectContaining({ id: a.projectId, refPrefix: "WEB" })])
      expect(projects.text).toContain("WEB")
    })
  })

  describe("writes, read back over REST", () => {
    it("create_card puts a card in the column given by name", async () => {
      const { data, text } = await ok("create_card", {
        projectId: a.projectId,
        column: "in progress",
        title: "Fix the login page",
        description: "Users get logged out",
        priority: "high"
      })
      expect(text).toContain(data.card.ref)
      const board = await rest(`/v1/board/${a.projectId}`)
      const card = board.cards.find((c: any) => c.id === data.card.id)
      expect(card).toMatchObject({
        title: "Fix the login page",
        description: "Users get logged out",
        priority: "high",
        columnId: column("In Progress")
      })
      expect(card.ref).toMatch(/^WEB-\d+$/)
    })

    it("move_card moves a card named by its ref to a column named by name, at a position", async () => {
      const first = await newCard("Already done", "Done")
      const card = await newCard("Ship it")
      const { data } = await ok("move_card", { card: card.ref.toLowerCase(), column: "DONE", position: 0 })
      expect(data.card).toMatchObject({ id: card.id, columnId: column("Done"), position: 0 })
      const board = await rest(`/v1/board/${a.projectId}`)
      const done = board.cards.filter((c: any) => c.columnId === column("Done")).map((c: any) => c.id)
      expect(done.slice(0, 2)).toEqual([card.id, first.id])
      // again: nothing more changes (idempotent)
      await ok("move_card", { card: card.ref, column: column("Done"), position: 0 })
      expect((await rest(`/v1/cards/${card.id}`)).position).toBe(0)
    })

    it("update_card changes only the given fields; an empty description clears it", async () => {
      const card = await newCard("Old title")
      await ok("update_card", { card: card.ref, title: "New title", description: "Some words" })
      expect(await rest(`/v1/cards/${card.id}`)).toMatchObject({
        title: "New title",
        description: "Some words",
        priority: "medium"
      })
      await ok("update_card", { card: card.id, description: "", priority: "urgent" })
      expect(await rest(`/v1/cards/${card.id}`)).toMatchObject({
        title: "New title",
        description: null,
        priority: "urgent"
      })
      expect(await refused("update_card", { card: card.id })).toMatch(/at least one/)
      expect(await refused("update_card", { card: card.id, title: "   " })).toMatch(/title/)
    })

    it("refuses bad input with the HTTP contract's words: both decode with the same schemas (domain/inputs.ts)", async () => {
      const card = await newCard("Decoded once")
      const before = await rest(`/v1/cards/${card.id}`)
      const post = async (path: string, body: unknown) => {
        const r = await call(base, "POST", path, { body, headers: key(a.apiKey) })
        expect(r.status, JSON.stringify(r.body)).toBe(400)
        return r.body.error as string
      }
      const cases: ReadonlyArray<[string, Record<string, unknown>, string, unknown]> = [
        [
          "create_card",
          { projectId: a.projectId, column: column("To Do"), title: "x".repeat(501) },
          "/v1/cards",
          { projectId: a.projectId, columnId: column("To Do"), title: "x".repeat(501) }
        ],
        ["add_subtask", { card: card.id, title: "  " }, "/v1/subtasks", { cardId: card.id, title: "  " }],
        ["comment", { card: card.id, body: "a\u0000b" }, `/v1/cards/${card.id}/comments`, { body: "a\u0000b" }],
        [
          "move_card",
          { card: card.id, column: column("Done"), position: -1 },
          `/v1/cards/${card.id}/move`,
          { columnId: column("Done"), position: -1 }
        ],
        [
          "submit_link",
          { projectId: a.projectId, url: "https://example.com/x", tags: ["t".repeat(51)] },
          `/v1/projects/${a.projectId}/links`,
          { url: "https://example.com/x", tags: ["t".repeat(51)] }
        ]
      ]
      for (const [tool, args, path, body] of cases) {
        const http = await post(path, body)
        expect(http, tool).toMatch(/^Invalid body: /)
        expect(await refused(tool, args), tool).toBe(http.replace(/^Invalid body: /, ""))
      }
      // nothing was written by any of them
      expect(await rest(`/v1/cards/${card.id}`)).toEqual(before)
    })

    it("add_label creates a missing label in the project and attaches it; remove_label takes it off", async () => {
      const card = await newCard("Needs a label")
      const added = await ok("add_label", { card: card.ref, label: "Bug" })
      expect(added.data.label).toMatchObject({ name: "Bug", created: true })
      expect((await rest(`/v1/cards/${card.id}`)).labels.map((l: any) => l.name)).toEqual(["Bug"])
      // the same label again, in another case: no new label, no second attachment
      const again = await ok("add_label", { card: card.id, label: "bug" })
      expect(again.data.label).toMatchObject({ id: added.data.label.id, created: false })
      expect((await rest(`/v1/cards/${card.id}`)).labels).toHaveLength(1)
      const board = await rest(`/v1/board/${a.projectId}`)
      expect(board.labels.filter((l: any) => l.name.toLowerCase() === "bug")).toHaveLength(1)

      await ok("remove_label", { card: card.ref, label: "BUG" })
      expect((await rest(`/v1/cards/${card.id}`)).labels).toEqual([])
      expect(await refused("remove_label", { card: card.ref, label: "bug" })).toMatch(/not on card/)
      expect(await refused("remove_label", { card: card.ref, label: "no-such-label" })).toMatch(/no label/)
    })

    it("add_subtask adds a checklist item and toggle_subtask flips it", async () => {
      const card = await newCard("Has steps")
      const { data } = await ok("add_subtask", { card: card.ref, title: "Write the test" })
      expect(data.subtask).toMatchObject({ cardId: card.id, title: "Write the test", completed: false })
      expect((await rest(`/v1/cards/${card.id}`)).subtasks).toEqual([
        expect.objectContaining({ id: data.subtask.id, completed: false })
      ])
      const toggled = await ok("toggle_subtask", { subtaskId: data.subtask.id })
      expect(toggled.data.subtask.completed).toBe(true)
      expect(toggled.text).toMatch(/Done/)
      expect((await rest(`/v1/cards/${card.id}`)).subtasks[0].completed).toBe(true)
      await ok("toggle_subtask", { subtaskId: data.subtask.id })
      expect((await rest(`/v1/cards/${card.id}`)).subtasks[0].completed).toBe(false)
      const shown = await ok("show_card", { card: card.ref })
      expect(shown.text).toContain(data.subtask.id)
    })

    it("link_cards links two cards named by ref, once", async () => {
      const blocker = await newCard("Blocker")
      const blocked = await newCard("Blocked")
      const { data, text } = await ok("link_cards", { card: blocker.ref, target: blocked.ref, linkType: "blocks" })
      expect(text).toContain(`${blocker.ref} blocks ${blocked.ref}`)
      expect(data.link).toMatchObject({
        sourceId: blocker.id,
        targetId: blocked.id,
        linkType: "blocks",
        direction: "outgoing"
      })
      const again = await ok("link_cards", { card: blocker.id, target: blocked.id, linkType: "blocks" })
      expect(again.data.link.id).toBe(data.link.id)
      const links = await rest(`/v1/cards/${blocked.id}/links`)
      expect(links).toEqual([expect.objectContaining({ id: data.link.id, direction: "incoming", linkType: "blocks" })])
      expect(await refused("link_cards", { card: blocker.ref, target: blocked.ref, linkType: "causes" })).toMatch(
        /linkType/
      )
      expect(await refused("link_cards", { card: blocker.ref, target: blocker.ref, linkType: "relates_to" })).toMatch(
        /itself/
      )
    })

    it("submit_link stores a link once and list_links lists it", async () => {
      const url = "https://example.com/docs/login-flow?utm_source=x"
      const first = await ok("submit_link", {
        projectId: a.projectId,
        url,
        title: "Login flow",
        note: "How login works",
        tags: ["auth"]
      })
      expect(first.data).toMatchObject({ created: true, link: { url, title: "Login flow", tags: ["auth"] } })
      const second = await ok("submit_link", { projectId: a.projectId, url })
      expect(second.data).toMatchObject({ created: false, link: { id: first.data.link.id } })
      const listed = await rest(`/v1/projects/${a.projectId}/links`)
      expect(listed.links.map((l: any) => l.id)).toEqual([first.data.link.id])
      const page = await ok("list_links", { projectId: a.projectId, limit: 10 })
      expect(page.data).toMatchObject({ total: 1, limit: 10, offset: 0 })
      expect(page.data.links[0].id).toBe(first.data.link.id)
      expect(page.text).toContain("example.com")
      expect(await refused("submit_link", { projectId: a.projectId, url: "not a url" })).toMatch(/url/)
      expect(await refused("list_links", { projectId: a.projectId, limit: 0 })).toMatch(/limit/)
    })

    it("run_command carries out a plain-English command", async () => {
      const card = await newCard("Spoken to")
      const { data, text } = await ok("run_command", { command: `move ${card.ref} to in progress` })
      expect(data).toMatchObject({ intent: "move_card", understood: true, projectId: a.projectId })
      expect(text).toMatch(/move_card/)
      expect((await rest(`/v1/cards/${card.id}`)).columnId).toBe(column("In Progress"))
      expect(await refused("run_command", { command: "make me a sandwich" })).toMatch(/Try:/)
    })

    it("archive_card takes a card off the board without deleting it; restore_card brings it back", async () => {
      const card = await newCard("Archive me")
      const { data, text } = await ok("archive_card", { card: card.ref })
      expect(data.card).toMatchObject({ id: card.id, ref: card.ref, position: 0 })
      expect(data.card.archivedAt).not.toBeNull()
      expect(text).toMatch(/Archived/)
      expect((await rest(`/v1/board/${a.projectId}`)).cards.map((c: any) => c.id)).not.toContain(card.id)
      expect((await rest(`/v1/board/${a.projectId}?archived=true`)).cards.map((c: any) => c.id)).toContain(card.id)
      // show_card says so
      expect((await ok("show_card", { card: card.ref })).text).toMatch(/Archived/)
      // moving it is refused with the way out
      expect(await refused("move_card", { card: card.ref, column: "Done" })).toMatch(/is archived; restore it/)
      const restored = await ok("restore_card", { card: card.id })
      expect(restored.data.card.archivedAt).toBeNull()
      expect((await rest(`/v1/cards/${card.id}`)).archivedAt).toBeNull()
      // run_command archives too
      expect((await ok("run_command", { command: `archive ${card.ref}` })).data.intent).toBe("archive_card")
      expect((await rest(`/v1/cards/${card.id}`)).archivedAt).not.toBeNull()
      // another user's card is out of reach
      expect(await refused("archive_card", { card: card.id }, other)).toMatch(/not found/)
    })

    it("run_command never deletes: the command is refused and the card stays", async () => {
      const card = await newCard("Keep me")
      expect(await refused("run_command", { command: `delete ${card.ref}` })).toMatch(/deleting cards is not available/)
      expect(await rest(`/v1/cards/${card.id}`)).toMatchObject({ id: card.id, title: "Keep me" })
    })
  })

  describe("reads", () => {
    it("search_cards finds cards by words of their title or description", async () => {
      const card = await newCard("Quokka migration plan")
      const { data, text } = await ok("search_cards", { query: "quokka MIGRATION" })
      expect(data.cards.map((c: any) => c.id)).toEqual([card.id])
      expect(text).toContain(card.ref)
      expect((await ok("search_cards", { query: "quokka", projectId: a.projectId })).data.cards).toHaveLength(1)
      expect((await ok("search_cards", { query: "quokka" }, other)).data.cards).toEqual([])
      expect(await refused("search_cards", { query: "  " })).toMatch(/blank/)
    })

    it("show_board shows every column and card, as REST does", async () => {
      const card = await newCard("On the board")
      const { data, text } = await ok("show_board", { projectId: a.projectId })
      const board = await rest(`/v1/board/${a.projectId}`)
      // two reads a moment apart: the cursor may move on between them (boardJson.ts: eventCursorSql
      // holds it back while any transaction of the cluster runs), the rest may not
      expect({ ...data, eventCursor: undefined }).toEqual({ ...board, eventCursor: undefined })
      expect(data.eventCursor <= board.eventCursor).toBe(true)
      expect(data.columns.map((c: any) => c.name)).toEqual(["To Do", "In Progress", "Done"])
      // each column with its kind: what an agent reads to tell waiting work from finished work
      expect(text).toMatch(/^To Do \[todo\] \(\d+\):$/m)
      expect(text).toMatch(/^In Progress \[in_progress\] \(\d+\):$/m)
      expect(text).toMatch(/^Done \[done\] \(\d+\):$/m)
      expect(text).toContain(`${card.ref} "On the board"`)
    })

    it("show_card shows a card by ref with its column and links", async () => {
      const card = await newCard("Look at me")
      const { data, text } = await ok("show_card", { card: card.ref })
      expect(data.card).toEqual(await rest(`/v1/cards/${card.id}`))
      expect(data.column).toBe("To Do")
      expect(text).toContain("To Do")
      expect(await refused("show_card", { card: "not a card" })).toMatch(/neither a card id/)
      expect(await refused("show_card", { card: "WEB-99999" })).toMatch(/not found/)
    })

    it("get_prompt answers the card's prompt, the same as REST, for each variant", async () => {
      const card = await newCard("Prompt me")
      const execute = await ok("get_prompt", { card: card.ref })
      expect(execute.data).toMatchObject({ variant: "execute", cardId: card.id })
      expect(execute.text).toBe((await rest(`/v1/cards/${card.id}/prompt?variant=execute`)).prompt)
      const analysis = await ok("get_prompt", { card: card.id, variant: "analysis" })
      expect(analysis.text).toBe((await rest(`/v1/cards/${card.id}/prompt?variant=analysis`)).prompt)
      expect(analysis.text).not.toBe(execute.text)
      expect(analysis.text).toContain(card.ref)
    })

    it("list_events and card_history answer the same events as REST, with a cursor", async () => {
      const card = await newCard("Watch me")
      await ok("move_card", { card: card.ref, column: "Done" })
      const history = await ok("card_history", { card: card.ref })
      expect(history.data).toEqual(await rest(`/v1/cards/${card.id}/history`))
      expect(history.data.events.map((e: any) => e.type)).toEqual(["card.created", "card.moved"])
      expect(history.text).toContain(`card.moved by agent: ${card.ref} "Watch me"`)
      const first = await ok("list_events", { projectId: a.projectId, limit: 1 })
      expect(first.data.events).toHaveLength(1)
      expect(first.text).toContain(`pass after: "${first.data.next}"`)
      const rest2 = await ok("list_events", { projectId: a.projectId, after: first.data.next, types: ["card.moved"] })
      expect(rest2.data).toEqual(
        await rest(`/v1/projects/${a.projectId}/events?after=${first.data.next}&types=card.moved&limit=50`)
      )
      expect(await refused("list_events", { projectId: a.projectId, types: ["card.exploded"] })).toContain(
        "card.exploded"
      )
    })

    it("a ref found in two of one's projects needs projectId", async () => {
      const second = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: a.workspaceId, name: "Webshop", template: "kanban" },
        headers: bearer(a.session)
      })
      expect(second.status).toBe(201)
      const projectId = second.body.project.id as string
      const mine = await ok("create_card", { projectId, column: "To Do", title: "Webshop card" })
      expect(mine.data.card.ref).toBe("WEB-1")
      expect(await refused("show_card", { card: "WEB-1" })).toMatch(/ambiguous.*projectId/)
      const shown = await ok("show_card", { card: "WEB-1", projectId })
      expect(shown.data.card.id).toBe(mine.data.card.id)
      const moved = await ok("move_card", { card: "web-1", column: "Done", projectId })
      expect(moved.data.card.columnId).toBe(second.body.columns[2].id)
    })
  })

  describe("hostile arguments", () => {
    it("a huge or malformed value is a tool error that quotes at most 100 characters of it", async () => {
      const huge = "x".repeat(100_000)
      const card = await newCard("Target of hostile arguments")
      for (const [name, args] of [
        ["show_card", { card: huge }],
        ["move_card", { card: card.id, column: huge }],
        ["create_card", { projectId: huge, column: "To Do", title: "t" }],
        ["create_card", { projectId: a.projectId, column: huge, title: "t" }]
      ] as const) {
        const message = await refused(name, args)
        expect(message.length, name).toBeLessThan(600)
        expect(message, name).toContain(`${"x".repeat(100)}…`)
      }
    })
  })

  describe("access", () => {
    it("answers 401 with the challenge and an {error} body without a credential", async () => {
      const init = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } }
      })
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
      const none = await call(base, "POST", "/mcp", { raw: init, headers })
      expect(none.status).toBe(401)
      expect(none.body).toEqual({ error: expect.stringMatching(/missing credential/) })
      expect(none.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${server.config.publicUrl}/.well-known/oauth-protected-resource/api", scope="mcp"`
      )
      const bogus = await call(base, "POST", "/mcp", {
        raw: init,
        headers: { ...headers, "x-api-key": "svc_live_nope" }
      })
      expect(bogus.status).toBe(401)
      expect(bogus.body.error).toMatch(/API key/)
      expect(bogus.headers.get("www-authenticate")).toMatch(/scope="mcp", error="invalid_token"$/)
      const token = await call(base, "POST", "/mcp", {
        raw: init,
        headers: { ...headers, ...bearer("svc_at_0000000000000000000000000000000000000000") }
      })
      expect(token.status).toBe(401)
      expect(token.headers.get("www-authenticate")).toMatch(/resource_metadata=.*error="invalid_token"/)
      // a session token is not a credential for MCP
      const session = await call(base, "POST", "/mcp", { raw: init, headers: { ...headers, ...bearer(a.session) } })
      expect(session.status).toBe(401)
      expect(session.headers.get("www-authenticate")).toMatch(/resource_metadata=/)
      // whatever the method
      expect((await call(base, "GET", "/mcp")).status).toBe(401)
      // and the SDK client refuses to connect
      const client = new Client({ name: "anonymous", version: "1.0.0" })
      await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)))).rejects.toThrow()
    })

    it("binds a session to the user who opened it: another user's key cannot use or end it", async () => {
      const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { "X-API-Key": a.apiKey } }
      })
      const client = new Client({ name: "session-owner", version: "1.0.0" })
      await client.connect(transport)
      const sessionId = transport.sessionId!
      expect(sessionId).toEqual(expect.any(String))
      const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": transport.protocolVersion ?? "2025-11-25"
      }
      const theirs = await call(base, "POST", "/mcp", { raw: list, headers: { ...headers, ...key(b.apiKey) } })
      expect(theirs.status).toBe(404)
      expect(theirs.body).toEqual({ error: expect.stringMatching(/session/) })
      expect((await call(base, "DELETE", "/mcp", { headers: { ...headers, ...key(b.apiKey) } })).status).toBe(404)
      const mine = await call(base, "POST", "/mcp", { raw: list, headers: { ...headers, ...key(a.apiKey) } })
      expect(mine.status).toBe(200)
      expect(mine.text).toContain("create_card")
      expect((await client.listTools()).tools.length).toBe(Object.keys(HINTS).length)
      await client.close()
    })

    it("never reaches another user's card, by id or by ref, and the card stays as it was", async () => {
      const card = await newCard("Private card")
      const { data: sub } = await ok("add_subtask", { card: card.id, title: "Private step" })
      const before = await rest(`/v1/cards/${card.id}`)
      const attempts: Array<[string, Record<string, unknown>]> = [
        ["show_card", { card: card.id }],
        ["show_card", { card: card.ref }],
        ["show_card", { card: card.ref, projectId: a.projectId }],
        ["move_card", { card: card.id, column: "Done" }],
        ["move_card", { card: card.ref, column: "Done" }],
        ["move_card", { card: card.id, column: column("Done") }],
        ["update_card", { card: card.id, title: "Stolen" }],
        ["update_card", { card: card.ref, title: "Stolen", projectId: a.projectId }],
        ["add_label", { card: card.id, label: "hacked" }],
        ["remove_label", { card: card.id, label: "bug" }],
        ["add_subtask", { card: card.id, title: "Sneaky" }],
        ["toggle_subtask", { subtaskId: sub.subtask.id }],
        ["link_cards", { card: card.id, target: card.ref, linkType: "relates_to" }],
        ["get_prompt", { card: card.id }],
        ["comment", { card: card.id, body: "hi" }],
        ["comment", { card: card.ref, body: "hi" }],
        ["card_history", { card: card.id }],
        ["card_history", { card: card.ref }],
        ["list_events", { projectId: a.projectId }],
        ["show_board", { projectId: a.projectId }],
        ["list_projects", { workspaceId: a.workspaceId }],
        ["create_card", { projectId: a.projectId, column: "To Do", title: "Intruder" }],
        ["create_card", { projectId: a.projectId, column: column("To Do"), title: "Intruder" }],
        ["submit_link", { projectId: a.projectId, url: "https://example.org/x" }],
        ["list_links", { projectId: a.projectId }],
        ["run_command", { command: `move ${card.ref} to Done`, projectId: a.projectId }],
        ["claim_card", { card: card.id }],
        ["claim_next_card", { projectId: a.projectId, column: "To Do" }]
      ]
      for (const [name, args] of attempts) {
        const message = await refused(name, args, other)
        expect(message, `${name} ${JSON.stringify(args)}`).toMatch(/not found|no card|ambiguous/i)
        expect(message).not.toContain("Private card")
      }
      // b's own WEB-1 exists once b has a card: a's ref never reaches a's card from b's side
      const theirs = await ok(
        "create_card",
        { projectId: b.projectId, column: "To Do", title: "Stranger's own" },
        other
      )
      const own = await ok("show_card", { card: theirs.data.card.ref }, other)
      expect(own.data.card.projectId).toBe(b.projectId)
      expect(await rest(`/v1/cards/${card.id}`)).toEqual(before)
      const board = await rest(`/v1/board/${a.projectId}`)
      expect(board.cards.map((c: any) => c.title)).not.toContain("Intruder")
      expect(board.labels.map((l: any) => l.name)).not.toContain("hacked")
    })
  })

  describe("agents at work (issue 19)", () => {
    it("the work queue's prompt names the tools, the column and the done column", async () => {
      const result = await mcp.getPrompt({ name: "work_queue", arguments: { projectId: a.projectId, column: "Doing" } })
      const text = (result.messages[0]!.content as { text: string }).text
      for (const word of ["claim_next_card", "report", "heartbeat", "release_card", '"Doing"', '"Done"', a.projectId]) {
        expect(text).toContain(word)
      }
    })

    it("claim the next card, report, release it into Done: each step read back over REST", async () => {
      const project = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: a.workspaceId, name: "Queue", template: "kanban" },
        headers: bearer(a.session)
      })
      const projectId = project.body.project.id as string
      await ok("create_card", { projectId, column: "To Do", title: "Low one", priority: "low" })
      const urgent = (await ok("create_card", { projectId, column: "To Do", title: "Urgent one", priority: "urgent" }))
        .data.card
      const claimed = await ok("claim_next_card", { projectId, column: "To Do", ttlSeconds: 120 })
      expect(claimed.data.card.id).toBe(urgent.id)
      expect(claimed.text).toContain(urgent.ref)
      const sessionId = claimed.data.session.id as string
      expect((await rest(`/v1/cards/${urgent.id}`)).claim.sessionId).toBe(sessionId)
      // someone else cannot take it
      expect(await refused("claim_card", { card: urgent.id }, other)).toMatch(/not found/)
      const reported = await ok("report", { sessionId, type: "thought", body: "Looking at the failing test" })
      expect(reported.data.activity.type).toBe("thought")
      await ok("heartbeat", { sessionId })
      expect(await refused("report", { sessionId, type: "musing", body: "hm" })).toMatch(/type|expected/i)
      const released = await ok("release_card", { sessionId, status: "complete", moveTo: "Done" })
      expect(released.data.session.status).toBe("complete")
      const card = await rest(`/v1/cards/${urgent.id}`)
      expect(card.claim).toBeNull()
      expect(card.columnId).toBe(project.body.columns.find((c: any) => c.name === "Done").id)
      const session = await rest(`/v1/agent-sessions/${sessionId}`)
      expect(session.activities.map((x: any) => x.body)).toEqual(["Looking at the failing test"])
      expect(await refused("heartbeat", { sessionId })).toMatch(/ended/)
      // the low one is next; then nothing
      expect((await ok("claim_next_card", { projectId, column: "To Do" })).data.card.title).toBe("Low one")
      const none = await ok("claim_next_card", { projectId, column: "To Do" })
      expect(none.data.session).toBeNull()
      expect(none.text).toMatch(/No unclaimed card/)
    })
  })

  describe("projects by name or ref prefix (issue 33)", () => {
    it("a tool that takes a project takes its id, its ref prefix or its name, through the one resolver", async () => {
      const made = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: a.workspaceId, name: "Named Queue", template: "kanban" },
        headers: bearer(a.session)
      })
      const { id, refPrefix } = made.body.project as { id: string; refPrefix: string }
      const byPrefix = await ok("create_card", {
        projectId: refPrefix.toLowerCase(),
        column: "To Do",
        title: "By prefix"
      })
      expect(byPrefix.data.card.projectId).toBe(id)
      const byName = await ok("show_board", { projectId: "  named   queue " })
      expect(byName.data.project.id).toBe(id)
      const claimed = await ok("claim_next_card", { projectId: refPrefix, column: "To Do" })
      expect(claimed.data.card.title).toBe("By prefix")
      await ok("release_card", { sessionId: claimed.data.session.id, status: "complete" })
      // a card ref within a project named by its prefix
      expect((await ok("show_card", { card: byPrefix.data.card.ref, projectId: refPrefix })).data.card.id).toBe(
        byPrefix.data.card.id
      )
      expect(await refused("show_board", { projectId: "No Such Project" })).toMatch(/no project "No Such Project"/)
      // a name two projects share says which, with their ids
      for (let i = 0; i < 2; i++) {
        await call(base, "POST", "/v1/projects", {
          body: { workspaceId: a.workspaceId, name: "Twin", template: "kanban" },
          headers: bearer(a.session)
        })
      }
      expect(await refused("list_events", { projectId: "twin" })).toMatch(/ambiguous.*use the project id/)
      // another user's project is not found by its name either
      expect(await refused("show_board", { projectId: "Named Queue" }, other)).toMatch(/no project/)
    })
  })

  describe("prompts", () => {
    it("lists the three variants, each taking the card, and the work queue's loop", async () => {
      const { prompts } = await mcp.listPrompts()
      expect(prompts.map((p) => p.name).sort()).toEqual(["analysis", "draft", "execute", "work_queue"])
      for (const prompt of prompts.filter((p) => p.name !== "work_queue")) {
        expect(prompt.description?.length).toBeGreaterThan(20)
        expect(prompt.arguments).toEqual(
          expect.arrayContaining([expect.objectContaining({ name: "card", required: true })])
        )
      }
    })

    it("prompts/get with a card ref answers the text Prompts.forCard builds", async () => {
      const card = await newCard("Prompted by MCP")
      for (const variant of ["analysis", "draft", "execute"] as const) {
        const result = await mcp.getPrompt({ name: variant, arguments: { card: card.ref } })
        const expected = (await rest(`/v1/cards/${card.id}/prompt?variant=${variant}`)).prompt
        expect(result.messages).toEqual([{ role: "user", content: { type: "text", text: expected } }])
      }
      const completion = await mcp.complete({
        ref: { type: "ref/prompt", name: "draft" },
        argument: { name: "card", value: card.ref }
      })
      expect(completion.completion.values).toContain(card.ref)
      await expect(other.getPrompt({ name: "draft", arguments: { card: card.id } })).rejects.toThrow(/not found/)
      await expect(mcp.getPrompt({ name: "draft", arguments: { card: "WEB-99999" } })).rejects.toThrow(/not found/)
    })
  })
})
