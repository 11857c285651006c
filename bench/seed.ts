/**
 * The data the scenarios read and write. Accounts, workspace, projects and columns go through
 * the real API (README's bootstrap sequence); the large card sets are bulk-inserted in SQL
 * (order keys unique per column, ref numbers unique per project, each ref sequence past its max).
 */
import * as crypto from "node:crypto"
import type { Api } from "./api.ts"
import type { Db } from "./db.ts"
import { type Corpus, type CorpusStep, growCorpus, insertCards } from "./corpus.ts"

export const boardColumnCount = 5
export const movePoolSize = 50

/** How many cards each data set holds. */
export interface Sizes {
  /** The board of the main scenarios (GET board, GET card, link submissions). */
  readonly board: number
  /** Boards of the board-size scaling rows, smallest first; the one equal to `board` is that board. */
  readonly boardScale: readonly [number, number, number]
  /** Search corpus steps, smallest first; the middle one is the corpus of the main search scenarios. */
  readonly searchScale: readonly [number, number, number]
}

export const fullSizes: Sizes = {
  board: 1_000,
  boardScale: [100, 1_000, 10_000],
  searchScale: [10_000, 100_000, 1_000_000]
}
/** `--smoke`: the same run on tiny data, to check end to end that every scenario works. */
export const smokeSizes: Sizes = { board: 100, boardScale: [10, 100, 1_000], searchScale: [100, 1_000, 10_000] }

interface ProjectCreated {
  readonly project: { id: string; refPrefix: string }
  readonly columns: ReadonlyArray<{ id: string; name: string; position: number }>
}

/** A board of the board-size scaling rows: its project is made at seed time, its cards later. */
export interface ScaleBoard {
  readonly cards: number
  readonly projectId: string
  readonly project: { id: string; refPrefix: string }
  readonly columnIds: ReadonlyArray<string>
}

export interface SeededAccount {
  readonly email: string
  readonly apiKey: string
  readonly userId: string
  readonly workspaceId: string
  /** Kanban project that receives the POST /v1/cards scenario. */
  readonly createProject: { id: string; columnId: string }
  /** The session token of signup, for the bootstrap endpoints (valid one hour). */
  readonly workspaceBearer: string
}

export interface Seeded extends SeededAccount {
  /** The board of the main scenarios (1,000 cards). */
  readonly boardProjectId: string
  readonly boardCardIds: ReadonlyArray<string>
  /** The search corpus, at its first (smallest) size after seeding. */
  readonly corpus: Corpus
  readonly firstCorpusStep: CorpusStep
  /** Boards of the other scaling sizes (empty until `fillScaleBoards`), smallest first. */
  readonly scaleBoards: ReadonlyArray<ScaleBoard>
  readonly timings: Record<string, number>
}

/** The move pool: ~50 cards over three columns. */
export interface MovePool {
  readonly moveColumnIds: ReadonlyArray<string>
  readonly moveCardIds: ReadonlyArray<string>
}

const timed = async <A>(timings: Record<string, number>, name: string, f: () => Promise<A>): Promise<A> => {
  const start = performance.now()
  try {
    return await f()
  } finally {
    timings[name] = Math.round(performance.now() - start)
  }
}
/** Fills the scaling boards with their cards in SQL, then VACUUM ANALYZE cards; returns the milliseconds taken. */
export const fillScaleBoards = async (db: Db, s: Seeded): Promise<number> => {
  const t0 = performance.now()
  for (const b of s.scaleBoards) await insertCards(db, b.project, b.columnIds, 0, b.cards, s.userId)
  await db.query(`VACUUM ANALYZE cards`)
  return Math.round(performance.now() - t0)
}

/**
 * The account every scenario acts as, through the API: a user, a workspace, the kanban project
 * the create scenarios append to, and an API key. All the embedded database's run seeds besides
 * the intake token and the move pool.
 */
export const seedAccount = async (api: Api, timings: Record<string, number> = {}): Promise<SeededAccount> => {
  const email = `bench-${crypto.randomBytes(4).toString("hex")}@example.com`
  const { session, user } = await timed(timings, "signup", () =>
    api.call<{ session: { access_token: string }; user: { id: string } }>("POST", "/v1/auth/signup", {
      body: { email, password: "correct horse battery staple", full_name: "Bench User" },
      expect: [201]
    })
  )
  const bearer = { bearer: session.access_token }
  const { workspace } = await api.call<{ workspace: { id: string } }>("POST", "/v1/workspaces", {
    body: { name: "Bench" },
    auth: bearer,
    expect: [201]
  })
  const website = await api.call<ProjectCreated>("POST", "/v1/projects", {
    body: { workspaceId: workspace.id, name: "Website", template: "kanban" },
    auth: bearer,
    expect: [201]
  })
  const { rawKey } = await api.call<{ rawKey: string }>("POST", "/v1/api-keys", {
    body: { name: "bench" },
    auth: bearer,
    expect: [201]
  })
  return {
    email,
    apiKey: rawKey,
    userId: user.id,
    workspaceId: workspace.id,
    workspaceBearer: session.access_token,
    createProject: { id: website.project.id, columnId: website.columns[0]!.id }
  }
}

/** An intake token filing into the create project's first column (the intake scenarios' key). */
export const mintIntakeToken = async (api: Api, s: SeededAccount): Promise<string> => {
  const minted = await api.call<{ token: string }>("POST", "/v1/intake-tokens", {
    body: { columnId: s.createProject.columnId, name: "benchmark" },
    auth: { apiKey: s.apiKey }
  })
  return minted.token
}

export const seed = async (
  api: Api,
  db: Db,
  log: (line: string) => void,
  sizes: Sizes = fullSizes
): Promise<Seeded> => {
  const timings: Record<string, number> = {}
  const account = await seedAccount(api, timings)
  const bearer = { bearer: account.workspaceBearer }
  const key = { apiKey: account.apiKey }
  log(`  user ${account.email}, workspace ${account.workspaceId}, API key created`)

  // A board of five columns through the API (its cards come later, in SQL).
  const makeBoard = async (name: string) => {
    const created = await api.call<ProjectCreated>("POST", "/v1/projects", {
      body: { workspaceId: account.workspaceId, name },
      auth: bearer,
      expect: [201]
    })
    const columnIds: Array<string> = []
    for (const column of ["Backlog", "To Do", "In Progress", "Review", "Done"].slice(0, boardColumnCount)) {
      const made = await api.call<{ id: string }>("POST", "/v1/columns", {
        body: { projectId: created.project.id, name: column },
        auth: key,
        expect: [201]
      })
      columnIds.push(made.id)
    }
    return { project: created.project, columnIds }
  }

  // The main board (1,000 cards).
  const board = await makeBoard("Thousand Board")
  await timed(timings, "board cards (SQL)", () =>
    insertCards(db, board.project, board.columnIds, 0, sizes.board, account.userId)
  )
  const boardCardIds = (
    await db.query<{ id: string }>(`SELECT id FROM cards WHERE project_id = $1 ORDER BY ref_number`, [board.project.id])
  ).map((r) => r.id)
  log(`  board project: ${board.columnIds.length} columns, ${boardCardIds.length} cards`)

  // The boards of the other scaling sizes: projects and columns now, cards after the main scenarios
  // (search sees every card of the workspace, so they must not be there while it is measured).
  const scaleBoards: Array<ScaleBoard> = []
  for (const cards of sizes.boardScale) {
    if (cards === sizes.board) continue
    const b = await makeBoard(`Scale Board ${cards}`)
    scaleBoards.push({ cards, projectId: b.project.id, project: b.project, columnIds: b.columnIds })
  }

  // The search corpus at its first size.
  const created = await api.call<ProjectCreated>("POST", "/v1/projects", {
    body: { workspaceId: account.workspaceId, name: "Search Corpus", template: "kanban" },
    auth: bearer,
    expect: [201]
  })
  const [now] = await db.query<{ t: string }>(`SELECT now()::text AS t`)
  const corpus: Corpus = {
    project: created.project,
    columnIds: created.columns.map((c) => c.id),
    userId: account.userId,
    createdAt: now!.t,
    size: 0
  }
  const firstCorpusStep = await growCorpus(db, corpus, sizes.searchScale[0])
  timings["search cards (SQL)"] = firstCorpusStep.insertMs
  timings["VACUUM ANALYZE"] = firstCorpusStep.vacuumMs
  log(
    `  search corpus: ${corpus.size} cards; matches per query: ${firstCorpusStep.hits.map((h) => `"${h.q}" ${h.matches}`).join(", ")}`
  )

  return {
    ...account,
    boardProjectId: board.project.id,
    boardCardIds,
    corpus,
    firstCorpusStep,
    scaleBoards,
    timings
  }
}

/**
 * The move pool: cards created through the API, spread over the three kanban columns. Made after
 * the corpus reached the size the main scenarios read, after its VACUUM, as it always was.
 */
export const seedMovePool = async (api: Api, s: SeededAccount): Promise<MovePool> => {
  const pool = await api.call<ProjectCreated>("POST", "/v1/projects", {
    body: { workspaceId: s.workspaceId, name: "Move Pool", template: "kanban" },
    auth: { bearer: s.workspaceBearer },
    expect: [201]
  })
  const moveColumnIds = pool.columns.map((c) => c.id)
  const moveCardIds: Array<string> = []
  for (let i = 0; i < movePoolSize; i++) {
    const card = await api.call<{ id: string }>("POST", "/v1/cards", {
      body: {
        projectId: pool.project.id,
        columnId: moveColumnIds[i % moveColumnIds.length],
        title: `Move pool card ${i + 1}`
      },
      auth: { apiKey: s.apiKey },
      expect: [201]
    })
    moveCardIds.push(card.id)
  }
  return { moveColumnIds, moveCardIds }
}

/**
 * The work queue's backlog (issue 19): a kanban project whose To Do column holds `cards` cards of
 * mixed priorities, inserted in SQL right before the claim-next scenario (search counts every card
 * of the workspace, so they must not be there while it runs) and deleted after it.
 */
export const seedQueue = async (
  api: Api,
  db: Db,
  s: SeededAccount,
  cards: number
): Promise<{ projectId: string; columnId: string }> => {
  const created = await api.call<ProjectCreated>("POST", "/v1/projects", {
    body: { workspaceId: s.workspaceId, name: "Queue", template: "kanban" },
    auth: { bearer: s.workspaceBearer },
    expect: [201]
  })
  await insertCards(db, created.project, [created.columns[0]!.id], 0, cards, s.userId)
  await db.query("VACUUM ANALYZE cards")
  return { projectId: created.project.id, columnId: created.columns[0]!.id }
}

/** Checks the database invariants: order keys and refs unique, each ref sequence past its refs. */
export const checkInvariants = async (db: Db): Promise<Array<string>> => {
  const problems: Array<string> = []
  const ties = await db.query<{ column_id: string; n: number; keys: number }>(`
    SELECT column_id, count(*)::int AS n, count(DISTINCT sort_key)::int AS keys FROM cards GROUP BY column_id
    HAVING count(DISTINCT sort_key) <> count(*)`)
  for (const t of ties) problems.push(`column ${t.column_id}: ${t.n} cards but ${t.keys} distinct order keys`)
  const refs = await db.query<{ id: string; n: number; distinct: number; max: number; last: number | null }>(`
    SELECT p.id, count(*)::int AS n, count(DISTINCT c.ref_number)::int AS distinct, max(c.ref_number) AS max,
      pg_sequence_last_value(board_ref_sequence(p.id)::regclass) AS last
    FROM projects p JOIN cards c ON c.project_id = p.id GROUP BY p.id`)
  for (const r of refs) {
    if (r.distinct !== r.n) problems.push(`project ${r.id}: ${r.n} cards but ${r.distinct} distinct refs`)
    if (r.last === null || Number(r.last) < r.max)
      problems.push(`project ${r.id}: ref sequence at ${r.last} behind the largest ref ${r.max}`)
  }
  return problems
}
