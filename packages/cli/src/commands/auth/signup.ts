import { Effect } from "effect"
import type { Command } from "commander"
import * as os from "node:os"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { writeConfig } from "../../support/config.ts"
import { failWithHint } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"
import { Settings } from "../../support/settings.ts"
import { fromFlagOrPrompt, password } from "./credentials.ts"

export interface AuthSignupOptions {
  readonly email?: string
  readonly fullName?: string
  readonly password?: string
  readonly passwordStdin?: boolean
  readonly workspace?: string
  readonly project?: string
  readonly keyName?: string
}

export const defaultKeyName = () => `board CLI on ${os.hostname()}`.slice(0, 200)

/**
 * SPEC.md's bootstrap: sign up, then with the session create a workspace, a kanban project and
 * an API key; confirm the key with GET /v1/workspaces; save the URL and key.
 */
export const runAuthSignup = Effect.fn("auth.signup")(function* (options: AuthSignupOptions) {
  const api = yield* BoardApi
  const settings = yield* Settings
  const out = yield* Output
  const email = yield* fromFlagOrPrompt(options.email, "--email", "Email: ")
  const fullName = yield* fromFlagOrPrompt(options.fullName, "--full-name", "Full name: ")
  const secret = yield* password(options, true)

  const signup = yield* api.client.accounts.signup({ payload: { email, password: secret, full_name: fullName } })
  yield* out.message(`Signed up as ${signup.user.email}.`)
  const created = Effect.gen(function* () {
    api.credentials.session = signup.session.access_token
    const { workspace } = yield* api.client.workspaces.create({
      payload: { name: options.workspace ?? `${fullName}'s workspace` }
    })
    const { project, columns } = yield* api.client.workspaces.createProject({
      payload: { workspaceId: workspace.id, name: options.project ?? "Tasks", template: "kanban" }
    })
    const key = yield* api.client.accounts.createApiKey({ payload: { name: options.keyName ?? defaultKeyName() } })
    api.credentials.session = undefined
    api.credentials.apiKey = key.rawKey
    const visible = yield* api.client.workspaces.list()
    return { workspace, project, columns, key, confirmed: visible.some((w) => w.id === workspace.id) }
  }).pipe(
    Effect.catch(failWithHint((m) => `${m}\nYour account was created; finish setting up with \`board auth login\`.`))
  )
  const { workspace, project, columns, key, confirmed } = yield* created
  if (!confirmed) return yield* Effect.die(new Error("the new API key does not see the new workspace"))
  writeConfig(settings.configPath, {
    apiUrl: settings.apiUrl,
    apiKey: key.rawKey,
    email: signup.user.email,
    project: project.id
  })
  yield* out.message(
    `Created workspace "${workspace.name}" and project "${project.name}" (cards ${project.refPrefix}-1, ${project.refPrefix}-2, …) ` +
      `with columns ${columns.map((c) => c.name).join(", ")}.\n` +
      `Saved your API key to ${settings.configPath}; it is shown nowhere else.\n` +
      `Next: board card create "My first card"`
  )
  if (out.json) {
    yield* out.result(
      {
        user: signup.user,
        workspace,
        project,
        columns,
        apiKey: { id: key.id, name: key.name, createdAt: key.createdAt },
        apiUrl: settings.apiUrl,
        configPath: settings.configPath
      },
      () => undefined
    )
  }
})

export const registerAuthSignup = (auth: Command, app: App) =>
  auth
    .command("signup")
    .description("create an account, a workspace, a kanban project and an API key, and save the key")
    .option("--email <email>", "your email (asked on a terminal when missing)")
    .option("--full-name <name>", "your full name (asked on a terminal when missing)")
    .option(
      "--password <password>",
      "your password, 8 to 128 characters (visible to other users of this machine: prefer --password-stdin or the prompt)"
    )
    .option("--password-stdin", "read the password from stdin")
    .option("--workspace <name>", 'name of the first workspace (default: "<full name>\'s workspace")')
    .option("--project <name>", "name of the first project; card refs take its prefix (default: Tasks)")
    .option("--key-name <name>", 'name of the API key (default: "board CLI on <hostname>")')
    .addHelpText(
      "after",
      examples(
        "board auth signup",
        'board auth signup --email ada@example.com --full-name "Ada Lovelace" --workspace Acme --project Website',
        "printf '%s' \"$PASSWORD\" | board auth signup --email ada@example.com --full-name Ada --password-stdin",
        "board --api-url https://board.example.com/api auth signup"
      ) +
        "\nThe API URL and key are saved to $XDG_CONFIG_HOME/board/config.json (else ~/.config/board/config.json), mode 0600.\n"
    )
    .action((flags: AuthSignupOptions, cmd: Command) => app.run(cmd, flags, runAuthSignup, "nothing"))
