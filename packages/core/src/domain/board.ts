/** A board: a project's columns, cards and labels, as clients see them. */
import { Schema } from "effect"
import { Card, Label } from "./card.ts"
import { ColumnKind } from "./enums.ts"
import { EventId } from "./event.ts"
import { ColumnId, ProjectId } from "./ids.ts"
import { Timestamp } from "./text.ts"
import { Project } from "./workspace.ts"

export const Column = Schema.Struct({
  id: ColumnId,
  projectId: ProjectId,
  name: Schema.String,
  position: Schema.Int,
  kind: ColumnKind.annotate({
    description:
      "What the column holds: `todo` (work waiting: the agent queue takes from these), `in_progress`, or `done` (its cards are never overdue)."
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Column", description: "A column of a project's board, in its place among the columns." })
export type Column = typeof Column.Type

export const Board = Schema.Struct({
  project: Project,
  columns: Schema.Array(Column),
  /** In column order, then position order. */
  cards: Schema.Array(Card),
  labels: Schema.Array(Label),
  /**
   * The event cursor of the board's own snapshot (24 zeros when the project has no event): open
   * the event stream with `after` = this, and every change the board does not show follows.
   */
  eventCursor: EventId.annotate({
    description:
      "The event cursor of this snapshot: the project's newest event older than every transaction still running when the board was read (24 zeros when none). Pass it as the event stream's `after` (or history's) to receive every change the board does not show; a few events it already shows may come again, each with its whole object."
  })
}).annotate({
  identifier: "Board",
  description: "A project's whole board: its columns, cards and labels, and the event cursor of the snapshot."
})
export type Board = typeof Board.Type
