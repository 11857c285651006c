import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Output, table } from "../../support/output.ts"

export type WorkspaceListOptions = Record<string, never>

export const runWorkspaceList = Effect.fn("workspace.list")(function* (_options: WorkspaceListOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const workspaces = yield* client.workspaces.list()
  if (workspaces.length === 0 && !out.json) return yield* out.message("No workspaces yet: board workspace create NAME")
  yield* out.result(workspaces, () =>
    table(
      workspaces.map((w) => [w.name, w.role, out.style.dim(w.id)]),
      out.style,
      ["NAME", "ROLE", "ID"]
    )
  )
})

export const registerWorkspaceList = (workspace: Command, app: App) =>
  workspace
    .command("list")
    .alias("ls")
    .description("list your workspaces")
    .addHelpText("after", examples("board workspace list", "board workspace list --json"))
    .action((flags: WorkspaceListOptions, cmd: Command) => app.run(cmd, flags, runWorkspaceList))
