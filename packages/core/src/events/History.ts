/**
 * History (issue 18): a project's or a card's events, read through the access rule. Also the
 * one place that checks a live stream's request (access, cursor, types) before it is opened.
 */
import { Context, Effect, Layer } from "effect"
import { Access } from "../board/Access.ts"
import { EVENT_PAGE_DEFAULT, EVENT_PAGE_MAX, type EventPage, eventTypes, isEventId } from "../domain/event.ts"
import { InvalidInput, type NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { EventLog } from "./EventLog.ts"

export interface HistoryQuery {
  readonly after?: string | undefined
  readonly limit?: number | undefined
  /** Event types to keep (all when absent or empty). */
  readonly types?: ReadonlyArray<string> | undefined
}

const known: ReadonlySet<string> = new Set(eventTypes)

/** `types` as a client sends it (`a,b`): each must be a known type, named when it is not. */
export const checkTypes = (types: ReadonlyArray<string> | undefined): Effect.Effect<Array<string>, InvalidInput> => {
  const list = (types ?? []).map((t) => t.trim()).filter((t) => t !== "")
  const unknown = list.find((t) => !known.has(t))
  return unknown === undefined
    ? Effect.succeed([...new Set(list)])
    : Effect.fail(
        new InvalidInput({
          message: `types: unknown event type ${JSON.stringify(unknown)}; known types are ${eventTypes.join(", ")}`
        })
      )
}

const checkQuery = (query: HistoryQuery) =>
  Effect.gen(function* () {
    if (query.after !== undefined && !isEventId(query.after)) {
      return yield* new InvalidInput({ message: "after: expected an event id (24 lowercase hex digits)" })
    }
    const limit = query.limit ?? EVENT_PAGE_DEFAULT
    if (!Number.isInteger(limit) || limit < 1 || limit > EVENT_PAGE_MAX) {
      return yield* new InvalidInput({ message: `limit: must be a whole number from 1 to ${EVENT_PAGE_MAX}` })
    }
    const types = yield* checkTypes(query.types)
    return { after: query.after, limit, types }
  })

type Failure = InvalidInput | NotFound | WorkspaceNotGranted

export class History extends Context.Service<
  History,
  {
    /** A project's events after a cursor, oldest first. */
    readonly project: (
      principal: Principal,
      projectId: string,
      query: HistoryQuery
    ) => Effect.Effect<EventPage, Failure>
    /** The events of one card (the card itself, its labels, subtasks and links), oldest first. */
    readonly card: (principal: Principal, cardId: string, query: HistoryQuery) => Effect.Effect<EventPage, Failure>
    /** Checks a principal may stream a project's events from a cursor (before the stream opens); answers the project's workspace, which the open stream keeps re-checking. */
    readonly checkStream: (
      principal: Principal,
      projectId: string,
      after: string | undefined
    ) => Effect.Effect<{ readonly workspaceId: string }, Failure>
  }
>()("board/core/History") {
  static readonly layer = Layer.effect(
    History,
    Effect.gen(function* () {
      const access = yield* Access
      const log = yield* EventLog
      return History.of({
        project: (principal, projectId, query) =>
          Effect.gen(function* () {
            const q = yield* checkQuery(query)
            yield* access.resolve(principal, "project", projectId)
            return yield* log.page("project", projectId, q)
          }),
        card: (principal, cardId, query) =>
          Effect.gen(function* () {
            const q = yield* checkQuery(query)
            yield* access.resolve(principal, "card", cardId)
            return yield* log.page("card", cardId, q)
          }),
        checkStream: (principal, projectId, after) =>
          Effect.gen(function* () {
            if (after !== undefined && !isEventId(after)) {
              return yield* new InvalidInput({
                message: "Last-Event-ID / after: expected an event id (24 lowercase hex digits)"
              })
            }
            const { workspaceId } = yield* access.resolve(principal, "project", projectId)
            return { workspaceId }
          })
      })
    })
  )
}
