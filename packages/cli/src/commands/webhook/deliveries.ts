import { Effect } from "effect"
import type { Command } from "commander"
import { DELIVERY_PAGE_MAX } from "@board/core/contract"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { isUuid } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import { wholeNumber } from "../shared.ts"

export interface WebhookDeliveriesOptions {
  readonly id: string
  readonly limit?: number
}

export const runWebhookDeliveries = Effect.fn("webhook.deliveries")(function* (options: WebhookDeliveriesOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  if (!isUuid(options.id)) return yield* usageError("give the webhook's id (`board webhook list` shows them)")
  const page = yield* client.webhooks.deliveries({
    params: { id: options.id },
    query: options.limit !== undefined ? { limit: options.limit } : {}
  })
  if (page.deliveries.length === 0 && !out.json) return yield* out.message("No deliveries yet.")
  yield* out.result(page, () =>
    table(
      page.deliveries.map((d) => [
        d.eventType,
        d.status === "delivered"
          ? out.style.green(d.status)
          : d.status === "failed"
            ? out.style.red(d.status)
            : d.status,
        String(d.attempts),
        d.lastStatusCode === null ? "-" : String(d.lastStatusCode),
        d.nextAttemptAt ?? "-",
        d.lastError ?? "",
        out.style.dim(d.id)
      ]),
      out.style,
      ["EVENT", "STATUS", "ATTEMPTS", "LAST CODE", "NEXT ATTEMPT", "LAST ERROR", "ID"]
    )
  )
})

export const registerWebhookDeliveries = (webhook: Command, app: App) =>
  webhook
    .command("deliveries")
    .description("a webhook's deliveries, newest first: status, attempts, last answer, next attempt")
    .argument("<id>", "the webhook's id, from `board webhook list`")
    .option("-n, --limit <n>", `how many (1–${DELIVERY_PAGE_MAX}, default 50)`, wholeNumber(1, DELIVERY_PAGE_MAX))
    .addHelpText("after", examples("board webhook deliveries 0b6f1a52-…", "board webhook deliveries 0b6f1a52-… --json"))
    .action((id: string, flags: { limit?: number }, cmd: Command) =>
      app.run(cmd, { id, ...flags }, runWebhookDeliveries)
    )
