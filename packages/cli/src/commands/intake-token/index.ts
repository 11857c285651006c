import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerIntakeTokenCreate } from "./create.ts"
import { registerIntakeTokenList } from "./list.ts"
import { registerIntakeTokenRevoke } from "./revoke.ts"

export const registerIntakeToken = (program: Command, app: App) => {
  const intakeToken = program
    .command("intake-token")
    .description("mint, list and revoke intake tokens (for `board intake`, forms and webhooks)")
    .addHelpText(
      "after",
      examples(
        'board intake-token create --column "To Do" --name "support form"',
        "board intake-token list",
        "board intake-token revoke ID"
      )
    )
  registerIntakeTokenCreate(intakeToken, app)
  registerIntakeTokenList(intakeToken, app)
  registerIntakeTokenRevoke(intakeToken, app)
  return intakeToken
}
