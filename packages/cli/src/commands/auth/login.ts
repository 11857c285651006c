import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { writeConfig } from "../../support/config.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"
import { Settings } from "../../support/settings.ts"
import { fromFlagOrPrompt, password } from "./credentials.ts"
import { defaultKeyName } from "./signup.ts"

export interface AuthLoginOptions {
  readonly email?: string
  readonly password?: string
  readonly passwordStdin?: boolean
  readonly keyName?: string
}

/** Login gives a session; the session mints a new API key, which is confirmed and saved. */
export const runAuthLogin = Effect.fn("auth.login")(function* (options: AuthLoginOptions) {
  const api = yield* BoardApi
  const settings = yield* Settings
  const out = yield* Output
  const email = yield* fromFlagOrPrompt(options.email, "--email", "Email: ")
  const secret = yield* password(options, false)
  const login = yield* api.client.accounts.login({ payload: { email, password: secret } })
  api.credentials.session = login.session.access_token
  const key = yield* api.client.accounts.createApiKey({ payload: { name: options.keyName ?? defaultKeyName() } })
  api.credentials.session = undefined
  api.credentials.apiKey = key.rawKey
  const workspaces = yield* api.client.workspaces.list()
  writeConfig(settings.configPath, { apiUrl: settings.apiUrl, apiKey: key.rawKey, email: login.user.email })
  yield* out.message(
    `Signed in as ${login.user.email} (${workspaces.length} workspace${workspaces.length === 1 ? "" : "s"}). ` +
      `Saved a new API key "${key.name}" to ${settings.configPath}.`
  )
  if (out.json) {
    yield* out.result(
      {
        user: login.user,
        apiKey: { id: key.id, name: key.name, createdAt: key.createdAt },
        workspaces,
        apiUrl: settings.apiUrl,
        configPath: settings.configPath
      },
      () => undefined
    )
  }
})

export const registerAuthLogin = (auth: Command, app: App) =>
  auth
    .command("login")
    .description("sign in with email and password; saves a new API key for this machine")
    .option("--email <email>", "your email (asked on a terminal when missing)")
    .option(
      "--password <password>",
      "your password (visible to other users of this machine: prefer --password-stdin or the prompt)"
    )
    .option("--password-stdin", "read the password from stdin")
    .option("--key-name <name>", 'name of the new API key (default: "board CLI on <hostname>")')
    .addHelpText(
      "after",
      examples(
        "board auth login",
        "board auth login --email ada@example.com",
        "printf '%s' \"$PASSWORD\" | board auth login --email ada@example.com --password-stdin",
        "board --api-url https://board.example.com/api auth login"
      )
    )
    .action((flags: AuthLoginOptions, cmd: Command) => app.run(cmd, flags, runAuthLogin, "nothing"))
