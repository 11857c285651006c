import { RelevanceFilter } from "@board/core/contract"
import { Effect } from "effect"
import { type Command, Option } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples, projectLinkRows } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption, wholeNumber } from "../shared.ts"

export interface WebLinkListOptions {
  readonly project?: string
  readonly relevance?: RelevanceFilter
  readonly limit?: number
  readonly offset?: number
}

export const runWebLinkList = Effect.fn("web-link.list")(function* (options: WebLinkListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const page = yield* client.links.list({
    params: { projectId: project.id },
    query: {
      ...(options.relevance !== undefined ? { relevance: options.relevance } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.offset !== undefined ? { offset: options.offset } : {})
    }
  })
  if (page.links.length === 0 && !out.json)
    return yield* out.message(
      `No links${options.relevance !== undefined ? ` rated ${options.relevance}` : ""} in ${project.name}.`
    )
  yield* out.result(page, () => projectLinkRows(page.links, out.style))
  if (page.offset + page.links.length < page.total) {
    yield* out.message(
      `${page.offset + 1}–${page.offset + page.links.length} of ${page.total}; next: --offset ${page.offset + page.links.length}`
    )
  }
})

export const registerWebLinkList = (links: Command, app: App) =>
  links
    .command("list")
    .alias("ls")
    .description("list a project's links, newest first")
    .addOption(projectOption())
    .addOption(
      new Option("-r, --relevance <rating>", "only links rated none, low, medium, high, or unrated").choices(
        RelevanceFilter.literals
      )
    )
    .option("-n, --limit <n>", "at most this many, 1 to 500 (default 50)", wholeNumber(1, 500))
    .option("--offset <n>", "skip this many", wholeNumber(0))
    .addHelpText(
      "after",
      examples(
        "board web-link list",
        "board web-link list --relevance high",
        "board web-link list --limit 20 --offset 20 --json"
      )
    )
    .action((flags: WebLinkListOptions, cmd: Command) => app.run(cmd, flags, runWebLinkList))
