import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure, usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { ask, stdinIsTerminal } from "../../support/prompt.ts"
import { projectOption } from "../shared.ts"

export interface CardDeleteOptions {
  readonly card: string
  readonly project?: string
  readonly yes?: boolean
}

export const runCardDelete = Effect.fn("card.delete")(function* (options: CardDeleteOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  if (options.yes !== true) {
    if (!stdinIsTerminal()) return yield* usageError(`deleting ${card.ref} cannot be undone: confirm with --yes`)
    const answer = yield* ask(
      `Delete ${card.ref} "${card.title}" with its subtasks and links? This cannot be undone. [y/N] `
    )
    if (!/^y(es)?$/i.test(answer)) return yield* failure("not deleted")
  }
  yield* client.board.deleteCard({ params: { id: card.id } })
  yield* out.message(`Deleted ${card.ref}: ${card.title}`)
  yield* out.result({ deleted: { id: card.id, ref: card.ref } }, () => undefined)
})

export const registerCardDelete = (card: Command, app: App) =>
  card
    .command("delete")
    .description("delete a card with its subtasks, labels and links (asks first on a terminal)")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .addOption(projectOption())
    .option("-y, --yes", "do not ask; required when stdin is not a terminal")
    .addHelpText("after", examples("board card delete WEB-12", "board card delete WEB-12 --yes"))
    .action((spec: string, flags: Omit<CardDeleteOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runCardDelete)
    )
