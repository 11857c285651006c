import { Effect } from "effect"
import type { Command } from "commander"
import { webhookEventsFailure } from "@board/core/contract"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface WebhookCreateOptions {
  readonly url: string
  readonly workspace?: string
  readonly project?: string
  readonly events?: string
  readonly description?: string
}

/** `card.created,card.moved` or `*` as the API's list (blank items dropped). */
export const eventList = (text: string | undefined): Array<string> =>
  text === undefined
    ? ["*"]
    : text
        .split(",")
        .map((e) => e.trim())
        .filter((e) => e !== "")

export const runWebhookCreate = Effect.fn("webhook.create")(function* (options: WebhookCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  if (options.workspace !== undefined && options.project !== undefined)
    return yield* usageError("give --workspace (all its projects) or --project (one project), not both")
  const events = eventList(options.events)
  const badEvents = webhookEventsFailure(events)
  if (badEvents !== undefined) return yield* usageError(badEvents.replace(/^events:/, "--events:"))
  const common = {
    url: options.url,
    events,
    ...(options.description !== undefined ? { description: options.description } : {})
  }
  const workspace = options.workspace === undefined ? undefined : yield* lookup.workspace(options.workspace)
  const project = workspace === undefined ? yield* lookup.project(options.project) : undefined
  const scope = workspace !== undefined ? `every project of ${workspace.name}` : project!.name
  const hook = yield* client.webhooks.create({
    payload: workspace !== undefined ? { ...common, workspaceId: workspace.id } : { ...common, projectId: project!.id }
  })
  yield* out.message(
    `Created webhook ${hook.id} for ${scope} (${hook.events.join(", ")}) → ${hook.url}. ` +
      "Its signing secret is shown only this once: keep it to verify Board-Signature."
  )
  yield* out.result(hook, () => hook.secret)
})

export const registerWebhookCreate = (webhook: Command, app: App) =>
  webhook
    .command("create")
    .description("send a project's or a workspace's events to a URL, signed; prints the secret (shown once)")
    .requiredOption("--url <url>", "where the events are POSTed (https)")
    .option("-w, --workspace <workspace>", "every project of this workspace (name or id)")
    .addOption(projectOption())
    .option("--events <types>", "comma-separated event types, e.g. card.created,card.moved; default: all (*)")
    .option("--description <text>", "what it is for")
    .addHelpText(
      "after",
      examples(
        "board webhook create --url https://ci.example.com/board --project Website --events card.moved",
        "export BOARD_WEBHOOK_SECRET=$(board webhook create --url https://hooks.example.com/b --workspace Acme --quiet)"
      )
    )
    .action((flags: WebhookCreateOptions, cmd: Command) => app.run(cmd, flags, runWebhookCreate))
