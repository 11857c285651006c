import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples, projectLinkDetails } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"
import { projectLinkId } from "./resolve.ts"

export interface WebLinkEvaluateOptions {
  readonly link: string
  readonly project?: string
}

export const runWebLinkEvaluate = Effect.fn("web-link.evaluate")(function* (options: WebLinkEvaluateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const id = yield* projectLinkId(project.id, options.link)
  const { link } = yield* client.links.evaluate({ params: { projectId: project.id, linkId: id } })
  yield* out.message(`Re-rated: ${link.relevance ?? "unrated"}.`)
  yield* out.result({ link }, () => projectLinkDetails(link, out.style))
})

export const registerWebLinkEvaluate = (links: Command, app: App) =>
  links
    .command("evaluate")
    .description("rate a link again against the board as it is now (replaces a human review)")
    .argument("<link>", "the link's id or URL")
    .addOption(projectOption())
    .addHelpText("after", examples("board web-link evaluate https://docs.example.com/auth"))
    .action((link: string, flags: Omit<WebLinkEvaluateOptions, "link">, cmd: Command) =>
      app.run(cmd, { link, ...flags }, runWebLinkEvaluate)
    )
