/**
 * `board key create|list|revoke`: the account's API keys (issue 33). `create` makes a key with
 * limits in one step, e.g. a read-only key for one project that ends in 30 days:
 * `board key create "CI reader" --scope read --project Website --expires 30d`.
 */
import type { Command } from "commander"
import { Effect } from "effect"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { describeLimits, type KeyLimitFlags, keyLimitOptions, keyLimitsPayload } from "../../support/keyLimits.ts"
import { Output, table } from "../../support/output.ts"
import { runAuthRevoke } from "../auth/keys.ts"

export interface KeyCreateOptions extends KeyLimitFlags {
  readonly name: string
}

export const runKeyCreate = Effect.fn("key.create")(function* (options: KeyCreateOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const limits = yield* keyLimitsPayload(options)
  const key = yield* client.accounts.createApiKey({ payload: { name: options.name, ...limits } })
  yield* out.message(
    `Created API key "${key.name}" (${describeLimits(key)}). It is shown only this once: keep it, e.g. as BOARD_API_KEY.`
  )
  yield* out.result(key, () => key.rawKey)
})

export const runKeyList = Effect.fn("key.list")(function* (_options: Record<string, never>) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const keys = yield* client.accounts.listApiKeys()
  yield* out.result(keys, () =>
    table(
      keys.map((k) => [
        k.name,
        k.scopes.join(","),
        k.projectIds === null ? "all" : k.projectIds.join(","),
        k.expiresAt ?? "never",
        k.current ? out.style.green("this one") : "",
        out.style.dim(k.id)
      ]),
      out.style,
      ["NAME", "SCOPES", "PROJECTS", "EXPIRES", "IN USE", "ID"]
    )
  )
})

export const registerKey = (program: Command, app: App) => {
  const key = program
    .command("key")
    .description("your API keys: create one with limits, list, revoke")
    .addHelpText(
      "after",
      examples("board key create reader --scope read --project Website --expires 30d", "board key list")
    )
  const create = key
    .command("create")
    .description("create an API key (prints the key, shown once); limit its scopes, projects and life")
    .argument("<name>", "what the key is for")
  for (const [flag, description, parse] of keyLimitOptions) {
    if (parse === undefined) create.option(flag, description)
    else create.option(flag, description, parse)
  }
  create
    .addHelpText(
      "after",
      examples(
        'board key create "CI reader" --scope read --project Website --expires 30d',
        "export BOARD_API_KEY=$(board key create bot --scope read,write --quiet)"
      )
    )
    .action((name: string, flags: KeyLimitFlags, cmd: Command) => app.run(cmd, { name, ...flags }, runKeyCreate))
  key
    .command("list")
    .alias("ls")
    .description("list your API keys with their scopes, projects and expiry (never the keys themselves)")
    .addHelpText("after", examples("board key list", "board key list --json"))
    .action((flags: Record<string, never>, cmd: Command) => app.run(cmd, flags, runKeyList))
  key
    .command("revoke")
    .description("revoke one of your API keys at once")
    .argument("<id>", "the key's id, from `board key list`")
    .addHelpText("after", examples("board key revoke 0b6c2f1e-5d4a-4c3b-9a8f-7e6d5c4b3a21"))
    .action((id: string, _flags: object, cmd: Command) => app.run(cmd, { id }, runAuthRevoke))
  return key
}
