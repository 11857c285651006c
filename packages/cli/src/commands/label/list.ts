import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface LabelListOptions {
  readonly project?: string
}

export const runLabelList = Effect.fn("label.list")(function* (options: LabelListOptions) {
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const { labels } = yield* lookup.board(project.id)
  if (labels.length === 0 && !out.json)
    return yield* out.message(`${project.name} has no labels yet: board label create NAME`)
  yield* out.result(labels, () =>
    table(
      labels.map((l) => [l.name, l.color ?? "", out.style.dim(l.id)]),
      out.style,
      ["NAME", "COLOR", "ID"]
    )
  )
})

export const registerLabelList = (label: Command, app: App) =>
  label
    .command("list")
    .alias("ls")
    .description("list a project's labels")
    .addOption(projectOption())
    .addHelpText("after", examples("board label list", "board label list --project Website --json"))
    .action((flags: LabelListOptions, cmd: Command) => app.run(cmd, flags, runLabelList))
