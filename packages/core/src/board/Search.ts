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
import { grantsOf, visibleTo } from "./Access.ts"
import { sqlNow } from "../infra/clock.ts"
import { assigneeOf } from "./assignees.ts"
import { cardColumns, type CardRow, type CardView, toCard } from "./cardView.ts"

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
        const params: Array<unknown> = [principal.userId, limit]
        const slot = (value: unknown) => {
          params.push(value)
          return `$${params.length}`
        }
        const slots = patterns.map(slot)
        const now = yield* sqlNow
        // The expression of cards_search_trgm, written exactly as indexed so the planner uses it.
        const doc = `(c.title || ' ' || COALESCE(c.description, ''))`
        const inTitle = slots.map((s) => `c.title ILIKE ${s}`).join(" AND ")
        const inDoc = slots.map((s) => `${doc} ILIKE ${s}`).join(" AND ")
        // The projects the caller may search, computed once (an InitPlan) and checked per match.
        params.push(grantsOf(principal))
        let projects = `SELECT p.id FROM projects p WHERE ${visibleTo("p.workspace_id", "$1::uuid", `$${params.length}`)}`
        if (input.projectId !== undefined) {
          params.push(input.projectId)
          projects += ` AND p.id = $${params.length}::uuid`
        }
        let scope = `c.project_id = ANY(ARRAY(${projects}))`
        const assignee = assigneeOf(principal, input.assignee)
        if (assignee !== undefined) {
          params.push(assignee)
          scope += ` AND EXISTS (SELECT 1 FROM card_assignees ca WHERE ca.card_id = c.id AND ca.user_id = $${params.length}::uuid)`
        }
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
              ORDER BY c.created_at DESC, c.id DESC LIMIT $2
            ), described AS MATERIALIZED (
              SELECT c.id, c.created_at, 1 AS rank FROM cards c
              WHERE (SELECT count(*) FROM titled) < $2 AND ${inDoc} AND NOT (${inTitle}) AND ${scope}
              ORDER BY c.created_at DESC, c.id DESC LIMIT $2
            ), hits AS (
              SELECT * FROM titled UNION ALL SELECT * FROM described
              ORDER BY rank, created_at DESC, id DESC LIMIT $2
            )`
          : `hits AS (
              SELECT c.id, c.created_at, CASE WHEN ${inTitle} THEN 0 ELSE 1 END AS rank FROM cards c
              WHERE ${slots.map((s) => `(c.title ILIKE ${s} OR c.description ILIKE ${s})`).join(" AND ")} AND ${scope}
              ORDER BY rank, c.created_at DESC, c.id DESC LIMIT $2
            )`
        const rows = yield* sql
          .unsafe<CardRow>(
            `
          WITH ${hits}
          SELECT ${cardColumns(slot(now))}
          FROM hits h JOIN cards c ON c.id = h.id
          ORDER BY h.rank, h.created_at DESC, h.id DESC`,
            params
          )
          .pipe(Effect.orDie)
        return rows.map(toCard)
      })

      return Search.of({ cards })
    })
  )
}
