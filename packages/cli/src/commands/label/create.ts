import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface LabelCreateOptions {
  readonly name: string
  readonly project?: string
  readonly color?: string
}

export const runLabelCreate = Effect.fn("label.create")(function* (options: LabelCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const label = yield* client.board.createLabel({
    payload: {
      projectId: project.id,
      name: options.name,
      ...(options.color !== undefined ? { color: options.color } : {})
    }
  })
  yield* out.message(`Created label "${label.name}" in ${project.name}.`)
  yield* out.result(label, () => label.id)
})

export const registerLabelCreate = (label: Command, app: App) =>
  label
    .command("create")
    .description("create a label in a project (names are unique per project, whatever their case)")
    .argument("<name>", "the label's name")
    .addOption(projectOption())
    .option("--color <#rrggbb>", "its colour, for example #d73a4a")
    .addHelpText(
      "after",
      examples("board label create bug --color '#d73a4a'", "board label create backend --project Website")
    )
    .action((name: string, flags: Omit<LabelCreateOptions, "name">, cmd: Command) =>
      app.run(cmd, { name, ...flags }, runLabelCreate)
    )
