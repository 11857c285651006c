/**
 * The MCP tools' and prompts' arguments that name things, decoded: a `projectId` must look like
 * one (its message points at list_projects), and a card is resolved by the core's `Lookups`
 * with what an MCP caller can do about an ambiguous ref (pass projectId).
 */
import { checkedId, InvalidInput, type Lookups, ProjectId, quote } from "@board/core"
import { Effect, Schema } from "effect"
import { McpPrincipal } from "./McpAuth.ts"

const isProjectId = Schema.is(checkedId(ProjectId))

/** A `projectId` argument decoded as the contract decodes one, with a message that says where to find one. */
export const checkProjectId = (projectId: string): Effect.Effect<ProjectId, InvalidInput> => {
  const id = projectId.trim()
  return isProjectId(id)
    ? Effect.succeed(id)
    : Effect.fail(
        new InvalidInput({
          message: `projectId: ${quote(projectId)} is not a project id (a UUID); list_projects shows them`
        })
      )
}

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
    projectId: projectId === undefined ? undefined : yield* checkProjectId(projectId),
    prefer,
    field,
    remedy: "pass projectId to say which, or use the card id"
  })
})
