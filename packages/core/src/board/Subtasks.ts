/** Subtasks of a card, ordered by a dense position, each completed or not. */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Conflict, Forbidden } from "../domain/errors.ts"
import { NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { SubtaskId } from "../domain/ids.ts"
import type { SubtaskCreate } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { retryConflicts } from "../infra/retryConflicts.ts"
import { EventLog } from "../events/EventLog.ts"
import { Access, type Resolved } from "./Access.ts"
import { type SubtaskView, toSubtask } from "./cardView.ts"
import { clampPosition } from "./positions.ts"

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict
type Row = {
  id: string
  card_id: string
  title: string
  completed: boolean
  position: number
  created_at: Date
  updated_at: Date
}
const view = (r: Row): SubtaskView =>
  toSubtask({
    id: r.id,
    cardId: r.card_id,
    title: r.title,
    completed: r.completed,
    position: r.position,
    createdAt: r.created_at,
    updatedAt: r.updated_at
  })

export class Subtasks extends Context.Service<
  Subtasks,
  {
    /** `input` was decoded with `SubtaskCreate`, as every caller does. */
    readonly create: (principal: Principal, input: SubtaskCreate) => Effect.Effect<SubtaskView, WriteError>
    readonly toggle: (principal: Principal, id: SubtaskId) => Effect.Effect<SubtaskView, WriteError>
    /** Sets the state explicitly (natural-language "complete" and "reopen"). */
    readonly setCompleted: (
      principal: Principal,
      id: SubtaskId,
      completed: boolean
    ) => Effect.Effect<SubtaskView, WriteError>
    readonly remove: (principal: Principal, id: SubtaskId) => Effect.Effect<void, WriteError>
  }
>()("board/core/Subtasks") {
  static readonly layer = Layer.effect(
    Subtasks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog

      const log = (
        principal: Principal,
        type: "subtask.created" | "subtask.toggled" | "subtask.deleted",
        at: Resolved,
        subtask: SubtaskView,
        previous?: Record<string, unknown>
      ) =>
        events.record(principal, {
          type,
          workspaceId: at.workspaceId,
          projectId: at.projectId!,
          // a subtask's events are its card's history
          cardId: subtask.cardId,
          object: subtask,
          previous
        })

      const create = Effect.fn("Subtasks.create")(function* (principal: Principal, input: SubtaskCreate) {
        const at = yield* access.write(principal, "card", input.cardId, { action: "change subtasks" })
        const now = yield* sqlNow
        const row = yield* events
          .withEvents(
            Effect.gen(function* () {
              const [card] = yield* sql`SELECT id FROM cards WHERE id = ${input.cardId} FOR UPDATE`
              if (card === undefined) return undefined
              const [{ n }] = yield* sql<{
                n: number
              }>`SELECT count(*)::int AS n FROM subtasks WHERE card_id = ${input.cardId}`
              const position = clampPosition(input.position, n)
              yield* sql`UPDATE subtasks SET position = position + 1 WHERE card_id = ${input.cardId} AND position >= ${position}`
              const [row] = yield* sql<Row>`
            INSERT INTO subtasks (card_id, title, position, created_at, updated_at)
            VALUES (${input.cardId}, ${input.title}, ${position}, ${now}::timestamptz, ${now}::timestamptz)
            RETURNING id, card_id, title, completed, position, created_at, updated_at`
              yield* sql`UPDATE cards SET updated_at = ${now}::timestamptz WHERE id = ${input.cardId}`
              yield* log(principal, "subtask.created", at, view(row!))
              return row
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        if (row === undefined) return yield* new NotFound({ message: `card ${input.cardId} not found` })
        return view(row)
      })

      /**
       * Sets (or flips) a subtask's state, touches its card and logs `subtask.toggled`, in one
       * transaction. Setting the state it already has writes nothing and logs nothing.
       */
      const write = (principal: Principal, at: Resolved, id: string, completed: boolean | "flip") =>
        Effect.flatMap(sqlNow, (now) =>
          events
            .withEvents(
              Effect.gen(function* () {
                const [row] = yield* sql<Row & { was: boolean }>`
                  WITH s AS (
                    UPDATE subtasks s SET completed = ${completed === "flip" ? sql`NOT old.completed` : completed}, updated_at = ${now}::timestamptz
                    FROM subtasks old
                    WHERE s.id = ${id} AND old.id = s.id ${completed === "flip" ? sql`` : sql`AND old.completed <> ${completed}`}
                    RETURNING s.id, s.card_id, s.title, s.completed, s.position, s.created_at, s.updated_at, old.completed AS was
                  ), touched AS (
                    UPDATE cards SET updated_at = ${now}::timestamptz WHERE id IN (SELECT card_id FROM s)
                  )
                  SELECT * FROM s`
                if (row !== undefined) {
                  const subtask = view(row)
                  yield* log(principal, "subtask.toggled", at, subtask, { completed: row.was })
                  return subtask
                }
                // unchanged (already in that state), or gone
                const [same] = yield* sql<Row>`
                  SELECT id, card_id, title, completed, position, created_at, updated_at FROM subtasks WHERE id = ${id}`
                return same === undefined ? undefined : view(same)
              })
            )
            .pipe(
              Effect.orDie,
              Effect.flatMap((s) =>
                s !== undefined ? Effect.succeed(s) : Effect.fail(new NotFound({ message: `subtask ${id} not found` }))
              )
            )
        )

      const toggle = Effect.fn("Subtasks.toggle")(function* (principal: Principal, id: SubtaskId) {
        const at = yield* access.write(principal, "subtask", id)
        return yield* write(principal, at, id, "flip")
      })

      const setCompleted = Effect.fn("Subtasks.setCompleted")(function* (
        principal: Principal,
        id: SubtaskId,
        completed: boolean
      ) {
        const at = yield* access.write(principal, "subtask", id)
        return yield* write(principal, at, id, completed)
      })

      const remove = Effect.fn("Subtasks.remove")(function* (principal: Principal, id: SubtaskId) {
        const at = yield* access.write(principal, "subtask", id, { action: "delete subtasks", deletes: true })
        const now = yield* sqlNow
        yield* events
          .withEvents(
            Effect.gen(function* () {
              const [row] = yield* sql<Row>`
                DELETE FROM subtasks WHERE id = ${id}
                RETURNING id, card_id, title, completed, position, created_at, updated_at`
              if (row !== undefined) {
                yield* sql`UPDATE subtasks SET position = position - 1 WHERE card_id = ${row.card_id} AND position > ${row.position}`
                yield* sql`UPDATE cards SET updated_at = ${now}::timestamptz WHERE id = ${row.card_id}`
                // its last state
                yield* log(principal, "subtask.deleted", at, view(row))
              }
            })
          )
          .pipe(retryConflicts, Effect.orDie)
      })

      return Subtasks.of({ create, toggle, setCompleted, remove })
    })
  )
}
