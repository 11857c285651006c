/**
 * What a column's kind means on the board (CONTRACT.md, Column kinds): the words a person sees
 * for it, and the overdue rule, which goes by the kind and never by a column's name or place.
 */
import type { Column } from "../types.ts"

export type ColumnKind = Column["kind"]

/** In the order of the workflow, with the words the board shows. */
export const columnKindText: ReadonlyArray<readonly [ColumnKind, string]> = [
  ["todo", "To do"],
  ["in_progress", "In progress"],
  ["done", "Done"]
]

export const kindText = (kind: ColumnKind): string => columnKindText.find(([k]) => k === kind)?.[1] ?? kind

/** A card is overdue when its due time has passed, unless it sits in a `done` column: finished work is never late. */
export const isOverdue = (dueAt: string | null, kind: ColumnKind | undefined, now: number): boolean =>
  dueAt !== null && kind !== "done" && new Date(dueAt).getTime() < now
