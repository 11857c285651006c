/**
 * The three agent prompt variants as MCP prompts: `prompts/list` shows `analysis`, `draft` and
 * `execute`; `prompts/get` with the argument `card` (a ref such as WEB-12, or an id) answers
 * the text `Prompts.forCard` builds, as the principal of the request. A card the caller cannot
 * see, or a ref in several of their projects without `projectId`, is an error with the message.
 *
 * A fourth prompt, `work_queue`, is the agent's loop over a board (issue 19): take the next card
 * from a column with claim_next_card, work it, report, and release it into the done column.
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

/** The loop an agent runs over a board, in the tools' own names. */
export const workQueueText = (projectId: string, from: string, to: string): string =>
  [
    `You work through the board ${projectId}, one card at a time.`,
    `1. Call claim_next_card with projectId ${JSON.stringify(projectId)} and column ${JSON.stringify(from)}. If nothing is left, stop.`,
    "2. Read the card (get_prompt with its ref gives its full context) and do the work it describes.",
    "3. While you work, report short thoughts and actions with report (sessionId from step 1); call heartbeat before the lease ends.",
    "4. If you need a person's answer, report an elicitation and wait: their comment on the card resumes the session.",
    `5. When done, report your response (the result), or call release_card with status "complete" and moveTo ${JSON.stringify(to)} to move the card there in the same step.`,
    '6. On an error you cannot recover from, report an error and release_card with status "released" so someone else can take it.',
    "Then take the next card."
  ].join("\n")

const workQueue = McpServer.prompt({
  name: "work_queue",
  title: "Work the queue",
  description: "Take the next card from a column, work it, report, and move it to Done; then the next.",
  parameters: {
    projectId: Schema.String.annotate({ description: "The project: its id, its ref prefix (WEB) or its name" }),
    column: Schema.optionalKey(
      Schema.String.annotate({ description: 'The column to take cards from (default "To Do")' })
    ),
    doneColumn: Schema.optionalKey(
      Schema.String.annotate({ description: 'The column finished cards go to (default "Done")' })
    )
  },
  content: ({ column, doneColumn, projectId }) =>
    Effect.succeed(workQueueText(projectId.trim(), column ?? "To Do", doneColumn ?? "Done"))
})

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
    return Layer.mergeAll(first!, ...rest, workQueue)
  })
)
