/**
 * Card search: every word of the query must appear (case-insensitively, as a substring) in the
 * title or the description; cards holding every word in the title rank first, then newest
 * (created_at, then id, both descending). Scoped in SQL to the caller's workspaces (and an OAuth
 * grant's).
 *
 * The page is found before any card is built: the title matches come from the trigram index on
 * titles (cards_title_trgm); only when there are fewer than `limit` of them are the other
 * matches looked up, in the trigram index over title and description together
 * (cards_search_trgm, migrations/0008), which intersects all the words in one scan. Each part
 * keeps only its newest `limit` cards, and the positions, labels and subtasks are computed for
 * the returned cards alone.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SearchInput } from "../domain/inputs.ts"
import { limits } from "../domain/limits.ts"
import type { Principal } from "../domain/Principal.ts"
import { reachOf, visibleTo } from "./Access.ts"
import { sqlNow } from "../infra/clock.ts"
import { assigneeOf } from "./assignees.ts"
import { findAll, statement } from "../infra/statement.ts"
import { cardColumn, CardRow, type CardView } from "./cardView.ts"

/** Words of a query, as ILIKE patterns with %, _ and \ escaped. */
export const searchPatterns = (q: string): Array<string> =>
  [
    ...new Set(
      q
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w !== "")
    )
  ].map((w) => `%${w.replace(/[\\%_]/g, "\\$&")}%`)

/**
 * Whether pg_trgm can narrow an ILIKE pattern by it: it takes trigrams only from runs of three
 * or more letters or digits (an approximation of its rule; a wrong guess costs time, not results).
 */
const hasTrigram = (pattern: string): boolean => /[\p{L}\p{N}]{3}/u.test(pattern)

export class Search extends Context.Service<
  Search,
  {
    /** `input` was decoded with `SearchInput` (the HTTP query's rules), as every caller does. */
    readonly cards: (principal: Principal, input: SearchInput) => Effect.Effect<ReadonlyArray<CardView>>
  }
>()("board/core/Search") {
  static readonly layer = Layer.effect(
    Search,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const cards = Effect.fn("Search.cards")(function* (principal: Principal, input: SearchInput) {
        const q = input.q.trim()
        const limit = input.limit ?? limits.searchDefaultLimit
        const patterns = searchPatterns(q)
        const now = yield* sqlNow
        const assignee = assigneeOf(principal, input.assignee)
        // parameters by name: the user, the page's size, the caller's grants and filters, the
        // time, and one pattern per word (`w0`, `w1`, …)
        const values: Record<string, unknown> = {
          user: principal.userId,
          limit,
          grants: reachOf(principal),
          project: input.projectId,
          assignee,
          now
        }
        patterns.forEach((pattern, i) => {
          values[`w${i}`] = pattern
        })
        const search = statement<Record<string, unknown>>((p) => {
          const words = patterns.map((_, i) => p[`w${i}`]!)
          // The expression of cards_search_trgm, written exactly as indexed so the planner uses it.
          const doc = `(c.title || ' ' || COALESCE(c.description, ''))`
          const inTitle = words.map((w) => `c.title ILIKE ${w}`).join(" AND ")
          const inDoc = words.map((w) => `${doc} ILIKE ${w}`).join(" AND ")
          // The projects the caller may search, computed once (an InitPlan) and checked per match.
          const projects = `SELECT p.id FROM projects p WHERE ${visibleTo("p.workspace_id", `${p.user}::uuid`, p.grants!, "p.id")}${
            input.projectId === undefined ? "" : ` AND p.id = ${p.project}::uuid`
          }`
          // live cards, or (`archived`) the archived ones instead
          const scope = `c.project_id = ANY(ARRAY(${projects})) AND c.archived_at IS ${input.archived === true ? "NOT " : ""}NULL${
            assignee === undefined
              ? ""
              : ` AND EXISTS (SELECT 1 FROM card_assignees ca WHERE ca.card_id = c.id AND ca.user_id = ${p.assignee}::uuid)`
          }`
          // `hits`, the page before its cards are built. When a word has a trigram the indexes narrow
          // the search: the newest `limit` title matches (rank 0), then, only if they are fewer
          // than `limit` (a one-time filter skips the second scan otherwise), the newest `limit`
          // cards holding every word in title or description but not all in the title (rank 1).
          // Words of one or two letters give the indexes nothing to narrow by, and then every card
          // is read anyway: once, ranked in one pass, rather than once per part (each column tested
          // apart, which is cheaper than joining them when no index is used).
          const hits = patterns.some(hasTrigram)
            ? `titled AS MATERIALIZED (
              SELECT c.id, c.created_at, 0 AS rank FROM cards c
              WHERE ${inTitle} AND ${scope}
              ORDER BY c.created_at DESC, c.id DESC LIMIT ${p.limit}
            ), described AS MATERIALIZED (
              SELECT c.id, c.created_at, 1 AS rank FROM cards c
              WHERE (SELECT count(*) FROM titled) < ${p.limit} AND ${inDoc} AND NOT (${inTitle}) AND ${scope}
              ORDER BY c.created_at DESC, c.id DESC LIMIT ${p.limit}
            ), hits AS (
              SELECT * FROM titled UNION ALL SELECT * FROM described
              ORDER BY rank, created_at DESC, id DESC LIMIT ${p.limit}
            )`
            : `hits AS (
              SELECT c.id, c.created_at, CASE WHEN ${inTitle} THEN 0 ELSE 1 END AS rank FROM cards c
              WHERE ${words.map((w) => `(c.title ILIKE ${w} OR c.description ILIKE ${w})`).join(" AND ")} AND ${scope}
              ORDER BY rank, c.created_at DESC, c.id DESC LIMIT ${p.limit}
            )`
          return `
          WITH ${hits}
          SELECT ${cardColumn(p.now!)}
          FROM hits h JOIN cards c ON c.id = h.id
          ORDER BY h.rank, h.created_at DESC, h.id DESC`
        })
        const rows = yield* findAll(sql, search, CardRow)(values).pipe(Effect.orDie)
        return rows.map((r) => r.card)
      })

      return Search.of({ cards })
    })
  )
}
