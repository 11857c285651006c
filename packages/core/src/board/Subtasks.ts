/** Subtasks of a card, ordered by a dense position, each completed or not. */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { retryConflicts } from "../infra/retryConflicts.ts"
import { Access } from "./Access.ts"
import { checkTitle } from "./cardRules.ts"
import { type SubtaskView, toSubtask } from "./cardView.ts"
import { clampPosition } from "./positions.ts"

type AccessError = NotFound | WorkspaceNotGranted
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
    readonly create: (
      principal: Principal,
      input: { cardId: string; title: string; position?: number | undefined }
    ) => Effect.Effect<SubtaskView, InvalidInput | AccessError>
    readonly toggle: (principal: Principal, id: string) => Effect.Effect<SubtaskView, AccessError>
    /** Sets the state explicitly (natural-language "complete" and "reopen"). */
    readonly setCompleted: (
      principal: Principal,
      id: string,
      completed: boolean
    ) => Effect.Effect<SubtaskView, AccessError>
    readonly remove: (principal: Principal, id: string) => Effect.Effect<void, AccessError>
  }
>()("board/core/Subtasks") {
  static readonly layer = Layer.effect(
    Subtasks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access

      const create = Effect.fn("Subtasks.create")(function* (
        principal: Principal,
        input: { cardId: string; title: string; position?: number | undefined }
      ) {
        const invalid = checkTitle(input.title)
        if (invalid) return yield* invalid
        if (input.position !== undefined && (!Number.isInteger(input.position) || input.position < 0)) {
          return yield* new InvalidInput({ message: "position: must be a whole number from 0" })
        }
        yield* access.resolve(principal, "card", input.cardId)
        const now = yield* sqlNow
        const row = yield* sql
          .withTransaction(
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
              return row
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        if (row === undefined) return yield* new NotFound({ message: `card ${input.cardId} not found` })
        return view(row)
      })

      const write = (id: string, completed: boolean | "flip") =>
        Effect.flatMap(sqlNow, (now) =>
          sql<Row>`
          UPDATE subtasks SET completed = ${completed === "flip" ? sql`NOT completed` : completed}, updated_at = ${now}::timestamptz
          WHERE id = ${id}
          RETURNING id, card_id, title, completed, position, created_at, updated_at`.pipe(
            Effect.orDie,
            Effect.flatMap((rows) =>
              rows[0] !== undefined
                ? Effect.succeed(view(rows[0]))
                : Effect.fail(new NotFound({ message: `subtask ${id} not found` }))
            ),
            Effect.tap((s) =>
              sql`UPDATE cards SET updated_at = ${now}::timestamptz WHERE id = ${s.cardId}`.pipe(Effect.orDie)
            )
          )
        )

      const toggle = Effect.fn("Subtasks.toggle")(function* (principal: Principal, id: string) {
        yield* access.resolve(principal, "subtask", id)
        return yield* write(id, "flip")
      })

      const setCompleted = Effect.fn("Subtasks.setCompleted")(function* (
        principal: Principal,
        id: string,
        completed: boolean
      ) {
        yield* access.resolve(principal, "subtask", id)
        return yield* write(id, completed)
      })

      const remove = Effect.fn("Subtasks.remove")(function* (principal: Principal, id: string) {
        yield* access.resolve(principal, "subtask", id)
        const now = yield* sqlNow
        yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const [row] = yield* sql<{
                card_id: string
                position: number
              }>`DELETE FROM subtasks WHERE id = ${id} RETURNING card_id, position`
              if (row !== undefined) {
                yield* sql`UPDATE subtasks SET position = position - 1 WHERE card_id = ${row.card_id} AND position > ${row.position}`
                yield* sql`UPDATE cards SET updated_at = ${now}::timestamptz WHERE id = ${row.card_id}`
              }
            })
          )
          .pipe(retryConflicts, Effect.orDie)
      })

      return Subtasks.of({ create, toggle, setCompleted, remove })
    })
  )
}
