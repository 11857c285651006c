import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"
import { projectLinkId } from "./resolve.ts"

export interface WebLinkDeleteOptions {
  readonly link: string
  readonly project?: string
}

export const runWebLinkDelete = Effect.fn("web-link.delete")(function* (options: WebLinkDeleteOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const id = yield* projectLinkId(project.id, options.link)
  yield* client.links.remove({ params: { projectId: project.id, linkId: id } })
  yield* out.message(`Deleted the link from ${project.name}.`)
  yield* out.result({ deleted: { id } }, () => undefined)
})

export const registerWebLinkDelete = (links: Command, app: App) =>
  links
    .command("delete")
    .alias("rm")
    .description("delete a link from a project")
    .argument("<link>", "the link's id or URL")
    .addOption(projectOption())
    .addHelpText("after", examples("board web-link delete https://docs.example.com/auth"))
    .action((link: string, flags: Omit<WebLinkDeleteOptions, "link">, cmd: Command) =>
      app.run(cmd, { link, ...flags }, runWebLinkDelete)
    )
