import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface LabelAddOptions {
  readonly card: string
  readonly labels: ReadonlyArray<string>
  readonly project?: string
}

export const runLabelAdd = Effect.fn("label.add")(function* (options: LabelAddOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  let card = yield* lookup.card(options.card, options.project)
  const board = yield* lookup.board(card.projectId)
  const labels = yield* Effect.forEach(options.labels, (l) => lookup.label(board, l))
  for (const label of labels)
    card = yield* client.board.attachLabel({ params: { id: card.id }, payload: { labelId: label.id } })
  yield* out.message(`${card.ref} now has the labels ${card.labels.map((l) => l.name).join(", ")}.`)
  yield* out.result(card, () => card.ref)
})

export const registerLabelAdd = (label: Command, app: App) =>
  label
    .command("add")
    .description("attach labels to a card (attaching one twice keeps one)")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<labels...>", "label names or ids, of the card's project")
    .addOption(projectOption())
    .addHelpText("after", examples("board label add WEB-12 bug", "board label add WEB-12 bug backend"))
    .action((spec: string, labels: Array<string>, flags: Omit<LabelAddOptions, "card" | "labels">, cmd: Command) =>
      app.run(cmd, { card: spec, labels, ...flags }, runLabelAdd)
    )
