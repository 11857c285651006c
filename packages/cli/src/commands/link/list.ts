import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples, linkPhrase } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface LinkListOptions {
  readonly card: string
  readonly project?: string
}

export const runLinkList = Effect.fn("link.list")(function* (options: LinkListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const links = yield* client.board.listCardLinks({ params: { id: card.id } })
  if (links.length === 0 && !out.json) return yield* out.message(`${card.ref} has no links.`)
  yield* out.result(links, () =>
    table(
      links.map((l) => [`${card.ref} ${linkPhrase(l)}`, out.style.cyan(l.card.ref), l.card.title, out.style.dim(l.id)]),
      out.style
    )
  )
})

export const registerLinkList = (link: Command, app: App) =>
  link
    .command("list")
    .alias("ls")
    .description("list a card's links, both directions")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .addOption(projectOption())
    .addHelpText("after", examples("board link list WEB-4", "board link list WEB-4 --json"))
    .action((spec: string, flags: Omit<LinkListOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runLinkList)
    )
