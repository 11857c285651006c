import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerWebhookCreate } from "./create.ts"
import { registerWebhookDelete } from "./delete.ts"
import { registerWebhookDeliveries } from "./deliveries.ts"
import { registerWebhookList } from "./list.ts"

export const registerWebhook = (program: Command, app: App) => {
  const webhook = program
    .command("webhook")
    .description("send a project's or workspace's events to a URL as signed POSTs")
    .addHelpText(
      "after",
      examples(
        "board webhook create --url https://ci.example.com/board --events card.moved",
        "board webhook list",
        "board webhook deliveries ID",
        "board webhook delete ID"
      )
    )
  registerWebhookCreate(webhook, app)
  registerWebhookList(webhook, app)
  registerWebhookDelete(webhook, app)
  registerWebhookDeliveries(webhook, app)
  return webhook
}
