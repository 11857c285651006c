/** A board: a project's columns, cards and labels, as clients see them. */
import { Schema } from "effect"
import { Card, Label } from "./card.ts"
import { ColumnId, ProjectId } from "./ids.ts"
import { Timestamp } from "./text.ts"
import { Project } from "./workspace.ts"

export const Column = Schema.Struct({
  id: ColumnId,
  projectId: ProjectId,
  name: Schema.String,
  position: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type Column = typeof Column.Type

export const Board = Schema.Struct({
  project: Project,
  columns: Schema.Array(Column),
  /** In column order, then position order. */
  cards: Schema.Array(Card),
  labels: Schema.Array(Label)
})
export type Board = typeof Board.Type
