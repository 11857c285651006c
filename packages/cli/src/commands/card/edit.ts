import type { Priority } from "@board/core/contract"
import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { priorityOption, projectOption, textOrStdin } from "../shared.ts"

export interface CardEditOptions {
  readonly card: string
  readonly project?: string
  readonly title?: string
  readonly description?: string
  readonly clearDescription?: boolean
  readonly priority?: Priority
}

export const runCardEdit = Effect.fn("card.edit")(function* (options: CardEditOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  if (options.description !== undefined && options.clearDescription === true) {
    return yield* usageError("use either --description or --clear-description, not both")
  }
  if (
    options.title === undefined &&
    options.description === undefined &&
    options.clearDescription !== true &&
    options.priority === undefined
  ) {
    return yield* usageError("nothing to change: give --title, --description, --clear-description or --priority")
  }
  const card = yield* lookup.card(options.card, options.project)
  const description = options.clearDescription === true ? null : yield* textOrStdin(options.description)
  const updated = yield* client.board.updateCard({
    params: { id: card.id },
    payload: {
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(options.priority !== undefined ? { priority: options.priority } : {})
    }
  })
  yield* out.message(`Updated ${updated.ref}: ${updated.title}`)
  yield* out.result(updated, () => updated.ref)
})

export const registerCardEdit = (card: Command, app: App) =>
  card
    .command("edit")
    .description("change a card's title, description or priority")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .addOption(projectOption())
    .option("--title <title>", "new title")
    .option("-d, --description <text>", "new description; - reads it from stdin")
    .option("--clear-description", "remove the description")
    .addOption(priorityOption())
    .addHelpText(
      "after",
      examples(
        "board card edit WEB-12 --priority urgent",
        'board card edit WEB-12 --title "Fix login on Safari"',
        "board card edit WEB-12 --description - < notes.md"
      )
    )
    .action((spec: string, flags: Omit<CardEditOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runCardEdit)
    )
