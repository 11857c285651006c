import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"

export interface ProjectListOptions {
  readonly workspace?: string
  readonly archived?: boolean
}

export const runProjectList = Effect.fn("project.list")(function* (options: ProjectListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const query = options.archived === true ? { archived: "true" as const } : {}
  const projects =
    options.workspace === undefined && options.archived !== true
      ? yield* lookup.projects()
      : yield* Effect.gen(function* () {
          const list =
            options.workspace === undefined ? yield* lookup.workspaces() : [yield* lookup.workspace(options.workspace)]
          const found = []
          for (const w of list)
            for (const p of yield* client.workspaces.projects({ params: { id: w.id }, query }))
              found.push({ ...p, workspaceName: w.name })
          return found
        })
  if (projects.length === 0 && !out.json)
    return yield* out.message(
      options.archived === true ? "No archived projects." : "No projects yet: board project create NAME"
    )
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
    .option("--archived", "the archived projects instead")
    .addHelpText("after", examples("board project list", "board project list --workspace Acme --json"))
    .action((flags: ProjectListOptions, cmd: Command) => app.run(cmd, flags, runProjectList))
