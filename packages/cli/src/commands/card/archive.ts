import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface CardArchiveOptions {
  readonly card: string
  readonly project?: string
}

/** Archives (off the board, search and the queue; nothing lost) or restores (at the end of its column) a card. */
const runArchiveOrRestore = (to: "archive" | "restore") =>
  Effect.fn(`card.${to}`)(function* (options: CardArchiveOptions) {
    const { client } = yield* BoardApi
    const lookup = yield* Lookup
    const out = yield* Output
    const card = yield* lookup.card(options.card, options.project)
    const params = { params: { id: card.id } }
    const after = yield* to === "archive" ? client.board.archiveCard(params) : client.board.restoreCard(params)
    yield* out.message(
      to === "archive"
        ? `Archived ${after.ref}: ${after.title} (board card restore ${after.ref} brings it back)`
        : `Restored ${after.ref}: ${after.title} (position ${after.position})`
    )
    yield* out.result(after, () => after.ref)
  })

export const runCardArchive = runArchiveOrRestore("archive")
export const runCardRestore = runArchiveOrRestore("restore")

export const registerCardArchive = (card: Command, app: App) => {
  card
    .command("archive")
    .description("archive a card: off the board, search and the work queue, with nothing lost (restore undoes it)")
    .argument("<card>", "the card's ref (WEB-12) or id")
    .addOption(projectOption())
    .addHelpText("after", examples("board card archive WEB-12"))
    .action((spec: string, flags: Omit<CardArchiveOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runCardArchive)
    )
  card
    .command("restore")
    .description("put an archived card back on the board, at the end of its column")
    .argument("<card>", "the card's ref (WEB-12) or id")
    .addOption(projectOption())
    .addHelpText("after", examples("board card restore WEB-12"))
    .action((spec: string, flags: Omit<CardArchiveOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runCardRestore)
    )
}
