import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { isUuid } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"

export interface WebhookIdOptions {
  readonly id: string
}

export const runWebhookDelete = Effect.fn("webhook.delete")(function* (options: WebhookIdOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  if (!isUuid(options.id)) return yield* usageError("give the webhook's id (`board webhook list` shows them)")
  yield* client.webhooks.remove({ params: { id: options.id } })
  yield* out.message("Deleted: nothing more is sent to it, pending deliveries included.")
  yield* out.result({ deleted: { id: options.id } }, () => undefined)
})

export const registerWebhookDelete = (webhook: Command, app: App) =>
  webhook
    .command("delete")
    .alias("rm")
    .description("delete a webhook and its deliveries")
    .argument("<id>", "the webhook's id, from `board webhook list`")
    .addHelpText("after", examples("board webhook delete 0b6f1a52-…"))
    .action((id: string, _flags: object, cmd: Command) => app.run(cmd, { id }, runWebhookDelete))
