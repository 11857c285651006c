import { type PromptVariant, promptVariants } from "@board/core/contract"
import { Effect } from "effect"
import { type Command, Option } from "commander"
import type { App } from "../support/app.ts"
import { BoardApi } from "../support/client.ts"
import { examples } from "../support/format.ts"
import { Lookup } from "../support/lookup.ts"
import { Output } from "../support/output.ts"
import { projectOption } from "./shared.ts"

export interface PromptOptions {
  readonly card: string
  readonly variant?: PromptVariant
  readonly project?: string
}

export const runPrompt = Effect.fn("prompt")(function* (options: PromptOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const answer = yield* client.links.prompt({
    params: { id: card.id },
    query: options.variant !== undefined ? { variant: options.variant } : {}
  })
  yield* out.result(answer, () => answer.prompt)
})

export const registerPrompt = (program: Command, app: App) =>
  program
    .command("prompt")
    .description("print a Markdown prompt for an agent to work on a card (its subtasks, links and references)")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .addOption(new Option("--variant <variant>", "analysis, draft or execute (default)").choices(promptVariants))
    .addOption(projectOption())
    .addHelpText(
      "after",
      examples(
        "board prompt WEB-12",
        "board prompt WEB-12 --variant analysis | pbcopy",
        "board prompt WEB-12 | claude -p"
      )
    )
    .action((card: string, flags: Omit<PromptOptions, "card">, cmd: Command) =>
      app.run(cmd, { card, ...flags }, runPrompt)
    )
