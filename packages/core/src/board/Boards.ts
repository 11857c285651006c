/** A whole board in one response, read in a constant number of queries whatever its size. */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { NotFound, WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { Access } from "./Access.ts"
import { cardColumns, type CardRow, type CardView, type LabelView, toCard, toLabel } from "./cardView.ts"
import { type ColumnView, type ProjectView, toColumn, toProject } from "./rows.ts"

export interface BoardView {
  readonly project: ProjectView
  readonly columns: ReadonlyArray<ColumnView>
  /** In column order, then position order. */
  readonly cards: ReadonlyArray<CardView>
  readonly labels: ReadonlyArray<LabelView>
}

export class Boards extends Context.Service<Boards, {
  readonly get: (principal: Principal, projectId: string) => Effect.Effect<BoardView, NotFound | WorkspaceNotGranted>
}>()("board/core/Boards") {
  static readonly layer = Layer.effect(
    Boards,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access

      const get = Effect.fn("Boards.get")(function*(principal: Principal, projectId: string) {
        yield* access.resolve(principal, "project", projectId)
        const [[project], columns, cards, labels] = yield* Effect.all([
          sql<{ id: string; workspace_id: string; name: string; ref_prefix: string; created_at: Date; updated_at: Date }>`
            SELECT id, workspace_id, name, ref_prefix, created_at, updated_at FROM projects WHERE id = ${projectId}`,
          sql<{ id: string; project_id: string; name: string; position: number; created_at: Date; updated_at: Date }>`
            SELECT id, project_id, name, position, created_at, updated_at FROM board_columns
            WHERE project_id = ${projectId} ORDER BY position`,
          sql.unsafe<CardRow>(`
            SELECT ${cardColumns("(row_number() OVER (PARTITION BY c.column_id ORDER BY c.sort_key) - 1)::int")}
            FROM cards c JOIN board_columns col ON col.id = c.column_id
            WHERE c.project_id = $1 ORDER BY col.position, c.sort_key`, [projectId]),
          sql<{ id: string; project_id: string; name: string; color: string | null; created_at: Date; updated_at: Date }>`
            SELECT id, project_id, name, color, created_at, updated_at FROM labels
            WHERE project_id = ${projectId} ORDER BY lower(name), id`
        ], { concurrency: "unbounded" }).pipe(Effect.orDie)
        return {
          project: toProject(project!),
          columns: columns.map(toColumn),
          cards: cards.map(toCard),
          labels: labels.map((l) => toLabel({ id: l.id, projectId: l.project_id, name: l.name, color: l.color, createdAt: l.created_at, updatedAt: l.updated_at }))
        }
      })

      return Boards.of({ get })
    })
  )
}
