import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption, wholeNumber } from "../shared.ts"

export interface CardMoveOptions {
  readonly card: string
  readonly column: string
  readonly project?: string
  readonly position?: number
  readonly top?: boolean
}

export const runCardMove = Effect.fn("card.move")(function* (options: CardMoveOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  if (options.top === true && options.position !== undefined)
    return yield* usageError("use either --top or --position, not both")
  const card = yield* lookup.card(options.card, options.project)
  const board = yield* lookup.board(card.projectId)
  const column = yield* lookup.column(board, options.column)
  const position = options.top === true ? 0 : options.position
  const moved = yield* client.board.moveCard({
    params: { id: card.id },
    payload: { columnId: column.id, ...(position !== undefined ? { position } : {}) }
  })
  yield* out.message(`Moved ${moved.ref} to ${column.name} (position ${moved.position}).`)
  yield* out.result(moved, () => moved.ref)
})

export const registerCardMove = (card: Command, app: App) =>
  card
    .command("move")
    .description("move a card to a column, at its end unless --top or --position says where")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<column>", "the column's name (case does not matter) or id")
    .addOption(projectOption())
    .option("--position <n>", "0-based position in the column; past the end means the end", wholeNumber(0))
    .option("--top", "put it at the top (position 0)")
    .addHelpText(
      "after",
      examples(
        "board card move WEB-12 Done",
        'board card move WEB-12 "in progress" --top',
        'board card move "Fix login" Done --position 2'
      )
    )
    .action((spec: string, column: string, flags: Omit<CardMoveOptions, "card" | "column">, cmd: Command) =>
      app.run(cmd, { card: spec, column, ...flags }, runCardMove)
    )
