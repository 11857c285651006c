/**
 * Issue 9 (part 3): random sequences of board operations run against the server and against a
 * small in-test model. After each step the board must equal the model: columns in order, cards
 * in column and position order (so positions are dense), refs unique, and a search for the
 * run's word returns exactly the cards the model holds. Fixed seed; MODEL_RUNS for longer runs.
 */
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

interface Model {
  columns: Array<{ id: string; cards: Array<string> }>
  titles: Map<string, string>
  refs: Set<string>
}
interface Real {
  base: string
  headers: Record<string, string>
  projectId: string
  word: string
}

const pick = <T>(list: ReadonlyArray<T>, n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length]
const allCards = (m: Model) => m.columns.flatMap((c) => c.cards)

class CreateCard implements fc.AsyncCommand<Model, Real> {
  readonly col: number
  readonly n: number
  constructor(col: number, n: number) {
    this.col = col
    this.n = n
  }
  check = (m: Readonly<Model>) => m.columns.length > 0
  async run(m: Model, r: Real) {
    const column = pick(m.columns, this.col)!
    const title = `${r.word} card ${this.n} ${m.titles.size}`
    const res = await call(r.base, "POST", "/v1/cards", {
      body: { projectId: r.projectId, columnId: column.id, title },
      headers: r.headers
    })
    expect(res.status).toBe(201)
    expect(res.body.position).toBe(column.cards.length)
    expect(m.refs.has(res.body.ref)).toBe(false)
    m.refs.add(res.body.ref)
    column.cards.push(res.body.id)
    m.titles.set(res.body.id, title)
  }
  toString = () => `create(col ${this.col})`
}

class MoveCard implements fc.AsyncCommand<Model, Real> {
  readonly card: number
  readonly col: number
  readonly pos: number | undefined
  constructor(card: number, col: number, pos: number | undefined) {
    this.card = card
    this.col = col
    this.pos = pos
  }
  check = (m: Readonly<Model>) => allCards(m as Model).length > 0
  async run(m: Model, r: Real) {
    const id = pick(allCards(m), this.card)!
    const from = m.columns.find((c) => c.cards.includes(id))!
    const to = pick(m.columns, this.col)!
    from.cards.splice(from.cards.indexOf(id), 1)
    const at = this.pos === undefined ? to.cards.length : Math.min(this.pos, to.cards.length)
    to.cards.splice(at, 0, id)
    const res = await call(r.base, "POST", `/v1/cards/${id}/move`, {
      body: { columnId: to.id, ...(this.pos === undefined ? {} : { position: this.pos }) },
      headers: r.headers
    })
    expect(res.status).toBe(200)
    expect(res.body.position).toBe(at)
  }
  toString = () => `move(card ${this.card} → col ${this.col} @ ${this.pos})`
}

class DeleteCard implements fc.AsyncCommand<Model, Real> {
  readonly card: number
  constructor(card: number) {
    this.card = card
  }
  check = (m: Readonly<Model>) => allCards(m as Model).length > 0
  async run(m: Model, r: Real) {
    const id = pick(allCards(m), this.card)!
    const col = m.columns.find((c) => c.cards.includes(id))!
    col.cards.splice(col.cards.indexOf(id), 1)
    m.titles.delete(id)
    expect((await call(r.base, "DELETE", `/v1/cards/${id}`, { headers: r.headers })).status).toBe(204)
    expect((await call(r.base, "GET", `/v1/cards/${id}`, { headers: r.headers })).status).toBe(404)
  }
  toString = () => `delete(card ${this.card})`
}

class CreateColumn implements fc.AsyncCommand<Model, Real> {
  readonly pos: number | undefined
  constructor(pos: number | undefined) {
    this.pos = pos
  }
  check = (m: Readonly<Model>) => m.columns.length < 8
  async run(m: Model, r: Real) {
    const res = await call(r.base, "POST", "/v1/columns", {
      body: {
        projectId: r.projectId,
        name: `col ${m.columns.length}`,
        ...(this.pos === undefined ? {} : { position: this.pos })
      },
      headers: r.headers
    })
    expect(res.status).toBe(201)
    const at = this.pos === undefined ? m.columns.length : Math.min(this.pos, m.columns.length)
    expect(res.body.position).toBe(at)
    m.columns.splice(at, 0, { id: res.body.id, cards: [] })
  }
  toString = () => `createColumn(@ ${this.pos})`
}

class DeleteColumn implements fc.AsyncCommand<Model, Real> {
  readonly col: number
  constructor(col: number) {
    this.col = col
  }
  check = (m: Readonly<Model>) => m.columns.length > 1
  async run(m: Model, r: Real) {
    const column = pick(m.columns, this.col)!
    const res = await call(r.base, "DELETE", `/v1/columns/${column.id}`, { headers: r.headers })
    if (column.cards.length > 0) {
      expect(res.status).toBe(409)
    } else {
      expect(res.status).toBe(204)
      m.columns.splice(m.columns.indexOf(column), 1)
    }
  }
  toString = () => `deleteColumn(col ${this.col})`
}

class Decorate implements fc.AsyncCommand<Model, Real> {
  readonly card: number
  readonly other: number
  readonly kind: number
  constructor(card: number, other: number, kind: number) {
    this.card = card
    this.other = other
    this.kind = kind
  }
  check = (m: Readonly<Model>) => allCards(m as Model).length > 0
  async run(m: Model, r: Real) {
    const id = pick(allCards(m), this.card)!
    if (this.kind === 0) {
      const label = await call(r.base, "POST", "/v1/labels", {
        body: { projectId: r.projectId, name: `l${this.other}` },
        headers: r.headers
      })
      const labelId =
        label.status === 201
          ? label.body.id
          : (await call(r.base, "GET", `/v1/board/${r.projectId}`, { headers: r.headers })).body.labels.find(
              (l: any) => l.name === `l${this.other}`
            ).id
      expect(
        (await call(r.base, "POST", `/v1/cards/${id}/labels`, { body: { labelId }, headers: r.headers })).status
      ).toBe(200)
    } else if (this.kind === 1) {
      const s = await call(r.base, "POST", "/v1/subtasks", {
        body: { cardId: id, title: `step ${this.other}` },
        headers: r.headers
      })
      expect(s.status).toBe(201)
      expect(
        (await call(r.base, "POST", `/v1/subtasks/${s.body.id}/toggle`, { headers: r.headers })).body.completed
      ).toBe(true)
    } else {
      const target = pick(allCards(m), this.other)!
      const res = await call(r.base, "POST", `/v1/cards/${id}/links`, {
        body: { targetId: target, linkType: "relates_to" },
        headers: r.headers
      })
      expect(res.status).toBe(target === id ? 400 : 201)
    }
  }
  toString = () => `decorate(card ${this.card}, ${["label", "subtask", "link"][this.kind]})`
}

const commands = [
  fc.tuple(fc.nat(), fc.nat()).map(([c, n]) => new CreateCard(c, n)),
  fc
    .tuple(fc.nat(), fc.nat(), fc.option(fc.nat({ max: 6 }), { nil: undefined }))
    .map(([c, col, p]) => new MoveCard(c, col, p)),
  fc.nat().map((c) => new DeleteCard(c)),
  fc.option(fc.nat({ max: 6 }), { nil: undefined }).map((p) => new CreateColumn(p)),
  fc.nat().map((c) => new DeleteColumn(c)),
  fc.tuple(fc.nat(), fc.nat(), fc.nat({ max: 2 })).map(([c, o, k]) => new Decorate(c, o, k))
]

describe.each(backends)("model-based board on %s", (backend) => {
  let server: TestServer
  let a: Account
  beforeAll(async () => {
    server = await startServer(backend)
    a = await bootstrap(server.baseUrl, "modeller")
  })
  afterAll(() => server?.stop())

  const agrees = async (m: Model, r: Real) => {
    const board = await call(r.base, "GET", `/v1/board/${r.projectId}`, { headers: r.headers })
    expect(board.body.columns.map((c: any) => [c.id, c.position])).toEqual(m.columns.map((c, i) => [c.id, i]))
    expect(board.body.cards.map((c: any) => [c.id, c.columnId, c.position])).toEqual(
      m.columns.flatMap((c) => c.cards.map((id, i) => [id, c.id, i]))
    )
    const refs = board.body.cards.map((c: any) => c.ref)
    expect(new Set(refs).size).toBe(refs.length)
    const found = await call(r.base, "GET", `/v1/search?q=${r.word}&limit=200`, { headers: r.headers })
    expect(new Set(found.body.map((c: any) => c.id))).toEqual(new Set(m.titles.keys()))
  }

  it("agrees with the model after every step", async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
        const word = `mdl${run++}x${Date.now().toString(36)}`
        const project = await call(server.baseUrl, "POST", "/v1/projects", {
          body: { workspaceId: a.workspaceId, name: `Model ${word}`, template: "kanban" },
          headers: key(a.apiKey)
        })
        const real: Real = { base: server.baseUrl, headers: key(a.apiKey), projectId: project.body.project.id, word }
        const model: Model = {
          columns: project.body.columns.map((c: any) => ({ id: c.id, cards: [] })),
          titles: new Map(),
          refs: new Set()
        }
        await fc.asyncModelRun(
          () => ({ model, real }),
          [...cmds].flatMap((c) => [
            c,
            { check: () => true, run: (m: Model, r: Real) => agrees(m, r), toString: () => "check" } as fc.AsyncCommand<
              Model,
              Real
            >
          ])
        )
      }),
      { seed: Number(process.env.MODEL_SEED ?? 42), numRuns: Number(process.env.MODEL_RUNS ?? 12), endOnFailure: true }
    )
  }, 300_000)
})
