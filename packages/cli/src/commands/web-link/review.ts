import type { Relevance } from "@board/core/contract"
import { Effect } from "effect"
import { type Command, Option } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples, projectLinkDetails } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { collect, projectOption, relevances } from "../shared.ts"
import { projectLinkId } from "./resolve.ts"

export interface WebLinkReviewOptions {
  readonly link: string
  readonly project?: string
  readonly relevance?: Relevance
  readonly reason?: string
  readonly title?: string
  readonly note?: string
  readonly tag?: ReadonlyArray<string>
}

export const runWebLinkReview = Effect.fn("web-link.review")(function* (options: WebLinkReviewOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  if (options.reason !== undefined && options.relevance === undefined)
    return yield* usageError("--reason goes with --relevance")
  if ([options.relevance, options.title, options.note, options.tag].every((v) => v === undefined)) {
    return yield* usageError("nothing to change: give --relevance, --title, --note or --tag")
  }
  const project = yield* lookup.project(options.project)
  const id = yield* projectLinkId(project.id, options.link)
  const { link } = yield* client.links.review({
    params: { projectId: project.id, linkId: id },
    payload: {
      ...(options.relevance !== undefined ? { relevance: options.relevance } : {}),
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...(options.title !== undefined ? { title: options.title } : {}),
      ...(options.note !== undefined ? { note: options.note } : {}),
      ...(options.tag !== undefined ? { tags: options.tag } : {})
    }
  })
  yield* out.message(options.relevance !== undefined ? `Rated ${options.relevance} by you.` : "Updated the link.")
  yield* out.result({ link }, () => projectLinkDetails(link, out.style))
})

export const registerWebLinkReview = (links: Command, app: App) =>
  links
    .command("review")
    .description("rate a link yourself (replaces the heuristic's rating) or change its title, note or tags")
    .argument("<link>", "the link's id or URL")
    .addOption(projectOption())
    .addOption(new Option("-r, --relevance <rating>", "none, low, medium or high").choices(relevances))
    .option("--reason <text>", "why (with --relevance)")
    .option("--title <title>", "new title")
    .option("--note <note>", "new note")
    .option("--tag <tag>", "replace the tags; repeat for more", collect)
    .addHelpText(
      "after",
      examples(
        'board web-link review https://docs.example.com/auth --relevance high --reason "we implement this"',
        "board web-link review 5b0e… --tag auth --tag docs"
      )
    )
    .action((link: string, flags: Omit<WebLinkReviewOptions, "link">, cmd: Command) =>
      app.run(cmd, { link, ...flags }, runWebLinkReview)
    )
