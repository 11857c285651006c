import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface WebhookListOptions {
  readonly workspace?: string
  readonly project?: string
}

export const runWebhookList = Effect.fn("webhook.list")(function* (options: WebhookListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const workspace = options.workspace === undefined ? undefined : yield* lookup.workspace(options.workspace)
  const project = options.project === undefined ? undefined : yield* lookup.project(options.project)
  const hooks = yield* client.webhooks.list({
    query: {
      ...(workspace !== undefined ? { workspaceId: workspace.id } : {}),
      ...(project !== undefined ? { projectId: project.id } : {})
    }
  })
  if (hooks.length === 0 && !out.json) return yield* out.message("No webhooks.")
  yield* out.result(hooks, () =>
    table(
      hooks.map((h) => [
        h.url,
        h.events.join(","),
        h.enabled ? "enabled" : out.style.red(`disabled${h.disabledReason !== null ? `: ${h.disabledReason}` : ""}`),
        out.style.dim(h.id)
      ]),
      out.style,
      ["URL", "EVENTS", "STATE", "ID"]
    )
  )
})

export const registerWebhookList = (webhook: Command, app: App) =>
  webhook
    .command("list")
    .alias("ls")
    .description("list webhooks (never their secrets): yours everywhere, or a workspace's or project's")
    .option("-w, --workspace <workspace>", "only this workspace's (name or id)")
    .addOption(projectOption())
    .addHelpText("after", examples("board webhook list", "board webhook list --project Website --json"))
    .action((flags: WebhookListOptions, cmd: Command) => app.run(cmd, flags, runWebhookList))
