/** Project templates: `kanban` makes the three classic columns; no template makes a blank board. */
export const projectTemplates: Record<string, ReadonlyArray<string>> = {
  kanban: ["To Do", "In Progress", "Done"]
}
