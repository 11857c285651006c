import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption, wholeNumber } from "../shared.ts"

export interface SubtaskAddOptions {
  readonly card: string
  readonly title: string
  readonly project?: string
  readonly position?: number
}

export const runSubtaskAdd = Effect.fn("subtask.add")(function* (options: SubtaskAddOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const subtask = yield* client.board.createSubtask({
    payload: {
      cardId: card.id,
      title: options.title,
      ...(options.position !== undefined ? { position: options.position } : {})
    }
  })
  yield* out.message(`Added subtask ${subtask.position + 1} to ${card.ref}: ${subtask.title}`)
  yield* out.result(subtask, () => subtask.id)
})

export const registerSubtaskAdd = (subtask: Command, app: App) =>
  subtask
    .command("add")
    .description("add a subtask to a card (at the end unless --position)")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<title>", "the subtask")
    .addOption(projectOption())
    .option("--position <n>", "0-based position among the card's subtasks", wholeNumber(0))
    .addHelpText(
      "after",
      examples('board subtask add WEB-12 "Write tests"', 'board subtask add WEB-12 "Reproduce it" --position 0')
    )
    .action((spec: string, title: string, flags: Omit<SubtaskAddOptions, "card" | "title">, cmd: Command) =>
      app.run(cmd, { card: spec, title, ...flags }, runSubtaskAdd)
    )
