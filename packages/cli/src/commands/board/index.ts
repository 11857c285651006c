import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerBoardShow } from "./show.ts"

export const registerBoard = (program: Command, app: App) => {
  const board = program
    .command("board")
    .description("show a project's board")
    .addHelpText("after", examples("board board show", "board board show Website"))
  registerBoardShow(board, app)
  return board
}
