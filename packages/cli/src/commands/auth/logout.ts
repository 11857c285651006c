import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../app.ts"
import { writeConfig } from "../../config.ts"
import { examples } from "../../format.ts"
import { Output } from "../../output.ts"
import { Settings } from "../../settings.ts"

export interface AuthLogoutOptions {}

/** Forgets the saved key (the API URL stays). The API has no endpoint to revoke a key. */
export const runAuthLogout = Effect.fn("auth.logout")(function*(_options: AuthLogoutOptions) {
  const s = yield* Settings
  const out = yield* Output
  const hadKey = s.config.apiKey !== undefined
  if (hadKey) writeConfig(s.configPath, s.config.apiUrl !== undefined ? { apiUrl: s.config.apiUrl } : {})
  yield* out.message(
    hadKey
      ? `Removed the saved API key from ${s.configPath}. The key itself stays valid: the API has no endpoint to revoke API keys yet.`
      : `No saved API key in ${s.configPath}; nothing to do.`
  )
  if (s.env.BOARD_API_KEY !== undefined && s.env.BOARD_API_KEY !== "") {
    yield* out.message("BOARD_API_KEY is still set in your environment: unset it too.")
  }
  yield* out.result({ loggedOut: hadKey, configPath: s.configPath }, () => undefined)
})

export const registerAuthLogout = (auth: Command, app: App) =>
  auth
    .command("logout")
    .description("forget the API key saved in the config file")
    .addHelpText("after", examples("board auth logout"))
    .action((flags: AuthLogoutOptions, cmd: Command) => app.run(cmd, flags, runAuthLogout, "nothing"))
