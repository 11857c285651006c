import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { isUuid } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"

export type AuthKeysOptions = Record<string, never>

/** The account's live API keys (never the keys themselves), the one in use marked. */
export const runAuthKeys = Effect.fn("auth.keys")(function* (_options: AuthKeysOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const keys = yield* client.accounts.listApiKeys()
  yield* out.result(keys, () =>
    table(
      keys.map((k) => [k.name, k.createdAt, k.current ? out.style.green("this one") : "", out.style.dim(k.id)]),
      out.style,
      ["NAME", "CREATED", "IN USE", "ID"]
    )
  )
})

export interface AuthRevokeOptions {
  readonly id: string
}

export const runAuthRevoke = Effect.fn("auth.revoke")(function* (options: AuthRevokeOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  if (!isUuid(options.id))
    return yield* usageError("give the key's id (board auth keys shows them), not the key itself")
  yield* client.accounts.revokeApiKey({ params: { id: options.id } })
  yield* out.message("Revoked: the key is refused from now on.")
  yield* out.result({ revoked: { id: options.id } }, () => undefined)
})

export const registerAuthKeys = (auth: Command, app: App) => {
  auth
    .command("keys")
    .description("list your API keys (never the keys themselves)")
    .addHelpText("after", examples("board auth keys", "board auth keys --json"))
    .action((flags: AuthKeysOptions, cmd: Command) => app.run(cmd, flags, runAuthKeys))
  auth
    .command("revoke")
    .description("revoke one of your API keys at once")
    .argument("<id>", "the key's id, from `board auth keys`")
    .addHelpText("after", examples("board auth revoke 0b6f1a52-…"))
    .action((id: string, _flags: object, cmd: Command) => app.run(cmd, { id }, runAuthRevoke))
}
