import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples, projectLinkDetails } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { collect, projectOption } from "../shared.ts"

export interface WebLinkAddOptions {
  readonly url: string
  readonly project?: string
  readonly title?: string
  readonly note?: string
  readonly tag?: ReadonlyArray<string>
}

export const runWebLinkAdd = Effect.fn("web-link.add")(function* (options: WebLinkAddOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const answer = yield* client.links.submit({
    params: { projectId: project.id },
    payload: {
      url: options.url,
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.note !== undefined ? { note: options.note } : {}),
      ...(options.tag !== undefined ? { tags: options.tag } : {})
    }
  })
  yield* out.message(
    answer.created
      ? `Added to ${project.name}; relevance ${answer.link.relevance ?? "unrated"}.`
      : `${project.name} already has this page (${answer.link.normalizedUrl}); nothing changed.`
  )
  yield* out.result(answer, () => projectLinkDetails(answer.link, out.style))
})

export const registerWebLinkAdd = (links: Command, app: App) =>
  links
    .command("add")
    .description("store a web link in a project and rate its relevance to the board (the server never fetches it)")
    .argument("<url>", "an http or https URL; tracking parameters are dropped")
    .addOption(projectOption())
    .option("--title <title>", "what the page is")
    .option("--note <note>", "why it matters")
    .option("--tag <tag>", "a tag; repeat for more", collect)
    .addHelpText(
      "after",
      examples(
        'board web-link add https://docs.example.com/auth --title "Auth guide" --tag auth',
        'board web-link add https://example.com/spec --note "the API we call" --json'
      )
    )
    .action((url: string, flags: Omit<WebLinkAddOptions, "url">, cmd: Command) =>
      app.run(cmd, { url, ...flags }, runWebLinkAdd)
    )
