import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"

export interface ProjectListOptions {
  readonly workspace?: string
}

export const runProjectList = Effect.fn("project.list")(function* (options: ProjectListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const projects =
    options.workspace === undefined
      ? yield* lookup.projects()
      : yield* Effect.gen(function* () {
          const w = yield* lookup.workspace(options.workspace)
          return (yield* client.workspaces.projects({ params: { id: w.id } })).map((p) => ({
            ...p,
            workspaceName: w.name
          }))
        })
  if (projects.length === 0 && !out.json) return yield* out.message("No projects yet: board project create NAME")
  yield* out.result(projects, () =>
    table(
      projects.map((p) => [p.name, p.refPrefix, p.workspaceName, out.style.dim(p.id)]),
      out.style,
      ["NAME", "PREFIX", "WORKSPACE", "ID"]
    )
  )
})

export const registerProjectList = (project: Command, app: App) =>
  project
    .command("list")
    .alias("ls")
    .description("list the projects of your workspaces")
    .option("-w, --workspace <workspace>", "only this workspace (name or id)")
    .addHelpText("after", examples("board project list", "board project list --workspace Acme --json"))
    .action((flags: ProjectListOptions, cmd: Command) => app.run(cmd, flags, runProjectList))
