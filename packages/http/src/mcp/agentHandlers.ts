/**
 * The agent tools' handlers: claim a card or the next one from the queue, heartbeat, report and
 * release, each decoding its arguments with the contract's schemas (as REST does).
 */
import {
  ActivityInput,
  AgentSessionId,
  AgentSessions,
  ClaimInput,
  type ColumnId,
  checkedId,
  decodeInput,
  LabelId,
  Lookups,
  NotFound,
  QueueFilter,
  quote,
  ReleaseInput
} from "@board/core"
import { Effect, Schema } from "effect"
import { cardText, columnName, sessionLine } from "./format.ts"
import type { ToolHandlers } from "./handlers.ts"
import { McpPrincipal } from "./McpAuth.ts"
import { toolHelpers } from "./toolHelpers.ts"

const isLabelId = Schema.is(checkedId(LabelId))
const decodeSessionId = (sessionId: string) => decodeInput(checkedId(AgentSessionId), "sessionId")(sessionId.trim())

type AgentTool = "claim_card" | "claim_next_card" | "heartbeat" | "report" | "release_card"

export const makeAgentHandlers = Effect.gen(function* () {
  const sessions = yield* AgentSessions
  const lookups = yield* Lookups
  const { cardId, projectOf, resolveColumn, sessionReply } = yield* toolHelpers

  const handlers: Pick<ToolHandlers, AgentTool> = {
    claim_card: ({ card, ttlSeconds }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, undefined)
        const { created, session } = yield* sessions.claim(
          principal,
          id,
          yield* decodeInput(ClaimInput)({ ttlSeconds })
        )
        return yield* sessionReply(session, created ? "Claimed." : "You already hold it; lease renewed.")
      }),

    claim_next_card: ({ assignee, column, labels: names, projectId, ttlSeconds }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const project = yield* projectOf(projectId)
        const columnId = column === undefined ? undefined : yield* resolveColumn(project, column)
        const labelIds: Array<LabelId> = []
        for (const name of names ?? []) {
          const wanted = name.trim()
          const found = isLabelId(wanted) ? wanted : (yield* lookups.labelByName(project, wanted))?.id
          if (found === undefined) return yield* new NotFound({ message: `no label ${quote(wanted)} in this project` })
          labelIds.push(found)
        }
        const taken = yield* sessions.claimNext(
          principal,
          project,
          yield* decodeInput(QueueFilter)({ columnId, labelIds, assignee, ttlSeconds })
        )
        if (taken === undefined)
          return { text: "No unclaimed card matches; nothing was claimed.", data: { session: null } }
        const columns = yield* lookups.columns(taken.card.projectId)
        return {
          text: `Claimed ${taken.card.ref}.\n${sessionLine(taken.session, taken.card.ref)}\n${cardText(
            taken.card,
            columnName(columns, taken.card.columnId)
          )}`,
          data: { session: taken.session, card: taken.card }
        }
      }),

    heartbeat: ({ sessionId }) =>
      Effect.gen(function* () {
        const session = yield* sessions.heartbeat(yield* McpPrincipal, yield* decodeSessionId(sessionId))
        return yield* sessionReply(session, "Lease extended.")
      }),

    report: ({ body, sessionId, type }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const activity = yield* sessions.report(
          principal,
          yield* decodeSessionId(sessionId),
          yield* decodeInput(ActivityInput)({ type, body })
        )
        const { activities: _, ...session } = yield* sessions.get(principal, activity.sessionId, { limit: 1 })
        return { ...(yield* sessionReply(session, `Reported ${type}.`)), data: { activity, session } }
      }),

    release_card: ({ moveTo, sessionId, status }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* decodeSessionId(sessionId)
        let columnId: ColumnId | undefined
        if (moveTo !== undefined) {
          const { cardId: card } = yield* sessions.get(principal, id, { limit: 1 })
          columnId = yield* resolveColumn(yield* lookups.projectOfCard(principal, card), moveTo)
        }
        const session = yield* sessions.release(
          principal,
          id,
          yield* decodeInput(ReleaseInput)({ status, moveTo: columnId })
        )
        return yield* sessionReply(session, columnId === undefined ? "Released." : "Released and moved.")
      })
  }
  return handlers
})
