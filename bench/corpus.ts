/**
 * Cards in bulk, in SQL (`insertCards`), and the search corpus they grow. The search corpus grows
 * in place (10,000 → 100,000 → 1,000,000 cards by default): card i is the same whatever the step
 * (content, column, position, ref, and one created_at for all), so the 100,000-card state the main
 * scenarios read holds the rows a single 100,000-card insert makes, and the trigram indexes never
 * hold cards of a bigger step while a smaller one is measured.
 */
import type { Db } from "./db.ts"
import { areas, problems, searchQueries, syllables, verbs } from "./words.ts"

/** A deterministic pick from `$param` (a text[] parameter) keyed on `i` and a salt. */
const pick = (param: string, length: number, salt: string) =>
  `(${param}::text[])[((hashtext(i::text || '${salt}')::bigint % ${length}) + ${length}) % ${length} + 1]`

const codeWord = (salt: string) =>
  `${pick("$7", syllables.length, `${salt}a`)} || ${pick("$7", syllables.length, `${salt}b`)} || ${pick("$7", syllables.length, `${salt}c`)}`

/**
 * Bulk-inserts cards `from`..`to - 1` into `columnIds` round-robin: card i goes to column
 * i mod n with order key i div n + 1 (position i div n) and ref number i + 1, so inserting 0..a then a..b leaves the same
 * rows (positions 0..n-1 per column) as inserting 0..b at once.
 */
export const insertCards = async (
  db: Db,
  project: { id: string; refPrefix: string },
  columnIds: ReadonlyArray<string>,
  from: number,
  to: number,
  userId: string,
  createdAt?: string
) => {
  const n = columnIds.length
  if (to <= from) return
  await db.query(
    `INSERT INTO cards (project_id, column_id, sort_key, ref_number, ref, title, description, priority, created_by, created_at, updated_at)
     SELECT $1::uuid, ($2::uuid[])[(i % ${n}) + 1], i / ${n} + 1, i + 1, $3 || '-' || (i + 1),
       'Card ' || (i + 1) || ' ' || ${pick("$4", verbs.length, "v")} || ' ' || ${pick("$5", areas.length, "a")} || ' ' || ${pick("$6", problems.length, "p")},
       'Reported by ' || ${codeWord("w")} || ' after the ' || ${codeWord("x")} || ' rollout. Seen again by ' || ${codeWord("y")}
         || ' and ' || ${codeWord("z")} || '; steps to reproduce are in the linked thread.',
       (ARRAY['low','medium','high','urgent'])[(i % 4) + 1], $8::uuid, COALESCE($9::timestamptz, now()), COALESCE($9::timestamptz, now())
     FROM generate_series(${from}, ${to - 1}) AS i`,
    [project.id, columnIds, project.refPrefix, verbs, areas, problems, syllables, userId, createdAt ?? null]
  )
  // the project's ref sequence continues after the seeded refs
  await db.query(`SELECT setval(board_ref_sequence($1::uuid)::regclass, $2)`, [project.id, to])
}

/** The search corpus: one kanban project that grows in place between measurements. */
export interface Corpus {
  readonly project: { id: string; refPrefix: string }
  readonly columnIds: ReadonlyArray<string>
  readonly userId: string
  /**
   * created_at of every corpus card: one instant, as when the corpus was one INSERT (search orders
   * by created_at, then id, so later steps must not make their cards newer).
   */
  readonly createdAt: string
  /** Cards in the corpus project now. */
  size: number
}

/** One size of the search corpus, as seeded. */
export interface CorpusStep {
  /** Cards in the corpus project. */
  readonly cards: number
  /** Cards in the whole database: search looks at every card of the user's workspace. */
  readonly allCards: number
  readonly insertMs: number
  readonly vacuumMs: number
  /** Cards matching each query (the API returns at most 50). */
  readonly hits: ReadonlyArray<{ q: string; matches: number }>
}

const countHits = async (db: Db): Promise<Array<{ q: string; matches: number }>> => {
  const hits: Array<{ q: string; matches: number }> = []
  for (const q of searchQueries) {
    const words = q.split(/\s+/)
    const where = words.map((_, i) => `(title ILIKE $${i + 1} OR description ILIKE $${i + 1})`).join(" AND ")
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cards WHERE ${where}`,
      words.map((w) => `%${w}%`)
    )
    hits.push({ q, matches: row!.n })
  }
  return hits
}

/**
 * Grows the search corpus to `to` cards in SQL, then VACUUM ANALYZE: like autovacuum would, it
 * also flushes the GIN pending lists the bulk insert leaves in the trigram indexes (without it
 * each search scans them).
 */
export const growCorpus = async (db: Db, corpus: Corpus, to: number): Promise<CorpusStep> => {
  const t0 = performance.now()
  await insertCards(db, corpus.project, corpus.columnIds, corpus.size, to, corpus.userId, corpus.createdAt)
  corpus.size = Math.max(corpus.size, to)
  const t1 = performance.now()
  await db.query(`VACUUM ANALYZE`)
  const t2 = performance.now()
  const hits = await countHits(db)
  const [all] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards`)
  return { cards: corpus.size, allCards: all!.n, insertMs: Math.round(t1 - t0), vacuumMs: Math.round(t2 - t1), hits }
}
