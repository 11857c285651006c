import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface LabelRemoveOptions {
  readonly card: string
  readonly labels: ReadonlyArray<string>
  readonly project?: string
}

export const runLabelRemove = Effect.fn("label.remove")(function* (options: LabelRemoveOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const board = yield* lookup.board(card.projectId)
  const labels = yield* Effect.forEach(options.labels, (l) => lookup.label(board, l))
  for (const label of labels) yield* client.board.detachLabel({ params: { id: card.id, labelId: label.id } })
  const after = yield* client.board.getCard({ params: { id: card.id } })
  yield* out.message(`Removed ${labels.map((l) => l.name).join(", ")} from ${card.ref}.`)
  yield* out.result(after, () => after.ref)
})

export const registerLabelRemove = (label: Command, app: App) =>
  label
    .command("remove")
    .alias("rm")
    .description("detach labels from a card (the labels stay in the project)")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<labels...>", "label names or ids")
    .addOption(projectOption())
    .addHelpText("after", examples("board label remove WEB-12 bug"))
    .action((spec: string, labels: Array<string>, flags: Omit<LabelRemoveOptions, "card" | "labels">, cmd: Command) =>
      app.run(cmd, { card: spec, labels, ...flags }, runLabelRemove)
    )
