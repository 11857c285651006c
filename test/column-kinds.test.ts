/**
 * Issue 28, column kinds (CONTRACT.md "Column kinds"): every column is `todo`, `in_progress` or
 * `done`; the kanban template sets them, a column created without one is `todo` on an empty
 * board and `in_progress` otherwise, create and patch take each kind and refuse another with
 * 400 `{error}`. The queue without a column takes from `todo` columns only, whatever the
 * columns are called or where they sit. Migration 0015 gives the columns of existing boards
 * kinds by place. Over real HTTP on each database.
 */
import { ColumnCreate, ColumnPatch, decodeInput } from "@board/core"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { splitSql } from "../packages/core/src/infra/splitSql.ts"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

const migration = path.join(import.meta.dirname, "..", "migrations", "0015_column_kinds.sql")

describe.each(backends)("column kinds on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account
  let h: Record<string, string>

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    A = await bootstrap(base, "kinds")
    h = key(A.apiKey)
  }, 120_000)
  afterAll(() => server?.stop())

  const project = async (name: string, template?: string) => {
    const r = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: A.workspaceId, name, ...(template === undefined ? {} : { template }) },
      headers: bearer(A.session)
    })
    expect(r.status).toBe(201)
    return {
      id: r.body.project.id as string,
      columns: r.body.columns as Array<{ id: string; name: string; kind: string }>
    }
  }
  const column = async (projectId: string, body: Record<string, unknown>) => {
    const r = await call(base, "POST", "/v1/columns", { body: { projectId, ...body }, headers: h })
    expect(r.status, r.text).toBe(201)
    return r.body
  }
  const patch = (id: string, body: unknown) => call(base, "PATCH", `/v1/columns/${id}`, { body, headers: h })
  const board = async (projectId: string) => {
    const r = await call(base, "GET", `/v1/board/${projectId}`, { headers: h })
    expect(r.status).toBe(200)
    return r.body as { columns: Array<{ id: string; name: string; kind: string }> }
  }
  const kindsOf = async (projectId: string) => (await board(projectId)).columns.map((c) => [c.name, c.kind])
  const newCard = async (projectId: string, columnId: string, title: string, priority = "medium") => {
    const r = await call(base, "POST", "/v1/cards", { body: { projectId, columnId, title, priority }, headers: h })
    expect(r.status).toBe(201)
    return r.body as { id: string }
  }
  const next = (projectId: string, body: unknown = {}) =>
    call(base, "POST", `/v1/projects/${projectId}/claim-next`, { body, headers: h })

  it("the kanban template makes To Do todo, In Progress in_progress, Done done, in its answer and on the board", async () => {
    const p = await project("Template", "kanban")
    expect(p.columns.map((c) => [c.name, c.kind])).toEqual([
      ["To Do", "todo"],
      ["In Progress", "in_progress"],
      ["Done", "done"]
    ])
    expect(await kindsOf(p.id)).toEqual([
      ["To Do", "todo"],
      ["In Progress", "in_progress"],
      ["Done", "done"]
    ])
  })

  it("a column created without a kind is todo on an empty board and in_progress after, wherever it goes", async () => {
    const p = await project("Blank")
    expect(p.columns).toEqual([])
    const first = await column(p.id, { name: "Inbox" })
    expect(first.kind).toBe("todo")
    expect((await column(p.id, { name: "Doing" })).kind).toBe("in_progress")
    // in front of the first column, still a later column of the board
    expect((await column(p.id, { name: "Front", position: 0 })).kind).toBe("in_progress")
    expect(await kindsOf(p.id)).toEqual([
      ["Front", "in_progress"],
      ["Inbox", "todo"],
      ["Doing", "in_progress"]
    ])
  })

  it("create and patch take each kind, and the board shows what was set", async () => {
    const p = await project("Each kind")
    // an explicit kind wins over the default, on an empty board too
    const shipped = await column(p.id, { name: "Shipped", kind: "done" })
    expect(shipped.kind).toBe("done")
    expect((await column(p.id, { name: "Queue", kind: "todo" })).kind).toBe("todo")
    const doing = await column(p.id, { name: "Doing", kind: "in_progress" })
    expect(doing.kind).toBe("in_progress")
    for (const kind of ["todo", "done", "in_progress"]) {
      const r = await patch(doing.id, { kind })
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ id: doing.id, name: "Doing", kind })
      expect((await board(p.id)).columns.find((c) => c.id === doing.id)!.kind).toBe(kind)
    }
    // a rename or a move leaves the kind as it is
    const moved = await patch(shipped.id, { name: "Released", position: 2 })
    expect(moved.body).toMatchObject({ name: "Released", position: 2, kind: "done" })
    const both = await patch(shipped.id, { name: "Live", kind: "in_progress" })
    expect(both.body).toMatchObject({ name: "Live", kind: "in_progress" })
  })

  it("answers 400 {error} naming the field for another kind, on create and on patch, and changes nothing", async () => {
    const p = await project("Bad kinds", "kanban")
    for (const kind of ["doing", "Done", "", null, 3, ["todo"]]) {
      const created = await call(base, "POST", "/v1/columns", {
        body: { projectId: p.id, name: "X", kind },
        headers: h
      })
      expect(created.status, JSON.stringify(kind)).toBe(400)
      expect(typeof created.body.error).toBe("string")
      expect(created.body.error).toMatch(/kind/)
      const patched = await patch(p.columns[0]!.id, { kind })
      expect(patched.status, JSON.stringify(kind)).toBe(400)
      expect(patched.body.error).toMatch(/kind/)
    }
    // a caller other than HTTP (MCP, commands) decodes with the same schemas the contract
    // does, so it is refused the same way before the core is reached (the core's types take
    // only a decoded kind)
    const refusals = await Effect.runPromise(
      Effect.all([
        Effect.flip(decodeInput(ColumnCreate)({ projectId: p.id, name: "X", kind: "doing" })),
        Effect.flip(decodeInput(ColumnPatch)({ kind: "doing" }))
      ])
    )
    for (const refused of refusals) {
      expect(refused._tag).toBe("InvalidInput")
      expect(refused.message).toMatch(/^kind: /)
      expect(refused.message).toContain('"todo" | "in_progress" | "done"')
    }
    expect(await kindsOf(p.id)).toEqual([
      ["To Do", "todo"],
      ["In Progress", "in_progress"],
      ["Done", "done"]
    ])
  })

  it("claim-next without a column takes from todo columns only, whatever they are called or where they sit", async () => {
    const p = await project("Queue by kind", "kanban")
    const [todo, doing, done] = p.columns
    // names and places that would mislead a queue going by either: the done column is first and
    // called "Ready", the todo column is last and called "Done"
    expect((await patch(done!.id, { name: "Ready", position: 0 })).status).toBe(200)
    expect((await patch(todo!.id, { name: "Finished", position: 2 })).status).toBe(200)
    expect(await kindsOf(p.id)).toEqual([
      ["Ready", "done"],
      ["In Progress", "in_progress"],
      ["Finished", "todo"]
    ])
    const finished = await newCard(p.id, done!.id, "already shipped", "urgent")
    const underway = await newCard(p.id, doing!.id, "being worked on", "urgent")
    const waiting = await newCard(p.id, todo!.id, "waiting", "low")
    const taken = await next(p.id)
    expect(taken.status).toBe(201)
    expect(taken.body.card.id).toBe(waiting.id)
    // only cards in done and in_progress columns are left: none is work waiting
    const none = await next(p.id)
    expect(none.status).toBe(204)
    expect(none.text).toBe("")
    // a column named outright is still the caller's choice, whatever its kind
    const named = await next(p.id, { columnId: doing!.id })
    expect(named.body.card.id).toBe(underway.id)
    // a todo column made done leaves the queue; a done column made todo joins it
    expect((await patch(done!.id, { kind: "todo" })).status).toBe(200)
    const again = await next(p.id)
    expect(again.status).toBe(201)
    expect(again.body.card.id).toBe(finished.id)
  })

  it("answers 204 when only cards in a done column are left", async () => {
    const p = await project("Only done", "kanban")
    const done = p.columns.find((c) => c.kind === "done")!
    await newCard(p.id, done.id, "shipped one", "urgent")
    await newCard(p.id, done.id, "shipped two", "high")
    const r = await next(p.id)
    expect(r.status).toBe(204)
    const sessions = await server.query(`SELECT id FROM agent_sessions WHERE project_id = $1`, [p.id])
    expect(sessions).toEqual([])
  })

  it("migration 0015 gives existing columns kinds by board order: first todo, last done, the rest in_progress", async () => {
    // boards as they were before kinds: a one-column board, two columns, a kanban board whose
    // columns were reordered, four columns, and a board without columns
    const one = await project("Mig one")
    const solo = await column(one.id, { name: "Only" })
    const two = await project("Mig two")
    await column(two.id, { name: "A" })
    await column(two.id, { name: "B" })
    const three = await project("Mig kanban", "kanban")
    expect((await patch(three.columns[2]!.id, { position: 0 })).status).toBe(200)
    const four = await project("Mig four")
    for (const name of ["W", "X", "Y", "Z"]) await column(four.id, { name })
    const empty = await project("Mig empty")
    // a card waiting in the one-column board stays in the queue after the migration
    const waiting = await newCard(one.id, solo.id, "waiting")

    // back to the schema before 0015, then the migration file as the migrator runs it
    await server.query(`ALTER TABLE board_columns DROP COLUMN kind`)
    for (const statement of splitSql(fs.readFileSync(migration, "utf8"))) await server.query(statement)

    expect(await kindsOf(one.id)).toEqual([["Only", "todo"]])
    expect(await kindsOf(two.id)).toEqual([
      ["A", "todo"],
      ["B", "done"]
    ])
    expect(await kindsOf(three.id)).toEqual([
      ["Done", "todo"],
      ["To Do", "in_progress"],
      ["In Progress", "done"]
    ])
    expect(await kindsOf(four.id)).toEqual([
      ["W", "todo"],
      ["X", "in_progress"],
      ["Y", "in_progress"],
      ["Z", "done"]
    ])
    expect(await kindsOf(empty.id)).toEqual([])
    // the default was only for the migration: a write without a kind is refused by the database
    await expect(
      server.query(`INSERT INTO board_columns (project_id, name, position) VALUES ($1, 'raw', 9)`, [empty.id])
    ).rejects.toThrow()
    await expect(server.query(`UPDATE board_columns SET kind = 'later' WHERE id = $1`, [solo.id])).rejects.toThrow()
    const taken = await next(one.id)
    expect(taken.body.card.id).toBe(waiting.id)
    // and the API goes on as before
    expect((await column(empty.id, { name: "First" })).kind).toBe("todo")
  })
})
