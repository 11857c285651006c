/**
 * Card search: every word of the query must appear (case-insensitively) in the title or the
 * description; title matches rank first, then newest. Scoped in SQL to the caller's workspaces
 * (and an OAuth grant's), answered from the pg_trgm GIN indexes on title and description.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { InvalidInput } from "../domain/errors.ts"
import { charCount, limits } from "../domain/limits.ts"
import type { Principal } from "../domain/Principal.ts"
import { isUuid } from "./Access.ts"
import { cardColumns, type CardRow, type CardView, toCard } from "./cardView.ts"

/** Words of a query, as ILIKE patterns with %, _ and \ escaped. */
export const searchPatterns = (q: string): Array<string> =>
  [...new Set(q.toLowerCase().split(/\s+/).filter((w) => w !== ""))].map((w) => `%${w.replace(/[\\%_]/g, "\\$&")}%`)

export class Search extends Context.Service<Search, {
  readonly cards: (principal: Principal, input: { q: string; limit?: number | undefined; projectId?: string | undefined }) => Effect.Effect<ReadonlyArray<CardView>, InvalidInput>
}>()("board/core/Search") {
  static readonly layer = Layer.effect(
    Search,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const cards = Effect.fn("Search.cards")(function*(principal: Principal, input: { q: string; limit?: number | undefined; projectId?: string | undefined }) {
        const q = input.q.trim()
        if (q === "") return yield* new InvalidInput({ message: "q: must not be blank" })
        if (q.includes("\u0000")) return yield* new InvalidInput({ message: "q: must not contain NUL (\\u0000) characters" })
        if (charCount(input.q) > limits.searchQuery) return yield* new InvalidInput({ message: `q: must be at most ${limits.searchQuery} characters` })
        const limit = input.limit ?? limits.searchDefaultLimit
        if (!Number.isInteger(limit) || limit < 1 || limit > limits.searchMaxLimit) {
          return yield* new InvalidInput({ message: `limit: must be a whole number from 1 to ${limits.searchMaxLimit}` })
        }
        const patterns = searchPatterns(q)
        const params: Array<unknown> = [principal.userId, limit]
        const words = patterns.map((p) => {
          params.push(p)
          const i = params.length
          return { any: `(c.title ILIKE $${i} OR c.description ILIKE $${i})`, title: `c.title ILIKE $${i}` }
        })
        let scope = ""
        if (principal.workspaces !== "all") {
          params.push([...principal.workspaces])
          scope = `AND p.workspace_id = ANY($${params.length}::uuid[])`
        }
        if (input.projectId !== undefined && !isUuid(input.projectId)) return []
        if (input.projectId !== undefined) {
          params.push(input.projectId)
          scope += ` AND c.project_id = $${params.length}::uuid`
        }
        const rows = yield* sql.unsafe<CardRow>(`
          SELECT ${cardColumns()}
          FROM cards c
          JOIN projects p ON p.id = c.project_id
          JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = $1
          WHERE ${words.map((w) => w.any).join(" AND ")} ${scope}
          ORDER BY (${words.map((w) => w.title).join(" AND ")}) DESC, c.created_at DESC, c.id DESC
          LIMIT $2`, params as Array<any>).pipe(Effect.orDie)
        return rows.map(toCard)
      })

      return Search.of({ cards })
    })
  )
}
