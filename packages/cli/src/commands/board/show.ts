import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { renderColumns, renderStacked } from "../../support/boardView.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"

export interface BoardShowOptions {
  readonly project?: string
}

export const runBoardShow = Effect.fn("board.show")(function* (options: BoardShowOptions) {
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const board = yield* lookup.board(project.id)
  yield* out.result(board, () =>
    out.width === undefined ? renderStacked(board) : renderColumns(board, out.width, out.style)
  )
})

export const registerBoardShow = (board: Command, app: App) =>
  board
    .command("show")
    .description("draw a project's board: its columns side by side on a terminal, one after another in a pipe")
    .argument("[project]", "project name, ref prefix or id (default: the saved project, else your only one)")
    .addHelpText(
      "after",
      examples("board board show", "board board show Website", "board board show WEB --json | jq '.cards | length'")
    )
    .action((project: string | undefined, _flags: object, cmd: Command) =>
      app.run(cmd, project === undefined ? {} : { project }, runBoardShow)
    )
