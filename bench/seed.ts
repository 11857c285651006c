/**
 * The data the scenarios read and write. Accounts, workspace, projects and columns go through
 * the real API (README's bootstrap sequence); the large card sets are bulk-inserted in SQL
 * (positions 0..n-1 per column, ref numbers unique per project, next_ref_number past the max).
 */
import * as crypto from "node:crypto"
import type { Api } from "./api.ts"
import type { Db } from "./db.ts"

export const verbs = ["fix", "add", "remove", "refactor", "update", "investigate", "document", "migrate", "optimize", "test", "review", "deploy"]
export const areas = [
  "login", "signup", "billing", "invoice", "search", "export", "import", "dashboard", "settings", "profile",
  "upload", "webhook", "cache", "session", "payment", "report", "email", "calendar", "sync", "backup",
  "sidebar", "toolbar", "checkout", "onboarding", "permissions", "audit", "queue", "scheduler", "thumbnail", "avatar",
  "locale", "tooltip", "pagination", "filter", "sorting", "archive", "comment", "mention", "badge", "widget"
]
export const problems = [
  "timeout", "crash", "leak", "deadlock", "flicker", "typo", "regression", "latency", "overflow", "freeze",
  "glitch", "mismatch", "duplicate", "truncation", "encoding", "rounding", "drift", "stall", "spike", "misalignment",
  "outage", "bottleneck", "retry", "rollback", "corruption", "hang", "jitter", "panic", "starvation", "lag",
  "bug", "error", "warning", "exception", "fallback", "orphan", "conflict", "throttle", "underflow", "hiccup"
]
/** 20 syllables make 8,000 three-syllable code words; each description holds four of them. */
export const syllables = ["ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "du", "fo", "ga", "hi", "ju", "pe", "sa", "te", "wu", "xo", "ye"]

/**
 * The search queries: two-word title pairs (area + problem, ~1/1600 of cards each) and single
 * code words (~4/8000 of cards each), so each hits a few dozen of the 100,000 cards.
 */
export const searchQueries = ["login timeout", "kalomi", "export crash", "nevoga"]

export const searchCardCount = 100_000
export const boardCardCount = 1_000
export const boardColumnCount = 5
export const movePoolSize = 50

/** A deterministic pick from `$param` (a text[] parameter) keyed on `i` and a salt. */
const pick = (param: string, length: number, salt: string) =>
  `(${param}::text[])[((hashtext(i::text || '${salt}')::bigint % ${length}) + ${length}) % ${length} + 1]`

const codeWord = (salt: string) =>
  `${pick("$7", syllables.length, `${salt}a`)} || ${pick("$7", syllables.length, `${salt}b`)} || ${pick("$7", syllables.length, `${salt}c`)}`

/** Bulk-inserts `count` cards into `columnIds` round-robin (positions 0..n-1 per column). */
const insertCards = async (db: Db, project: { id: string; refPrefix: string }, columnIds: ReadonlyArray<string>, count: number, userId: string) => {
  const n = columnIds.length
  await db.query(
    `INSERT INTO cards (project_id, column_id, position, ref_number, ref, title, description, priority, created_by)
     SELECT $1::uuid, ($2::uuid[])[(i % ${n}) + 1], i / ${n}, i + 1, $3 || '-' || (i + 1),
       'Card ' || (i + 1) || ' ' || ${pick("$4", verbs.length, "v")} || ' ' || ${pick("$5", areas.length, "a")} || ' ' || ${pick("$6", problems.length, "p")},
       'Reported by ' || ${codeWord("w")} || ' after the ' || ${codeWord("x")} || ' rollout. Seen again by ' || ${codeWord("y")}
         || ' and ' || ${codeWord("z")} || '; steps to reproduce are in the linked thread.',
       (ARRAY['low','medium','high','urgent'])[(i % 4) + 1], $8::uuid
     FROM generate_series(0, ${count - 1}) AS i`,
    [project.id, columnIds, project.refPrefix, verbs, areas, problems, syllables, userId]
  )
  await db.query(`UPDATE projects SET next_ref_number = $2 WHERE id = $1`, [project.id, count + 1])
}

interface ProjectCreated {
  readonly project: { id: string; refPrefix: string }
  readonly columns: ReadonlyArray<{ id: string; name: string; position: number }>
}

export interface Seeded {
  readonly apiKey: string
  readonly userId: string
  readonly workspaceId: string
  /** Kanban project that receives the POST /v1/cards scenario. */
  readonly createProject: { id: string; columnId: string }
  /** The 1,000-card board. */
  readonly boardProjectId: string
  readonly boardCardIds: ReadonlyArray<string>
  /** The 100,000-card search corpus, and how many cards each query matches. */
  readonly searchProjectId: string
  readonly searchHits: ReadonlyArray<{ q: string; matches: number }>
  /** The move pool: ~50 cards over three columns. */
  readonly moveColumnIds: ReadonlyArray<string>
  readonly moveCardIds: ReadonlyArray<string>
  readonly timings: Record<string, number>
}

const timed = async <A,>(timings: Record<string, number>, name: string, f: () => Promise<A>): Promise<A> => {
  const start = performance.now()
  try {
    return await f()
  } finally {
    timings[name] = Math.round(performance.now() - start)
  }
}

export const seed = async (api: Api, db: Db, log: (line: string) => void): Promise<Seeded> => {
  const timings: Record<string, number> = {}
  const email = `bench-${crypto.randomBytes(4).toString("hex")}@example.com`
  const { session, user } = await timed(timings, "signup", () =>
    api.call<{ session: { access_token: string }; user: { id: string } }>("POST", "/v1/auth/signup", {
      body: { email, password: "correct horse battery staple", full_name: "Bench User" },
      expect: [201]
    }))
  const bearer = { bearer: session.access_token }
  const { workspace } = await api.call<{ workspace: { id: string } }>("POST", "/v1/workspaces", { body: { name: "Bench" }, auth: bearer, expect: [201] })
  const website = await api.call<ProjectCreated>("POST", "/v1/projects", {
    body: { workspaceId: workspace.id, name: "Website", template: "kanban" },
    auth: bearer,
    expect: [201]
  })
  const { rawKey } = await api.call<{ rawKey: string }>("POST", "/v1/api-keys", { body: { name: "bench" }, auth: bearer, expect: [201] })
  const key = { apiKey: rawKey }
  log(`  user ${email}, workspace ${workspace.id}, API key created`)

  // The 1,000-card board: five columns through the API, the cards in SQL.
  const board = await api.call<ProjectCreated>("POST", "/v1/projects", { body: { workspaceId: workspace.id, name: "Thousand Board" }, auth: bearer, expect: [201] })
  const boardColumns: Array<string> = []
  for (const name of ["Backlog", "To Do", "In Progress", "Review", "Done"].slice(0, boardColumnCount)) {
    const column = await api.call<{ id: string }>("POST", "/v1/columns", { body: { projectId: board.project.id, name }, auth: key, expect: [201] })
    boardColumns.push(column.id)
  }
  await timed(timings, "board cards (SQL)", () => insertCards(db, board.project, boardColumns, boardCardCount, user.id))
  const boardCardIds = (await db.query<{ id: string }>(`SELECT id FROM cards WHERE project_id = $1 ORDER BY ref_number`, [board.project.id])).map((r) => r.id)
  log(`  board project: ${boardColumns.length} columns, ${boardCardIds.length} cards`)

  // The 100,000-card search corpus.
  const corpus = await api.call<ProjectCreated>("POST", "/v1/projects", {
    body: { workspaceId: workspace.id, name: "Search Corpus", template: "kanban" },
    auth: bearer,
    expect: [201]
  })
  await timed(timings, "search cards (SQL)", () => insertCards(db, corpus.project, corpus.columns.map((c) => c.id), searchCardCount, user.id))
  await timed(timings, "VACUUM ANALYZE", () => db.query(`VACUUM ANALYZE`))
  const searchHits: Array<{ q: string; matches: number }> = []
  for (const q of searchQueries) {
    const words = q.split(/\s+/)
    const where = words.map((_, i) => `(title ILIKE $${i + 1} OR description ILIKE $${i + 1})`).join(" AND ")
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards WHERE ${where}`, words.map((w) => `%${w}%`))
    searchHits.push({ q, matches: row!.n })
  }
  log(`  search corpus: ${searchCardCount} cards; matches per query: ${searchHits.map((h) => `"${h.q}" ${h.matches}`).join(", ")}`)

  // The move pool: cards created through the API, spread over the three kanban columns.
  const pool = await api.call<ProjectCreated>("POST", "/v1/projects", {
    body: { workspaceId: workspace.id, name: "Move Pool", template: "kanban" },
    auth: bearer,
    expect: [201]
  })
  const moveColumnIds = pool.columns.map((c) => c.id)
  const moveCardIds: Array<string> = []
  for (let i = 0; i < movePoolSize; i++) {
    const card = await api.call<{ id: string }>("POST", "/v1/cards", {
      body: { projectId: pool.project.id, columnId: moveColumnIds[i % moveColumnIds.length], title: `Move pool card ${i + 1}` },
      auth: key,
      expect: [201]
    })
    moveCardIds.push(card.id)
  }
  log(`  move pool: ${moveCardIds.length} cards over ${moveColumnIds.length} columns`)

  return {
    apiKey: rawKey,
    userId: user.id,
    workspaceId: workspace.id,
    createProject: { id: website.project.id, columnId: website.columns[0]!.id },
    boardProjectId: board.project.id,
    boardCardIds,
    searchProjectId: corpus.project.id,
    searchHits,
    moveColumnIds,
    moveCardIds,
    timings
  }
}

/** Checks the database invariants the seed promised (positions 0..n-1, refs unique). */
export const checkInvariants = async (db: Db): Promise<Array<string>> => {
  const problems: Array<string> = []
  const gaps = await db.query<{ column_id: string; n: number; max: number; min: number }>(`
    SELECT column_id, count(*)::int AS n, max(position) AS max, min(position) AS min FROM cards GROUP BY column_id
    HAVING min(position) <> 0 OR max(position) <> count(*) - 1 OR count(DISTINCT position) <> count(*)`)
  for (const g of gaps) problems.push(`column ${g.column_id}: ${g.n} cards but positions ${g.min}..${g.max}`)
  const refs = await db.query<{ id: string }>(`
    SELECT p.id FROM projects p JOIN cards c ON c.project_id = p.id GROUP BY p.id, p.next_ref_number
    HAVING max(c.ref_number) >= p.next_ref_number`)
  for (const r of refs) problems.push(`project ${r.id}: next_ref_number not past the largest ref_number`)
  return problems
}
