import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { writeConfig } from "../../support/config.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"
import { Settings } from "../../support/settings.ts"

export type AuthLogoutOptions = Record<string, never>

/**
 * Revokes the saved API key on the server, then forgets it (the API URL stays). The key is
 * forgotten even when the server cannot be reached, and then the message says it is still valid.
 */
export const runAuthLogout = Effect.fn("auth.logout")(function* (_options: AuthLogoutOptions) {
  const s = yield* Settings
  const out = yield* Output
  const { client } = yield* BoardApi
  const savedKey = s.config.apiKey
  if (savedKey === undefined) {
    yield* out.message(`No saved API key in ${s.configPath}; nothing to do.`)
    return yield* out.result({ loggedOut: false, revoked: false, configPath: s.configPath }, () => undefined)
  }
  // the client sends the saved key only when no flag or environment variable overrides it
  const revoked =
    s.apiKeySource !== "config"
      ? "not the key in use"
      : yield* client.accounts.listApiKeys().pipe(
          Effect.flatMap((keys) => {
            const mine = keys.find((k) => k.current)
            return mine === undefined
              ? Effect.succeed("not found" as const)
              : client.accounts.revokeApiKey({ params: { id: mine.id } }).pipe(Effect.as("revoked" as const))
          }),
          Effect.catch((e) => Effect.succeed(`${(e as { message?: string }).message ?? String(e)}`))
        )
  writeConfig(s.configPath, s.config.apiUrl !== undefined ? { apiUrl: s.config.apiUrl } : {})
  yield* out.message(
    revoked === "revoked"
      ? `Revoked the saved API key on ${s.apiUrl} and removed it from ${s.configPath}.`
      : `Removed the saved API key from ${s.configPath}, but could not revoke it on ${s.apiUrl} (${revoked}): it may still be valid; \`board auth keys\` lists your keys and \`board auth revoke ID\` revokes one.`
  )
  if (s.env.BOARD_API_KEY !== undefined && s.env.BOARD_API_KEY !== "") {
    yield* out.message("BOARD_API_KEY is still set in your environment: unset it too.")
  }
  yield* out.result({ loggedOut: true, revoked: revoked === "revoked", configPath: s.configPath }, () => undefined)
})

export const registerAuthLogout = (auth: Command, app: App) =>
  auth
    .command("logout")
    .description("revoke the API key saved in the config file on the server, and forget it")
    .addHelpText("after", examples("board auth logout"))
    .action((flags: AuthLogoutOptions, cmd: Command) => app.run(cmd, flags, runAuthLogout, "nothing"))
