import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerProjectCreate } from "./create.ts"
import { registerProjectList } from "./list.ts"

export const registerProject = (program: Command, app: App) => {
  const project = program
    .command("project")
    .description("list and create projects")
    .addHelpText("after", examples("board project list", "board project create Website --workspace Acme"))
  registerProjectList(project, app)
  registerProjectCreate(project, app)
  return project
}
