import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerWorkspaceCreate } from "./create.ts"
import { registerWorkspaceList } from "./list.ts"
import { registerWorkspaceManage } from "./manage.ts"

export const registerWorkspace = (program: Command, app: App) => {
  const workspace = program
    .command("workspace")
    .description("list, create, rename and delete workspaces")
    .addHelpText("after", examples("board workspace list", "board workspace create Acme"))
  registerWorkspaceList(workspace, app)
  registerWorkspaceCreate(workspace, app)
  registerWorkspaceManage(workspace, app)
  return workspace
}
