import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { CliFailure, signInHint } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Output, table } from "../../support/output.ts"
import { exitCodes } from "../../support/runtime.ts"
import { Settings, type Source } from "../../support/settings.ts"

export type AuthStatusOptions = Record<string, never>

const from = (source: Source, configPath: string, env: string, flag: string) =>
  source === "flag"
    ? flag
    : source === "env"
      ? env
      : source === "config"
        ? configPath
        : source === "default"
          ? "default"
          : "none"

/** `svc_1a2b3c…` */
export const maskKey = (key: string) => (key.length <= 12 ? "…" : `${key.slice(0, 10)}…`)

/** Which server and key commands use, and whether the server accepts the key. */
export const runAuthStatus = Effect.fn("auth.status")(function* (_options: AuthStatusOptions) {
  const api = yield* BoardApi
  const s = yield* Settings
  const out = yield* Output
  const info = {
    apiUrl: s.apiUrl,
    apiUrlFrom: from(s.apiUrlSource, s.configPath, "BOARD_API_URL", "--api-url"),
    apiKeyFrom: from(s.apiKeySource, s.configPath, "BOARD_API_KEY", "--api-key"),
    email: s.apiKeySource === "config" ? (s.config.email ?? null) : null,
    configPath: s.configPath
  }
  if (s.apiKey === undefined) {
    yield* out.result({ ...info, signedIn: false }, () => undefined)
    return yield* new CliFailure({ code: exitCodes.auth, message: `not signed in: ${signInHint}` })
  }
  const workspaces = yield* api.client.workspaces.list()
  yield* out.result({ ...info, signedIn: true, workspaces: workspaces.length }, () =>
    table(
      [
        ["API", `${s.apiUrl} ${out.style.dim(`(from ${info.apiUrlFrom})`)}`],
        ...(info.email !== null ? [["Account", info.email]] : []),
        ["Key", `${maskKey(s.apiKey!)} ${out.style.dim(`(from ${info.apiKeyFrom})`)}`],
        [
          "Status",
          `${out.style.green("signed in")}, ${workspaces.length} workspace${workspaces.length === 1 ? "" : "s"}`
        ]
      ],
      out.style
    )
  )
})

export const registerAuthStatus = (auth: Command, app: App) =>
  auth
    .command("status")
    .description("show the server and API key in use, and check that the key works (exit 4 when it does not)")
    .addHelpText(
      "after",
      examples("board auth status", "board auth status --json", "BOARD_API_KEY=svc_… board auth status")
    )
    .action((flags: AuthStatusOptions, cmd: Command) => app.run(cmd, flags, runAuthStatus, "nothing"))
