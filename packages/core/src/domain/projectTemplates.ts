import type { ColumnKind } from "./enums.ts"

/** A column a template makes: its name and its kind (what it holds in the workflow). */
export interface TemplateColumn {
  readonly name: string
  readonly kind: ColumnKind
}

/**
 * Project templates: `kanban` makes the three classic columns, waiting, under way and done; no
 * template makes a blank board. A new template names each column's kind here (docs/board.md).
 */
export const projectTemplates: Record<string, ReadonlyArray<TemplateColumn>> = {
  kanban: [
    { name: "To Do", kind: "todo" },
    { name: "In Progress", kind: "in_progress" },
    { name: "Done", kind: "done" }
  ]
}
