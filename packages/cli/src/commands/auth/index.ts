import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerAuthKeys } from "./keys.ts"
import { registerAuthLogin } from "./login.ts"
import { registerAuthLogout } from "./logout.ts"
import { registerAuthSignup } from "./signup.ts"
import { registerAuthStatus } from "./status.ts"

export const registerAuth = (program: Command, app: App) => {
  const auth = program
    .command("auth")
    .description("sign up, sign in and out; the API key is kept in your config file")
    .addHelpText(
      "after",
      examples(
        "board auth signup",
        "board auth login --email ada@example.com",
        "board auth status",
        "board auth keys",
        "board auth logout"
      )
    )
  registerAuthSignup(auth, app)
  registerAuthLogin(auth, app)
  registerAuthStatus(auth, app)
  registerAuthKeys(auth, app)
  registerAuthLogout(auth, app)
  return auth
}
