import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../support/app.ts"
import { BoardApi } from "../support/client.ts"
import { cardRows, examples } from "../support/format.ts"
import { Output } from "../support/output.ts"
import { wholeNumber } from "./shared.ts"

export interface SearchOptions {
  readonly query: string
  readonly limit?: number
}

export const runSearch = Effect.fn("search")(function* (options: SearchOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const cards = yield* client.board.search({
    query: { q: options.query, ...(options.limit !== undefined ? { limit: options.limit } : {}) }
  })
  if (cards.length === 0 && !out.json) return yield* out.message(`No cards match "${options.query}".`)
  yield* out.result(cards, () => cardRows(cards, out.style))
})

export const registerSearch = (program: Command, app: App) =>
  program
    .command("search")
    .description("find cards whose title or description contains every word (title matches first, then newest)")
    .argument("<query...>", "the words to look for")
    .option("-n, --limit <n>", "at most this many cards, 1 to 200 (default 50)", wholeNumber(1, 200))
    .addHelpText(
      "after",
      examples("board search login", "board search login bug --limit 5", "board search login --json | jq -r '.[].ref'")
    )
    .action((words: Array<string>, flags: Omit<SearchOptions, "query">, cmd: Command) =>
      app.run(cmd, { query: words.join(" "), ...flags }, runSearch)
    )
