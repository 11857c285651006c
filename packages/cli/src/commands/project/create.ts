import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"

export interface ProjectCreateOptions {
  readonly name: string
  readonly workspace?: string
}

export const runProjectCreate = Effect.fn("project.create")(function* (options: ProjectCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const workspace = yield* lookup.workspace(options.workspace)
  const created = yield* client.workspaces.createProject({
    payload: { workspaceId: workspace.id, name: options.name, template: "kanban" }
  })
  const { project, columns } = created
  yield* out.message(
    `Created project "${project.name}" in "${workspace.name}": cards ${project.refPrefix}-1, ${project.refPrefix}-2, …` +
      `; columns ${columns.map((c) => c.name).join(", ")}.`
  )
  yield* out.result(created, () => project.id)
})

export const registerProjectCreate = (project: Command, app: App) =>
  project
    .command("create")
    .description("create a project (a board) with the columns To Do, In Progress and Done; prints its id")
    .argument("<name>", "the project's name; card refs take a prefix from it (Website → WEB-1)")
    .option("-w, --workspace <workspace>", "workspace name or id (default: your only workspace)")
    .addHelpText("after", examples("board project create Website", 'board project create "Web App" --workspace Acme'))
    .action((name: string, flags: Omit<ProjectCreateOptions, "name">, cmd: Command) =>
      app.run(cmd, { name, ...flags }, runProjectCreate)
    )
