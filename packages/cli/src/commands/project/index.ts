import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerProjectCreate } from "./create.ts"
import { registerProjectList } from "./list.ts"
import { registerProjectManage } from "./manage.ts"

export const registerProject = (program: Command, app: App) => {
  const project = program
    .command("project")
    .description("list, create, rename, archive, restore and delete projects")
    .addHelpText(
      "after",
      examples(
        "board project list",
        "board project create Website --workspace Acme",
        "board project archive Website",
        "board project delete Website --yes"
      )
    )
  registerProjectList(project, app)
  registerProjectCreate(project, app)
  registerProjectManage(project, app)
  return project
}
