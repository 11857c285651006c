/** Columns of a board: dense positions per project, and no silent loss of cards on delete. */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Conflict, type Forbidden, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { ColumnKind } from "../domain/enums.ts"
import type { ColumnId } from "../domain/ids.ts"
import type { ColumnCreate, ColumnPatch } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { retryConflicts } from "../infra/retryConflicts.ts"
import { EventLog } from "../events/EventLog.ts"
import { Access, type Resolved } from "./Access.ts"
import { deleteOrderCounts } from "./orderCounts.ts"
import { clampPosition } from "./positions.ts"
import { type ColumnRow, type ColumnView, columnRowColumns, toColumn } from "./rows.ts"

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict

export class Columns extends Context.Service<
  Columns,
  {
    /** `input` was decoded with `ColumnCreate` (its rules are the contract's), as every caller does. */
    readonly create: (principal: Principal, input: ColumnCreate) => Effect.Effect<ColumnView, WriteError>
    readonly update: (principal: Principal, id: ColumnId, patch: ColumnPatch) => Effect.Effect<ColumnView, WriteError>
    readonly remove: (principal: Principal, id: ColumnId) => Effect.Effect<void, WriteError>
  }
>()("board/core/Columns") {
  static readonly layer = Layer.effect(
    Columns,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog

      // a column's event, in the change's transaction. Only the column named is logged: the
      // others' dense positions shift around it, as a client that applies the change can tell
      const log = (
        principal: Principal,
        type: "column.created" | "column.updated" | "column.deleted",
        project: Resolved,
        column: ColumnView,
        previous?: Record<string, unknown>
      ) =>
        events.record(principal, {
          type,
          workspaceId: project.workspaceId,
          projectId: column.projectId,
          object: column,
          previous
        })

      type Row = ColumnRow
      // NO KEY UPDATE: serialises column edits of a project without blocking card writes, whose
      // foreign key takes KEY SHARE on the project (FOR UPDATE would deadlock with a create that
      // holds its column FOR KEY SHARE; see orderKeys.ts)
      const lockProject = (projectId: string) => sql`SELECT id FROM projects WHERE id = ${projectId} FOR NO KEY UPDATE`

      const create = Effect.fn("Columns.create")(function* (principal: Principal, input: ColumnCreate) {
        const project = yield* access.write(principal, "project", input.projectId, { action: "change columns" })
        const now = yield* sqlNow
        const row = yield* events
          .withEvents(
            Effect.gen(function* () {
              yield* lockProject(input.projectId)
              const [{ n }] = yield* sql<{
                n: number
              }>`SELECT count(*)::int AS n FROM board_columns WHERE project_id = ${input.projectId}`
              const position = clampPosition(input.position, n)
              // CONTRACT.md: a board's first column is where work waits; a later one is under way
              const kind = input.kind ?? (n === 0 ? "todo" : "in_progress")
              yield* sql`UPDATE board_columns SET position = position + 1 WHERE project_id = ${input.projectId} AND position >= ${position}`
              const [row] = yield* sql<Row>`
            INSERT INTO board_columns (project_id, name, position, kind, created_at, updated_at)
            VALUES (${input.projectId}, ${input.name.trim()}, ${position}, ${kind}, ${now}::timestamptz, ${now}::timestamptz)
            RETURNING ${sql.literal(columnRowColumns)}`
              const column = toColumn(row!)
              yield* log(principal, "column.created", project, column)
              return column
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        return row
      })

      const update = Effect.fn("Columns.update")(function* (principal: Principal, id: ColumnId, patch: ColumnPatch) {
        const column = yield* access.write(principal, "column", id)
        const now = yield* sqlNow
        const row = yield* events
          .withEvents(
            Effect.gen(function* () {
              yield* lockProject(column.projectId!)
              const [current] = yield* sql<{
                position: number
                name: string
                kind: ColumnKind
              }>`SELECT position, name, kind FROM board_columns WHERE id = ${id} FOR UPDATE`
              if (current === undefined) return undefined
              // an empty patch changes nothing: no write, no event
              if (patch.position === undefined && patch.name === undefined && patch.kind === undefined) {
                const [row] = yield* sql<Row>`
                  SELECT ${sql.literal(columnRowColumns)} FROM board_columns WHERE id = ${id}`
                return row
              }
              if (patch.position !== undefined) {
                const [{ n }] = yield* sql<{
                  n: number
                }>`SELECT count(*)::int AS n FROM board_columns WHERE project_id = ${column.projectId!}`
                const target = clampPosition(patch.position, n - 1)
                if (target < current.position) {
                  yield* sql`UPDATE board_columns SET position = position + 1 WHERE project_id = ${column.projectId!} AND position >= ${target} AND position < ${current.position}`
                } else if (target > current.position) {
                  yield* sql`UPDATE board_columns SET position = position - 1 WHERE project_id = ${column.projectId!} AND position > ${current.position} AND position <= ${target}`
                }
                yield* sql`UPDATE board_columns SET position = ${target} WHERE id = ${id}`
              }
              if (patch.name !== undefined)
                yield* sql`UPDATE board_columns SET name = ${patch.name.trim()} WHERE id = ${id}`
              if (patch.kind !== undefined) yield* sql`UPDATE board_columns SET kind = ${patch.kind} WHERE id = ${id}`
              const [row] = yield* sql<Row>`
            UPDATE board_columns SET updated_at = ${now}::timestamptz WHERE id = ${id}
            RETURNING ${sql.literal(columnRowColumns)}`
              const after = toColumn(row!)
              const previous: Record<string, unknown> = {}
              if (after.name !== current.name) previous.name = current.name
              if (after.position !== current.position) previous.position = current.position
              if (after.kind !== current.kind) previous.kind = current.kind
              yield* log(principal, "column.updated", column, after, previous)
              return row
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        if (row === undefined) return yield* new NotFound({ message: `column ${id} not found` })
        return toColumn(row)
      })

      const remove = Effect.fn("Columns.remove")(function* (principal: Principal, id: ColumnId) {
        const column = yield* access.write(principal, "column", id, { action: "delete columns", deletes: true })
        const outcome = yield* events
          .withEvents(
            Effect.gen(function* () {
              yield* lockProject(column.projectId!)
              const [current] = yield* sql<{
                position: number
              }>`SELECT position FROM board_columns WHERE id = ${id} FOR UPDATE`
              if (current === undefined) return "gone" as const
              // archived cards keep their column (a restore puts them back in it), so they hold it too
              const [{ n, archived }] = yield* sql<{ n: number; archived: number }>`
                SELECT count(*)::int AS n, count(archived_at)::int AS archived FROM cards WHERE column_id = ${id}`
              if (n > 0) return { n, archived }
              const [gone] = yield* sql<Row>`
                DELETE FROM board_columns WHERE id = ${id}
                RETURNING ${sql.literal(columnRowColumns)}`
              // the rows its deleted cards left (netting zero): no fold takes a column that is gone
              yield* deleteOrderCounts(sql, [id])
              // its last state
              yield* log(principal, "column.deleted", column, toColumn(gone!))
              yield* sql`UPDATE board_columns SET position = position - 1 WHERE project_id = ${column.projectId!} AND position > ${current.position}`
              return "deleted" as const
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        if (outcome === "gone") return yield* new NotFound({ message: `column ${id} not found` })
        if (typeof outcome === "object") {
          const { n, archived } = outcome
          const which = archived === 0 ? "" : ` (${archived} archived: restore and move them, or delete them)`
          return yield* new Conflict({
            message: `column ${id} still holds ${n} card${n === 1 ? "" : "s"}${which}; move or delete them first`
          })
        }
      })

      return Columns.of({ create, update, remove })
    })
  )
}
