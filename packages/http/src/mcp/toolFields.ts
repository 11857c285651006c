/**
 * What the MCP tools' definitions share (tools.ts, agentTools.ts): the behaviour hints, the
 * fields many tools take, and how a description states an enum or a limit.
 */
import { Priority, priorities } from "@board/core"
import { Schema } from "effect"
import { Tool } from "effect/ai"

export const hints =
  (readOnly: boolean, destructive: boolean, idempotent: boolean) =>
  <T extends Tool.Any>(tool: T): T =>
    tool
      .annotate(Tool.Readonly, readOnly)
      .annotate(Tool.Destructive, destructive)
      .annotate(Tool.Idempotent, idempotent)
      .annotate(Tool.OpenWorld, false) as T

export const reads = hints(true, false, true)

/** "a, b or c": the values of an enum in a description, from the domain's list. */
export const oneOf = (values: ReadonlyArray<string>) => `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`
/** A limit in a description: grouped from five digits on (2048, but 10,000). */
export const n = (limit: number) => (limit >= 10_000 ? limit.toLocaleString("en-US") : String(limit))

/**
 * A whole number, stated to clients as `type: integer` alone: Schema.Int also states the safe
 * integer bounds, 52 bytes on every such field of tools/list, which must stay small; the core
 * checks each number's own range.
 */
export const WholeNumber = Schema.Number.check(Schema.isInt({ toJsonSchema: () => ({ type: "integer" }) }))
export const Card = Schema.String.annotate({ description: "The card: its id or its ref (WEB-12)" })
export const ProjectHint = Schema.optionalKey(
  Schema.String.annotate({
    description: "The project id, when the card ref is in several of your projects"
  })
)
export const ProjectId = Schema.String.annotate({
  description: "The project: its id, its ref prefix (WEB, as in WEB-12) or its name (see list_projects)"
})
export const Column = Schema.String.annotate({
  description: 'The column: its id (a UUID) or its name, such as "In Progress" (case-insensitive)'
})
export const PriorityField = Priority.annotate({ description: `The priority: ${oneOf(priorities)}` })
