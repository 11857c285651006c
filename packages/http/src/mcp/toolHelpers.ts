/**
 * What the MCP tools' handlers share: a card named by id, ref or title, a column by id or name,
 * and the replies that show a card or a session as it is now.
 */
import { Cards, Lookups } from "@board/core"
import type { AgentSession } from "@board/core/contract"
import { Effect, Schema } from "effect"
import { checkedId, ColumnId } from "@board/core"
import { resolveCard, resolveProject } from "./arguments.ts"
import { cardText, columnName, sessionLine } from "./format.ts"
import type { Reply } from "./handlers.ts"
import { McpPrincipal } from "./McpAuth.ts"

const isColumnId = Schema.is(checkedId(ColumnId))

export const toolHelpers = Effect.gen(function* () {
  const cards = yield* Cards
  const lookups = yield* Lookups

  const cardId = (card: string, projectId: string | undefined, field?: string, prefer?: string) =>
    resolveCard(lookups, card, projectId, field, prefer)

  /** The id of the project a `projectId` argument names (id, ref prefix or name). */
  const projectOf = (projectId: string) => resolveProject(lookups, projectId)

  /** The column named by `column` in the project: an id as it is (the service checks it), else by name. */
  const resolveColumn = Effect.fnUntraced(function* (projectId: string, column: string) {
    const name = column.trim()
    if (isColumnId(name)) return name
    const project = yield* lookups.project(yield* McpPrincipal, projectId)
    return (yield* lookups.column(project, name)).id
  })

  /** The card as it is now, with the name of its column. */
  const cardReply = Effect.fnUntraced(function* (card: Effect.Success<ReturnType<typeof cards.get>>, headline: string) {
    const columns = yield* lookups.columns(card.projectId)
    return {
      text: `${headline}\n${cardText(card, columnName(columns, card.columnId))}`,
      data: { card }
    } satisfies Reply
  })

  /** A session's reply: one line naming the card, the status and the lease. */
  const sessionReply = Effect.fnUntraced(function* (session: AgentSession, headline: string) {
    const card = yield* cards.get(yield* McpPrincipal, session.cardId)
    return {
      text: `${headline}\n${sessionLine(session, card.ref)}`,
      data: { session }
    } satisfies Reply
  })

  return { cardId, projectOf, resolveColumn, cardReply, sessionReply }
})
