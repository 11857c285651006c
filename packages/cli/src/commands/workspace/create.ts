import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"

export interface WorkspaceCreateOptions {
  readonly name: string
}

export const runWorkspaceCreate = Effect.fn("workspace.create")(function* (options: WorkspaceCreateOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const { workspace } = yield* client.workspaces.create({ payload: { name: options.name } })
  yield* out.message(
    `Created workspace "${workspace.name}". Add a project: board project create NAME --workspace "${workspace.name}"`
  )
  yield* out.result(workspace, () => workspace.id)
})

export const registerWorkspaceCreate = (workspace: Command, app: App) =>
  workspace
    .command("create")
    .description("create a workspace (you become its owner); prints its id")
    .argument("<name>", "the workspace's name")
    .addHelpText("after", examples("board workspace create Acme", 'WS=$(board workspace create "Side projects")'))
    .action((name: string, _flags: object, cmd: Command) => app.run(cmd, { name }, runWorkspaceCreate))
