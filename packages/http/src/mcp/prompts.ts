/**
 * The three agent prompt variants as MCP prompts: `prompts/list` shows `analysis`, `draft` and
 * `execute`; `prompts/get` with the argument `card` (a ref such as WEB-12, or an id) answers
 * the text `Prompts.forCard` builds, as the principal of the request. A card the caller cannot
 * see, or a ref in several of their projects without `projectId`, is an error with the message.
 */
import { Lookups, PROMPT_VARIANTS, type PromptVariant, Prompts } from "@board/core"
import { Effect, Layer, Schema } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { resolveCard } from "./arguments.ts"
import { McpPrincipal } from "./McpAuth.ts"

const about: Record<PromptVariant, { readonly title: string; readonly description: string }> = {
  analysis: {
    title: "Analyse a card",
    description:
      "Understand a card and plan the work without changing anything: the card, its subtasks and links, and the project's key references."
  },
  draft: {
    title: "Draft a card's implementation",
    description:
      "Propose an implementation of a card for review, from the card, its subtasks and links, and the project's key references."
  },
  execute: {
    title: "Carry out a card",
    description:
      "Do the work a card describes, from the card, its subtasks and links, and the project's key references."
  }
}

export const PromptsLayer = Layer.unwrap(
  Effect.gen(function* () {
    const prompts = yield* Prompts
    const lookups = yield* Lookups
    const promptFor = (variant: PromptVariant) =>
      McpServer.prompt({
        name: variant,
        title: about[variant].title,
        description: about[variant].description,
        parameters: {
          card: Schema.String.annotate({ description: "The card: its ref, such as WEB-12, or its id" }),
          projectId: Schema.optionalKey(
            Schema.String.annotate({ description: "The project id, when the ref exists in several of your projects" })
          )
        },
        completion: {
          card: (input: string) =>
            Effect.gen(function* () {
              return yield* lookups.refsStartingWith(yield* McpPrincipal, input)
            })
        },
        content: ({ card, projectId }) =>
          Effect.gen(function* () {
            const id = yield* resolveCard(lookups, card, projectId)
            const result = yield* prompts.forCard(yield* McpPrincipal, id, variant)
            return result.prompt
          }).pipe(Effect.mapError((e) => new McpSchema.InvalidParams({ message: e.message })))
      })
    const [first, ...rest] = PROMPT_VARIANTS.map(promptFor)
    return Layer.mergeAll(first!, ...rest)
  })
)
