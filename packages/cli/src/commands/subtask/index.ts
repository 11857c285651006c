import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerSubtaskAdd } from "./add.ts"
import { registerSubtaskToggle } from "./toggle.ts"

export const registerSubtask = (program: Command, app: App) => {
  const subtask = program
    .command("subtask")
    .description("add subtasks to a card and tick them off")
    .addHelpText("after", examples('board subtask add WEB-12 "Write tests"', "board subtask toggle WEB-12 1"))
  registerSubtaskAdd(subtask, app)
  registerSubtaskToggle(subtask, app)
  return subtask
}
