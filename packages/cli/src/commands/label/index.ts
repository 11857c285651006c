import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerLabelAdd } from "./add.ts"
import { registerLabelCreate } from "./create.ts"
import { registerLabelList } from "./list.ts"
import { registerLabelRemove } from "./remove.ts"

export const registerLabel = (program: Command, app: App) => {
  const label = program
    .command("label")
    .description("create labels and attach them to cards")
    .addHelpText(
      "after",
      examples(
        "board label create bug",
        "board label add WEB-12 bug",
        "board label remove WEB-12 bug",
        "board label list"
      )
    )
  registerLabelCreate(label, app)
  registerLabelAdd(label, app)
  registerLabelRemove(label, app)
  registerLabelList(label, app)
  return label
}
