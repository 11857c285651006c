/**
 * The access matrix of every board endpoint, over real HTTP on each database:
 *   1. the owner succeeds, with the documented status and body shape;
 *   2. another user gets 404 {error} on every one of the owner's resources, and nothing changes;
 *   3. ids of someone else's board inside one's own requests are 404, ids of another project
 *      (or workspace) of one's own are 400;
 *   4. a workspace member can do everything the owner can;
 *   5. search never crosses users;
 *   6. a credential whose grant does not cover the workspace is refused (403 / WorkspaceNotGranted),
 *      checked through the core services with a test-only OAuth principal;
 *   7. no (or a bogus) credential is 401 with a challenge everywhere.
 */
import {
  Access,
  Boards,
  CardLinks,
  Cards,
  type CardId,
  type CardLinkId,
  type ColumnId,
  Columns,
  Labels,
  type Principal,
  type ProjectId,
  Search,
  type SubtaskId,
  Subtasks,
  type LabelId,
  type WorkspaceId,
  Workspaces,
  Members
} from "@board/core"
import { Effect } from "effect"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key, type Reply } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/** A word no other card contains, so a search finds exactly what a test made. */
const uniqueWord = () => `zq${crypto.randomBytes(6).toString("hex")}`

// ids branded as the core's services take them (section 6 calls them directly)
interface Column {
  readonly id: ColumnId
  readonly name: string
}

/**
 * A small board of the owner's, made fresh for each test so that every test starts from a known
 * state: a kanban project (its own, so reading it back is cheap) with three cards, two labels (one
 * attached), a subtask, a link and an empty extra column.
 */
interface Fixture {
  readonly word: string
  readonly workspaceId: WorkspaceId
  readonly projectId: ProjectId
  readonly columns: ReadonlyArray<Column>
  /** Holds the word in its title, the attached label, the subtask and the outgoing link. */
  readonly card: CardId
  /** The target of `link`. */
  readonly target: CardId
  /** Linked to nothing: a target for new links. */
  readonly third: CardId
  readonly label: LabelId
  /** Not attached to any card. */
  readonly spare: LabelId
  readonly subtask: SubtaskId
  readonly link: CardLinkId
  readonly emptyColumn: ColumnId
}

interface Req {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE"
  readonly path: string
  readonly body?: unknown
}

const expectErrorBody = (r: Reply) => {
  expect(r.body).toEqual({ error: expect.any(String) })
  expect(r.body.error.length).toBeGreaterThan(0)
}

const expectLabel = (l: any, projectId: string) =>
  expect(l).toEqual({
    id: expect.stringMatching(UUID),
    projectId,
    name: expect.any(String),
    color: l.color === null ? null : expect.stringMatching(/^#[0-9a-f]{6}$/),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO)
  })

const expectSubtask = (s: any, cardId: string) =>
  expect(s).toEqual({
    id: expect.stringMatching(UUID),
    cardId,
    title: expect.any(String),
    completed: expect.any(Boolean),
    position: expect.any(Number),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO)
  })

const expectCard = (c: any, fields: { projectId: string; columnId?: string; title?: string }) => {
  expect(c).toEqual({
    id: expect.stringMatching(UUID),
    projectId: fields.projectId,
    columnId: fields.columnId ?? expect.stringMatching(UUID),
    position: expect.any(Number),
    ref: expect.stringMatching(/^[A-Z0-9]+-\d+$/),
    title: fields.title ?? expect.any(String),
    description: c.description === null ? null : expect.any(String),
    priority: expect.stringMatching(/^(low|medium|high|urgent)$/),
    labels: expect.any(Array),
    subtasks: expect.any(Array),
    assigneeIds: expect.any(Array),
    dueAt: null,
    source: "api",
    intakeTokenId: null,
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO),
    archivedAt: null,
    claim: null,
    shippedAt: null,
    shippedTo: null,
    pullRequestMark: null
  })
  for (const l of c.labels) expectLabel(l, fields.projectId)
  for (const s of c.subtasks) expectSubtask(s, c.id)
}

const expectColumn = (c: any, projectId: string, name?: string) =>
  expect(c).toEqual({
    id: expect.stringMatching(UUID),
    projectId,
    name: name ?? expect.any(String),
    position: expect.any(Number),
    kind: expect.stringMatching(/^(todo|in_progress|done)$/),
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO)
  })

const expectLink = (
  l: any,
  fields: { sourceId: string; targetId: string; linkType: string; direction: "outgoing" | "incoming" }
) =>
  expect(l).toEqual({
    id: expect.stringMatching(UUID),
    ...fields,
    card: {
      id: fields.direction === "outgoing" ? fields.targetId : fields.sourceId,
      ref: expect.any(String),
      title: expect.any(String)
    },
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO)
  })

const expectProject = (p: any, workspaceId: string) =>
  expect(p).toEqual({
    id: expect.stringMatching(UUID),
    workspaceId,
    name: expect.any(String),
    refPrefix: expect.any(String),
    archivedAt: null,
    automation: { pullRequestOpened: true, pullRequestMerged: true },
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO)
  })

describe.each(backends)("board access matrix on %s", (backend) => {
  let server: TestServer
  let base: string
  /** The owner of the board under test. */
  let A: Account
  /** Another user, with a workspace and a board of his own. */
  let B: Account
  /** A user added to A's workspace as a member. */
  let C: Account
  /** A second workspace of A's (A is its owner), with one kanban project. */
  let A2: { workspaceId: string; projectId: string; columns: ReadonlyArray<Column> }

  /** Calls as `who` (an API key), or with no credential when `who` is undefined. */
  const as = (who: Account | string | undefined, req: Req) =>
    call(base, req.method, req.path, {
      ...(req.body !== undefined ? { body: req.body } : {}),
      ...(who === undefined ? {} : { headers: key(typeof who === "string" ? who : who.apiKey) })
    })

  /** A request that must succeed (setup and read-backs), else the test stops with the reply. */
  const must = async (who: Account, req: Req, status: number) => {
    const r = await as(who, req)
    if (r.status !== status) throw new Error(`${req.method} ${req.path} → ${r.status} (expected ${status}): ${r.text}`)
    return r.body
  }

  const newProject = async (owner: Account, workspaceId: string, name = "Website") => {
    const r = await must(
      owner,
      { method: "POST", path: "/v1/projects", body: { workspaceId, name, template: "kanban" } },
      201
    )
    return { projectId: r.project.id as ProjectId, columns: r.columns as ReadonlyArray<Column> }
  }

  const newCard = async (who: Account, projectId: string, columnId: string, title: string, description?: string) =>
    (
      await must(
        who,
        {
          method: "POST",
          path: "/v1/cards",
          body: { projectId, columnId, title, ...(description !== undefined ? { description } : {}) }
        },
        201
      )
    ).id as CardId

  /** A fresh board of A's (see Fixture), made with A's key. */
  const fixture = async (): Promise<Fixture> => {
    const word = uniqueWord()
    const { projectId, columns } = await newProject(A, A.workspaceId)
    const card = await newCard(A, projectId, columns[0]!.id, `Fix the ${word} page`, "the first card")
    const target = await newCard(A, projectId, columns[0]!.id, "Target card")
    const third = await newCard(A, projectId, columns[1]!.id, "Third card")
    const label = (
      await must(A, { method: "POST", path: "/v1/labels", body: { projectId, name: "bug", color: "#ff0000" } }, 201)
    ).id
    const spare = (await must(A, { method: "POST", path: "/v1/labels", body: { projectId, name: "spare" } }, 201)).id
    await must(A, { method: "POST", path: `/v1/cards/${card}/labels`, body: { labelId: label } }, 200)
    const subtask = (
      await must(A, { method: "POST", path: "/v1/subtasks", body: { cardId: card, title: "write tests" } }, 201)
    ).id
    const link = (
      await must(
        A,
        { method: "POST", path: `/v1/cards/${card}/links`, body: { targetId: target, linkType: "blocks" } },
        201
      )
    ).id
    const emptyColumn = (
      await must(A, { method: "POST", path: "/v1/columns", body: { projectId, name: "Parked" } }, 201)
    ).id
    return {
      word,
      workspaceId: A.workspaceId as WorkspaceId,
      projectId,
      columns,
      card,
      target,
      third,
      label,
      spare,
      subtask,
      link,
      emptyColumn
    }
  }

  /** A fixture-shaped value of ids only, for inspecting the table without a server. */
  const none = "" as never
  const placeholder: Fixture = {
    word: "placeholder",
    workspaceId: none,
    projectId: none,
    columns: [
      { id: none, name: "To Do" },
      { id: none, name: "In Progress" },
      { id: none, name: "Done" }
    ],
    card: none,
    target: none,
    third: none,
    label: none,
    spare: none,
    subtask: none,
    link: none,
    emptyColumn: none
  }

  /** The same fixture with every id replaced by one that exists nowhere. */
  const ghost = (f: Fixture): Fixture => {
    const fresh = () => crypto.randomUUID() as never
    return {
      ...f,
      workspaceId: fresh(),
      projectId: fresh(),
      columns: f.columns.map((c) => ({ ...c, id: fresh() })),
      card: fresh(),
      target: fresh(),
      third: fresh(),
      label: fresh(),
      spare: fresh(),
      subtask: fresh(),
      link: fresh(),
      emptyColumn: fresh()
    }
  }

  // ---- read-backs, always with A's key ----

  const getCard = (id: string) => as(A, { method: "GET", path: `/v1/cards/${id}` })
  const readCard = async (id: string) => must(A, { method: "GET", path: `/v1/cards/${id}` }, 200)
  const readBoard = async (projectId: string) => must(A, { method: "GET", path: `/v1/board/${projectId}` }, 200)
  const readLinks = async (cardId: string) =>
    must(A, { method: "GET", path: `/v1/cards/${cardId}/links` }, 200) as Promise<Array<any>>

  /** Everything A can read about a fixture's board, to compare before and after an attempt. */
  const snapshot = async (f: Fixture) => {
    const board = await readBoard(f.projectId)
    const links = await Promise.all(board.cards.map((c: any) => readLinks(c.id)))
    const projects = await must(A, { method: "GET", path: `/v1/workspaces/${f.workspaceId}/projects` }, 200)
    const members = await must(A, { method: "GET", path: `/v1/workspaces/${f.workspaceId}/members` }, 200)
    return { board, links, projects, members, rows: await rowCounts() }
  }

  /** Row counts of every board table in the whole database: nothing may be created anywhere. */
  const rowCounts = async () =>
    (
      await server.query(`
      SELECT (SELECT count(*) FROM workspaces)::int AS workspaces,
             (SELECT count(*) FROM workspace_members)::int AS workspace_members,
             (SELECT count(*) FROM projects)::int AS projects,
             (SELECT count(*) FROM board_columns)::int AS board_columns,
             (SELECT count(*) FROM cards)::int AS cards,
             (SELECT count(*) FROM labels)::int AS labels,
             (SELECT count(*) FROM card_labels)::int AS card_labels,
             (SELECT count(*) FROM subtasks)::int AS subtasks,
             (SELECT count(*) FROM card_links)::int AS card_links`)
    )[0]

  beforeAll(async () => {
    // the matrix makes many requests as one user; the rate limit is tested elsewhere
    server = await startServer(backend, { RATE_LIMIT: "1000000/60s" })
    base = server.baseUrl
    A = await bootstrap(base, "owner")
    B = await bootstrap(base, "other")
    C = await bootstrap(base, "member")
    const added = await call(base, "POST", `/v1/workspaces/${A.workspaceId}/members`, {
      body: { email: C.email },
      headers: key(A.apiKey)
    })
    if (added.status !== 201) throw new Error(`adding the member failed: ${added.status} ${added.text}`)
    const ws2 = await call(base, "POST", "/v1/workspaces", {
      body: { name: "A's second workspace" },
      headers: { authorization: `Bearer ${A.session}` }
    })
    if (ws2.status !== 201) throw new Error(`second workspace failed: ${ws2.status} ${ws2.text}`)
    A2 = { workspaceId: ws2.body.workspace.id, ...(await newProject(A, ws2.body.workspace.id, "Other")) }
  })
  afterAll(() => server?.stop())

  /**
   * Every board endpoint: the request on a fixture, what success looks like (status, body, and the
   * effect read back with A's key), and what must still hold after a refused attempt.
   */
  interface Row {
    readonly name: string
    readonly req: (f: Fixture) => Req
    /** Not about one resource: search answers 200 to anyone (see the search tests). */
    readonly unscoped?: true
    readonly ok: (r: Reply, f: Fixture, actor: Account) => Promise<void>
    readonly untouched?: (f: Fixture) => Promise<void>
  }

  const cardUnchanged = async (f: Fixture) => {
    const c = await readCard(f.card)
    expect(c.title).toBe(`Fix the ${f.word} page`)
    expect(c.description).toBe("the first card")
    expect(c.columnId).toBe(f.columns[0]!.id)
    expect(c.position).toBe(0)
    expect(c.labels.map((l: any) => l.id)).toEqual([f.label])
    expect(c.subtasks.map((s: any) => [s.id, s.completed])).toEqual([[f.subtask, false]])
  }

  const rows: ReadonlyArray<Row> = [
    {
      name: "GET /v1/board/{projectId}",
      req: (f) => ({ method: "GET", path: `/v1/board/${f.projectId}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expect(Object.keys(r.body).sort()).toEqual(["cards", "columns", "eventCursor", "labels", "project"])
        expectProject(r.body.project, f.workspaceId)
        expect(r.body.project.id).toBe(f.projectId)
        expect(r.body.columns.map((c: any) => c.name)).toEqual(["To Do", "In Progress", "Done", "Parked"])
        for (const c of r.body.columns) expectColumn(c, f.projectId)
        expect(r.body.cards.map((c: any) => c.id)).toEqual([f.card, f.target, f.third])
        for (const c of r.body.cards) expectCard(c, { projectId: f.projectId })
        expect(r.body.labels.map((l: any) => l.id)).toEqual([f.label, f.spare])
        for (const l of r.body.labels) expectLabel(l, f.projectId)
      }
    },
    {
      name: "POST /v1/cards",
      req: (f) => ({
        method: "POST",
        path: "/v1/cards",
        body: { projectId: f.projectId, columnId: f.columns[1]!.id, title: "Created card", priority: "high" }
      }),
      ok: async (r, f) => {
        expect(r.status).toBe(201)
        expectCard(r.body, { projectId: f.projectId, columnId: f.columns[1]!.id, title: "Created card" })
        expect(r.body.priority).toBe("high")
        expect(r.body.position).toBe(1)
        const board = await readBoard(f.projectId)
        expect(board.cards.map((c: any) => c.id)).toEqual([f.card, f.target, f.third, r.body.id])
      },
      untouched: async (f) => {
        const board = await readBoard(f.projectId)
        expect(board.cards.map((c: any) => c.id)).toEqual([f.card, f.target, f.third])
      }
    },
    {
      name: "GET /v1/cards/{id}",
      req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expectCard(r.body, { projectId: f.projectId, columnId: f.columns[0]!.id, title: `Fix the ${f.word} page` })
        expect(r.body.id).toBe(f.card)
        expect(r.body.labels.map((l: any) => l.id)).toEqual([f.label])
        expect(r.body.subtasks.map((s: any) => s.id)).toEqual([f.subtask])
      }
    },
    {
      name: "PATCH /v1/cards/{id}",
      req: (f) => ({
        method: "PATCH",
        path: `/v1/cards/${f.card}`,
        body: { title: "Renamed", description: "changed", priority: "urgent" }
      }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expectCard(r.body, { projectId: f.projectId, columnId: f.columns[0]!.id, title: "Renamed" })
        expect(r.body).toMatchObject({ id: f.card, description: "changed", priority: "urgent" })
        expect(await readCard(f.card)).toMatchObject({ title: "Renamed", description: "changed", priority: "urgent" })
      },
      untouched: cardUnchanged
    },
    {
      name: "DELETE /v1/cards/{id}",
      req: (f) => ({ method: "DELETE", path: `/v1/cards/${f.card}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(204)
        expect(r.text).toBe("")
        expect((await getCard(f.card)).status).toBe(404)
        expect((await readCard(f.target)).position).toBe(0)
      },
      untouched: cardUnchanged
    },
    {
      name: "POST /v1/cards/{id}/move",
      req: (f) => ({
        method: "POST",
        path: `/v1/cards/${f.card}/move`,
        body: { columnId: f.columns[1]!.id, position: 0 }
      }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expectCard(r.body, { projectId: f.projectId, columnId: f.columns[1]!.id })
        expect(r.body).toMatchObject({ id: f.card, position: 0 })
        expect(await readCard(f.card)).toMatchObject({ columnId: f.columns[1]!.id, position: 0 })
        expect(await readCard(f.third)).toMatchObject({ columnId: f.columns[1]!.id, position: 1 })
        expect(await readCard(f.target)).toMatchObject({ columnId: f.columns[0]!.id, position: 0 })
      },
      untouched: async (f) => {
        await cardUnchanged(f)
        expect(await readCard(f.third)).toMatchObject({ columnId: f.columns[1]!.id, position: 0 })
      }
    },
    {
      name: "GET /v1/search",
      unscoped: true,
      req: (f) => ({ method: "GET", path: `/v1/search?q=${f.word}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expect(r.body.map((c: any) => c.id)).toEqual([f.card])
        expectCard(r.body[0], { projectId: f.projectId, columnId: f.columns[0]!.id })
      }
    },
    {
      name: "POST /v1/columns",
      req: (f) => ({
        method: "POST",
        path: "/v1/columns",
        body: { projectId: f.projectId, name: "Review", position: 1 }
      }),
      ok: async (r, f) => {
        expect(r.status).toBe(201)
        expectColumn(r.body, f.projectId, "Review")
        expect(r.body.position).toBe(1)
        const board = await readBoard(f.projectId)
        expect(board.columns.map((c: any) => c.name)).toEqual(["To Do", "Review", "In Progress", "Done", "Parked"])
      },
      untouched: async (f) => {
        const board = await readBoard(f.projectId)
        expect(board.columns.map((c: any) => c.name)).toEqual(["To Do", "In Progress", "Done", "Parked"])
      }
    },
    {
      name: "PATCH /v1/columns/{id}",
      req: (f) => ({
        method: "PATCH",
        path: `/v1/columns/${f.columns[0]!.id}`,
        body: { name: "Backlog", position: 2 }
      }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expectColumn(r.body, f.projectId, "Backlog")
        expect(r.body).toMatchObject({ id: f.columns[0]!.id, position: 2 })
        const board = await readBoard(f.projectId)
        expect(board.columns.map((c: any) => c.name)).toEqual(["In Progress", "Done", "Backlog", "Parked"])
      },
      untouched: async (f) => {
        const board = await readBoard(f.projectId)
        expect(board.columns.map((c: any) => [c.id, c.name, c.position])).toEqual([
          ...f.columns.map((c, i) => [c.id, c.name, i]),
          [f.emptyColumn, "Parked", 3]
        ])
      }
    },
    {
      name: "DELETE /v1/columns/{id}",
      req: (f) => ({ method: "DELETE", path: `/v1/columns/${f.emptyColumn}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(204)
        expect(r.text).toBe("")
        const board = await readBoard(f.projectId)
        expect(board.columns.map((c: any) => c.id)).toEqual(f.columns.map((c) => c.id))
      },
      untouched: async (f) => {
        const board = await readBoard(f.projectId)
        expect(board.columns.map((c: any) => c.id)).toEqual([...f.columns.map((c) => c.id), f.emptyColumn])
      }
    },
    {
      name: "POST /v1/labels",
      req: (f) => ({
        method: "POST",
        path: "/v1/labels",
        body: { projectId: f.projectId, name: "feature", color: "#00AA00" }
      }),
      ok: async (r, f) => {
        expect(r.status).toBe(201)
        expectLabel(r.body, f.projectId)
        expect(r.body).toMatchObject({ name: "feature", color: "#00aa00" })
        const board = await readBoard(f.projectId)
        expect(board.labels.map((l: any) => l.name)).toEqual(["bug", "feature", "spare"])
      },
      untouched: async (f) => {
        const board = await readBoard(f.projectId)
        expect(board.labels.map((l: any) => l.id)).toEqual([f.label, f.spare])
      }
    },
    {
      name: "POST /v1/cards/{id}/labels",
      req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/labels`, body: { labelId: f.spare } }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expectCard(r.body, { projectId: f.projectId })
        expect(r.body.labels.map((l: any) => l.id)).toEqual([f.label, f.spare])
        expect((await readCard(f.card)).labels.map((l: any) => l.id)).toEqual([f.label, f.spare])
      },
      untouched: cardUnchanged
    },
    {
      name: "DELETE /v1/cards/{id}/labels/{labelId}",
      req: (f) => ({ method: "DELETE", path: `/v1/cards/${f.card}/labels/${f.label}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(204)
        expect(r.text).toBe("")
        expect((await readCard(f.card)).labels).toEqual([])
      },
      untouched: cardUnchanged
    },
    {
      name: "POST /v1/subtasks",
      req: (f) => ({ method: "POST", path: "/v1/subtasks", body: { cardId: f.card, title: "review", position: 0 } }),
      ok: async (r, f) => {
        expect(r.status).toBe(201)
        expectSubtask(r.body, f.card)
        expect(r.body).toMatchObject({ title: "review", completed: false, position: 0 })
        expect((await readCard(f.card)).subtasks.map((s: any) => [s.id, s.position])).toEqual([
          [r.body.id, 0],
          [f.subtask, 1]
        ])
      },
      untouched: cardUnchanged
    },
    {
      name: "POST /v1/subtasks/{id}/toggle",
      req: (f) => ({ method: "POST", path: `/v1/subtasks/${f.subtask}/toggle` }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expectSubtask(r.body, f.card)
        expect(r.body).toMatchObject({ id: f.subtask, completed: true })
        expect((await readCard(f.card)).subtasks.map((s: any) => s.completed)).toEqual([true])
      },
      untouched: cardUnchanged
    },
    {
      name: "DELETE /v1/subtasks/{id}",
      req: (f) => ({ method: "DELETE", path: `/v1/subtasks/${f.subtask}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(204)
        expect(r.text).toBe("")
        expect((await readCard(f.card)).subtasks).toEqual([])
      },
      untouched: cardUnchanged
    },
    {
      name: "GET /v1/cards/{id}/links",
      req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}/links` }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        expect(r.body).toHaveLength(1)
        expectLink(r.body[0], { sourceId: f.card, targetId: f.target, linkType: "blocks", direction: "outgoing" })
        expect(r.body[0].id).toBe(f.link)
      }
    },
    {
      name: "POST /v1/cards/{id}/links",
      req: (f) => ({
        method: "POST",
        path: `/v1/cards/${f.card}/links`,
        body: { targetId: f.third, linkType: "relates_to" }
      }),
      ok: async (r, f) => {
        expect(r.status).toBe(201)
        expectLink(r.body, { sourceId: f.card, targetId: f.third, linkType: "relates_to", direction: "outgoing" })
        expect((await readLinks(f.card)).map((l) => l.id)).toEqual([f.link, r.body.id])
        const incoming = await readLinks(f.third)
        expect(incoming).toHaveLength(1)
        expectLink(incoming[0], { sourceId: f.card, targetId: f.third, linkType: "relates_to", direction: "incoming" })
      },
      untouched: async (f) => {
        expect((await readLinks(f.card)).map((l) => l.id)).toEqual([f.link])
        expect(await readLinks(f.third)).toEqual([])
      }
    },
    {
      name: "DELETE /v1/links/{id}",
      req: (f) => ({ method: "DELETE", path: `/v1/links/${f.link}` }),
      ok: async (r, f) => {
        expect(r.status).toBe(204)
        expect(r.text).toBe("")
        expect(await readLinks(f.card)).toEqual([])
        expect(await readLinks(f.target)).toEqual([])
      },
      untouched: async (f) => {
        expect((await readLinks(f.card)).map((l) => l.id)).toEqual([f.link])
        expect((await readLinks(f.target)).map((l) => l.id)).toEqual([f.link])
      }
    },
    {
      name: "GET /v1/workspaces/{id}/projects",
      req: (f) => ({ method: "GET", path: `/v1/workspaces/${f.workspaceId}/projects` }),
      ok: async (r, f) => {
        expect(r.status).toBe(200)
        for (const p of r.body) expectProject(p, f.workspaceId)
        const ids = r.body.map((p: any) => p.id)
        expect(ids).toContain(A.projectId)
        expect(ids).toContain(f.projectId)
        expect(ids).not.toContain(A2.projectId)
        expect(ids).not.toContain(B.projectId)
      }
    },
    {
      name: "GET /v1/workspaces/{id}/members",
      req: (f) => ({ method: "GET", path: `/v1/workspaces/${f.workspaceId}/members` }),
      ok: async (r) => {
        expect(r.status).toBe(200)
        expect(r.body).toEqual([
          {
            id: A.userId,
            userId: A.userId,
            email: A.email,
            fullName: "owner",
            role: "owner",
            kind: "person",
            joinedAt: expect.stringMatching(ISO),
            createdAt: expect.stringMatching(ISO),
            updatedAt: expect.stringMatching(ISO)
          },
          {
            id: C.userId,
            userId: C.userId,
            email: C.email,
            fullName: "member",
            role: "member",
            kind: "person",
            joinedAt: expect.stringMatching(ISO),
            createdAt: expect.stringMatching(ISO),
            updatedAt: expect.stringMatching(ISO)
          }
        ])
      }
    }
  ]

  const scoped = rows.filter((r) => r.unscoped === undefined)
  const names = (list: ReadonlyArray<Row>) => list.map((r) => [r.name, r] as const)

  describe("1. the owner (A's API key on A's board)", () => {
    it.each(names(rows))("%s succeeds", async (_name, row) => {
      const f = await fixture()
      await row.ok(await as(A, row.req(f)), f, A)
    })
  })

  describe("2. another user (B's API key on A's board): 404 {error} and no effect", () => {
    it.each(names(scoped))("%s answers 404 and changes nothing", async (_name, row) => {
      const f = await fixture()
      const before = await snapshot(f)
      const r = await as(B, row.req(f))
      expect(r.status).toBe(404)
      expectErrorBody(r)
      await row.untouched?.(f)
      expect(await snapshot(f)).toEqual(before)
      // "not yours" and "does not exist" are indistinguishable
      const missing = await as(B, row.req(ghost(f)))
      expect(missing.status).toBe(404)
      expect(r.body.error.replace(UUID_ANYWHERE, "<id>")).toBe(missing.body.error.replace(UUID_ANYWHERE, "<id>"))
    })

    it("B's search for A's words answers 200 with none of A's cards", async () => {
      const f = await fixture()
      const r = await as(B, { method: "GET", path: `/v1/search?q=${f.word}` })
      expect(r.status).toBe(200)
      expect(r.body).toEqual([])
    })
  })

  describe("3. ids in bodies", () => {
    describe("another user's ids inside one's own requests: 404, nothing changes", () => {
      /** B's own card in B's own board, then one attempt that names A's ids. */
      const cases: ReadonlyArray<[string, (f: Fixture, bCard: string) => Req]> = [
        [
          "POST /v1/cards with A's projectId and columnId",
          (f) => ({
            method: "POST",
            path: "/v1/cards",
            body: { projectId: f.projectId, columnId: f.columns[0]!.id, title: "intruder" }
          })
        ],
        [
          "POST /v1/cards with B's projectId and A's columnId",
          (f) => ({
            method: "POST",
            path: "/v1/cards",
            body: { projectId: B.projectId, columnId: f.columns[0]!.id, title: "intruder" }
          })
        ],
        [
          "POST /v1/cards with A's projectId and B's columnId",
          () => ({
            method: "POST",
            path: "/v1/cards",
            body: { projectId: A.projectId, columnId: B.columns[0]!.id, title: "intruder" }
          })
        ],
        [
          "POST /v1/cards/{B's card}/move into A's column",
          (f, bCard) => ({ method: "POST", path: `/v1/cards/${bCard}/move`, body: { columnId: f.columns[1]!.id } })
        ],
        [
          "POST /v1/cards/{B's card}/labels with A's label",
          (f, bCard) => ({ method: "POST", path: `/v1/cards/${bCard}/labels`, body: { labelId: f.spare } })
        ],
        [
          "DELETE /v1/cards/{B's card}/labels/{A's label}",
          (f, bCard) => ({ method: "DELETE", path: `/v1/cards/${bCard}/labels/${f.label}` })
        ],
        [
          "POST /v1/cards/{B's card}/links with A's card as target",
          (f, bCard) => ({
            method: "POST",
            path: `/v1/cards/${bCard}/links`,
            body: { targetId: f.third, linkType: "relates_to" }
          })
        ],
        [
          "POST /v1/subtasks with A's cardId",
          (f) => ({ method: "POST", path: "/v1/subtasks", body: { cardId: f.card, title: "intruder" } })
        ],
        [
          "POST /v1/columns with A's projectId",
          (f) => ({ method: "POST", path: "/v1/columns", body: { projectId: f.projectId, name: "intruder" } })
        ],
        [
          "POST /v1/labels with A's projectId",
          (f) => ({ method: "POST", path: "/v1/labels", body: { projectId: f.projectId, name: "intruder" } })
        ]
      ]

      it.each(cases)("%s → 404", async (_name, req) => {
        const f = await fixture()
        const bCard = await newCard(B, B.projectId, B.columns[0]!.id, "B's own card")
        const bBefore = await must(B, { method: "GET", path: `/v1/cards/${bCard}` }, 200)
        const bLinksBefore = await must(B, { method: "GET", path: `/v1/cards/${bCard}/links` }, 200)
        const bBoardBefore = await must(B, { method: "GET", path: `/v1/board/${B.projectId}` }, 200)
        const before = await snapshot(f)
        const r = await as(B, req(f, bCard))
        expect(r.status).toBe(404)
        expectErrorBody(r)
        expect(await snapshot(f)).toEqual(before)
        await cardUnchanged(f)
        expect(await must(B, { method: "GET", path: `/v1/cards/${bCard}` }, 200)).toEqual(bBefore)
        expect(await must(B, { method: "GET", path: `/v1/cards/${bCard}/links` }, 200)).toEqual(bLinksBefore)
        expect(await must(B, { method: "GET", path: `/v1/board/${B.projectId}` }, 200)).toEqual(bBoardBefore)
      })
    })

    describe("the same user's ids of another project or workspace: 400, nothing changes", () => {
      /** `f` is a fixture project of A's; `A.projectId` is another project in the same workspace. */
      const cases: ReadonlyArray<[string, (f: Fixture, other: { card: string; label: string }) => Req]> = [
        [
          "POST /v1/cards with a columnId of another project",
          (f) => ({
            method: "POST",
            path: "/v1/cards",
            body: { projectId: f.projectId, columnId: A.columns[0]!.id, title: "misfiled" }
          })
        ],
        [
          "POST /v1/cards with a columnId of a project in another workspace",
          (f) => ({
            method: "POST",
            path: "/v1/cards",
            body: { projectId: f.projectId, columnId: A2.columns[0]!.id, title: "misfiled" }
          })
        ],
        [
          "POST /v1/cards/{id}/move into another project's column",
          (f) => ({ method: "POST", path: `/v1/cards/${f.card}/move`, body: { columnId: A.columns[1]!.id } })
        ],
        [
          "POST /v1/cards/{id}/labels with a label of another project",
          (f, other) => ({ method: "POST", path: `/v1/cards/${f.card}/labels`, body: { labelId: other.label } })
        ],
        [
          "POST /v1/cards/{id}/links to a card in another workspace of the user",
          (f, other) => ({
            method: "POST",
            path: `/v1/cards/${f.card}/links`,
            body: { targetId: other.card, linkType: "relates_to" }
          })
        ],
        [
          "POST /v1/cards/{id}/links to itself",
          (f) => ({
            method: "POST",
            path: `/v1/cards/${f.card}/links`,
            body: { targetId: f.card, linkType: "relates_to" }
          })
        ]
      ]

      it.each(cases)("%s → 400", async (_name, req) => {
        const f = await fixture()
        const otherLabel = await must(
          A,
          { method: "POST", path: "/v1/labels", body: { projectId: A.projectId, name: uniqueWord() } },
          201
        )
        const otherCard = await newCard(A, A2.projectId, A2.columns[0]!.id, "in the second workspace")
        const before = await snapshot(f)
        const otherBoards = [await readBoard(A.projectId), await readBoard(A2.projectId)]
        const otherLinks = await readLinks(otherCard)
        const r = await as(A, req(f, { card: otherCard, label: otherLabel.id }))
        expect(r.status).toBe(400)
        expectErrorBody(r)
        expect(await snapshot(f)).toEqual(before)
        await cardUnchanged(f)
        expect([await readBoard(A.projectId), await readBoard(A2.projectId)]).toEqual(otherBoards)
        expect(await readLinks(otherCard)).toEqual(otherLinks)
      })
    })
  })

  describe("4. a workspace member (C's API key on A's board) can do what the owner can", () => {
    it("C is a member of A's workspace and lists it", async () => {
      const r = await as(C, { method: "GET", path: "/v1/workspaces" })
      expect(r.status).toBe(200)
      expect(r.body.map((w: any) => [w.id, w.role])).toEqual(
        expect.arrayContaining([
          [A.workspaceId, "member"],
          [C.workspaceId, "owner"]
        ])
      )
      expect(r.body).toHaveLength(2)
    })

    it.each(names(rows))("%s succeeds", async (_name, row) => {
      const f = await fixture()
      await row.ok(await as(C, row.req(f)), f, C)
    })
  })

  describe("5. search scoping", () => {
    it("A, B and C each find only the cards of their own workspaces", async () => {
      const word = uniqueWord()
      const aTitle = await newCard(A, A.projectId, A.columns[0]!.id, `Alpha ${word}`)
      const aDescription = await newCard(A, A.projectId, A.columns[1]!.id, "Alpha two", `mentions ${word} in the body`)
      const aOther = await newCard(A, A2.projectId, A2.columns[0]!.id, `Alpha elsewhere ${word}`)
      const bTitle = await newCard(B, B.projectId, B.columns[0]!.id, `Beta ${word}`)
      const cOwn = await newCard(C, C.projectId, C.columns[0]!.id, `Gamma ${word}`)
      const search = async (who: Account) => {
        const r = await as(who, { method: "GET", path: `/v1/search?q=${word}` })
        expect(r.status).toBe(200)
        return (r.body as Array<any>).map((c) => c.id).sort()
      }
      expect(await search(A)).toEqual([aTitle, aDescription, aOther].sort())
      expect(await search(B)).toEqual([bTitle])
      // C belongs to A's first workspace and his own, not to A's second one
      expect(await search(C)).toEqual([aTitle, aDescription, cOwn].sort())
      // an upper-case query is the same search
      const upper = await as(B, { method: "GET", path: `/v1/search?q=${word.toUpperCase()}` })
      expect(upper.status).toBe(200)
      expect(upper.body.map((c: any) => c.id)).toEqual([bTitle])
    })
  })

  describe("6. a credential whose grant does not cover the workspace (core services, test-only OAuth principal)", () => {
    const oauth = (userId: string, workspaces: ReadonlyArray<string>): Principal => ({
      userId,
      via: "oauth",
      workspaces: new Set(workspaces)
    })

    /** Each core method on a fixture; the same call must be refused outside the grant and work inside it. */
    const methods: ReadonlyArray<
      [string, (p: Principal, f: Fixture) => Effect.Effect<unknown, { readonly _tag: string }, any>]
    > = [
      [
        "Cards.get",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Cards).get(p, f.card)
          })
      ],
      [
        "Cards.update",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Cards).update(p, f.card, { title: "granted" })
          })
      ],
      [
        "Cards.move",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Cards).move(p, f.card, { columnId: f.columns[2]!.id })
          })
      ],
      [
        "Cards.remove",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Cards).remove(p, f.card)
          })
      ],
      [
        "Cards.create",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Cards).create(p, {
              projectId: f.projectId,
              columnId: f.columns[0]!.id,
              title: "granted"
            })
          })
      ],
      [
        "Columns.create",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Columns).create(p, { projectId: f.projectId, name: "granted" })
          })
      ],
      [
        "Columns.update",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Columns).update(p, f.columns[0]!.id, { name: "granted" })
          })
      ],
      [
        "Columns.remove",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Columns).remove(p, f.emptyColumn)
          })
      ],
      [
        "Labels.create",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Labels).create(p, { projectId: f.projectId, name: "granted" })
          })
      ],
      [
        "Labels.attach",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Labels).attach(p, f.card, f.spare)
          })
      ],
      [
        "Labels.detach",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Labels).detach(p, f.card, f.label)
          })
      ],
      [
        "Subtasks.create",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Subtasks).create(p, { cardId: f.card, title: "granted" })
          })
      ],
      [
        "Subtasks.toggle",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Subtasks).toggle(p, f.subtask)
          })
      ],
      [
        "Subtasks.remove",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Subtasks).remove(p, f.subtask)
          })
      ],
      [
        "CardLinks.list",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* CardLinks).list(p, f.card)
          })
      ],
      [
        "CardLinks.create",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* CardLinks).create(p, f.card, { targetId: f.third, linkType: "duplicates" })
          })
      ],
      [
        "CardLinks.remove",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* CardLinks).remove(p, f.link)
          })
      ],
      [
        "Boards.get",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Boards).get(p, f.projectId)
          })
      ],
      [
        "Workspaces.projects",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Workspaces).projects(p, f.workspaceId)
          })
      ],
      [
        "Members.list",
        (p, f) =>
          Effect.gen(function* () {
            return yield* (yield* Members).list(p, f.workspaceId)
          })
      ],
      ...(["workspace", "project", "column", "card", "label", "subtask", "link"] as const).map(
        (kind) =>
          [
            `Access.resolve(${kind})`,
            (p: Principal, f: Fixture) =>
              Effect.gen(function* () {
                const id = {
                  workspace: f.workspaceId,
                  project: f.projectId,
                  column: f.columns[0]!.id,
                  card: f.card,
                  label: f.label,
                  subtask: f.subtask,
                  link: f.link
                }[kind]
                const resolved = yield* (yield* Access).resolve(p, kind, id)
                expect(resolved).toEqual({
                  workspaceId: f.workspaceId,
                  projectId: kind === "workspace" ? undefined : f.projectId,
                  role: "owner",
                  archived: false,
                  projectName: kind === "workspace" ? undefined : expect.any(String)
                })
                return resolved
              })
          ] as [string, (p: Principal, f: Fixture) => Effect.Effect<unknown, { readonly _tag: string }, any>]
      )
    ]

    it.each(methods)("%s: WorkspaceNotGranted outside the grant, success inside it", async (name, method) => {
      const f = await fixture()
      const before = await snapshot(f)
      for (const outside of [[A2.workspaceId], [], [B.workspaceId]]) {
        const error = await server.run(method(oauth(A.userId, outside), f).pipe(Effect.flip))
        expect(error._tag).toBe("WorkspaceNotGranted")
      }
      expect(await snapshot(f)).toEqual(before)
      await server.run(method(oauth(A.userId, [A2.workspaceId, f.workspaceId]), f))
      // an API key reaches every workspace of its user
      const apiKeyPrincipal: Principal = { userId: A.userId, via: "apiKey", workspaces: "all" }
      if (/\.(get|list|projects|members)$|^Access/.test(name)) await server.run(method(apiKeyPrincipal, f))
    })

    it("a member refused by the grant gets WorkspaceNotGranted, a non-member NotFound even with a grant naming the workspace", async () => {
      const f = await fixture()
      const get = (p: Principal) =>
        server.run(
          Effect.gen(function* () {
            return yield* (yield* Cards).get(p, f.card)
          }).pipe(Effect.flip)
        )
      expect((await get(oauth(C.userId, [C.workspaceId])))._tag).toBe("WorkspaceNotGranted")
      expect((await get(oauth(B.userId, [f.workspaceId])))._tag).toBe("NotFound")
      expect((await get(oauth(B.userId, [B.workspaceId])))._tag).toBe("NotFound")
    })

    it("Search.cards matches only inside the grant", async () => {
      const word = uniqueWord()
      const inFirst = await newCard(A, A.projectId, A.columns[0]!.id, `First ${word}`)
      const inSecond = await newCard(A, A2.projectId, A2.columns[0]!.id, `Second ${word}`)
      const search = (p: Principal) =>
        server
          .run(
            Effect.gen(function* () {
              return yield* (yield* Search).cards(p, { q: word })
            })
          )
          .then((cards) => cards.map((c) => c.id).sort())
      expect(await search(oauth(A.userId, [A2.workspaceId]))).toEqual([inSecond])
      expect(await search(oauth(A.userId, []))).toEqual([])
      expect(await search(oauth(A.userId, [B.workspaceId]))).toEqual([])
      expect(await search(oauth(A.userId, [A.workspaceId]))).toEqual([inFirst])
      expect(await search(oauth(A.userId, [A.workspaceId, A2.workspaceId]))).toEqual([inFirst, inSecond].sort())
      expect(await search({ userId: A.userId, via: "apiKey", workspaces: "all" })).toEqual([inFirst, inSecond].sort())
      // a grant naming a workspace the user is not a member of reaches nothing there
      expect(await search(oauth(B.userId, [A.workspaceId, A2.workspaceId]))).toEqual([])
    })
  })

  describe("7. no credential or a bogus one: 401 with a challenge on every endpoint", () => {
    const credentials: ReadonlyArray<[string, string | undefined]> = [
      ["no credential", undefined],
      ["an unknown API key", `svc_${"0".repeat(36)}`]
    ]
    const cases = credentials.flatMap(([who, k]) => rows.map((row) => [who, row.name, k, row] as const))

    it.each(cases)("%s → %s answers 401 and changes nothing", async (_who, _name, k, row) => {
      const f = await fixture()
      const before = await snapshot(f)
      const r = await as(k, row.req(f))
      expect(r.status).toBe(401)
      expectErrorBody(r)
      expect(r.headers.get("www-authenticate")).toMatch(
        /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api"/
      )
      await row.untouched?.(f)
      expect(await snapshot(f)).toEqual(before)
    })

    const withBody = scoped.filter((row) => row.req(ghost(placeholder)).body !== undefined)
    it("the body-less cases cover every endpoint that takes a body", () => {
      expect(withBody.map((r) => r.name)).toEqual([
        "POST /v1/cards",
        "PATCH /v1/cards/{id}",
        "POST /v1/cards/{id}/move",
        "POST /v1/columns",
        "PATCH /v1/columns/{id}",
        "POST /v1/labels",
        "POST /v1/cards/{id}/labels",
        "POST /v1/subtasks",
        "POST /v1/cards/{id}/links"
      ])
    })

    it.each(withBody.map((row) => [row.name, row] as const))(
      "%s without a credential and without a body still answers 401, not 400",
      async (_name, row) => {
        const f = await fixture()
        const { body: _body, ...bare } = row.req(f)
        const r = await as(undefined, bare)
        expect(r.status).toBe(401)
        expectErrorBody(r)
        expect(r.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/)
      }
    )
  })
})
