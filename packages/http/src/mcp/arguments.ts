/**
 * The MCP tools' and prompts' arguments that name things, resolved by the core's `Lookups`: a
 * project by its id, ref prefix (WEB) or name (issue 33), and a card with what an MCP caller
 * can do about an ambiguous ref (pass projectId).
 */
import type { Lookups, ProjectId } from "@board/core"
import { Effect } from "effect"
import { McpPrincipal } from "./McpAuth.ts"

/** The id of the project a `projectId` argument names: its id, its ref prefix or its name. */
export const resolveProject = Effect.fnUntraced(function* (lookups: Lookups["Service"], projectId: string) {
  const project = yield* lookups.projectNamed(yield* McpPrincipal, projectId)
  return project.id as ProjectId
})

/**
 * The id of the card named by `card` (an id, or a ref unique among the visible projects or
 * within `projectId`); `prefer` breaks a tie between projects (the other card of a link).
 */
export const resolveCard = Effect.fnUntraced(function* (
  lookups: Lookups["Service"],
  card: string,
  projectId: string | undefined,
  field = "card",
  prefer?: string
) {
  const principal = yield* McpPrincipal
  return yield* lookups.cardId(principal, card, {
    projectId,
    prefer,
    field,
    remedy: "pass projectId to say which, or use the card id"
  })
})
