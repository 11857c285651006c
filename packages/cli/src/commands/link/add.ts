import type { LinkType } from "@board/core/contract"
import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples, linkPhrase } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { linkTypeOption, projectOption } from "../shared.ts"

export type { LinkType }

export interface LinkAddOptions {
  readonly card: string
  readonly target: string
  readonly type?: LinkType
  readonly project?: string
}

export const runLinkAdd = Effect.fn("link.add")(function* (options: LinkAddOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const source = yield* lookup.card(options.card, options.project)
  const target = yield* lookup.card(options.target, options.project)
  const link = yield* client.board.createCardLink({
    params: { id: source.id },
    payload: { targetId: target.id, linkType: options.type ?? "relates_to" }
  })
  yield* out.message(`${source.ref} ${linkPhrase(link)} ${link.card.ref}.`)
  yield* out.result(link, () => link.id)
})

export const registerLinkAdd = (link: Command, app: App) =>
  link
    .command("add")
    .description("link two cards of one workspace (the same link twice stays one)")
    .argument("<card>", "the source card: ref (WEB-12), id or title")
    .argument("<target>", "the target card")
    .addOption(linkTypeOption().default("relates_to"))
    .addOption(projectOption())
    .addHelpText(
      "after",
      examples(
        "board link add WEB-4 WEB-5 --type blocks     # WEB-4 blocks WEB-5",
        "board link add WEB-7 WEB-2 --type duplicates",
        "board link add WEB-4 WEB-9"
      )
    )
    .action((spec: string, target: string, flags: Omit<LinkAddOptions, "card" | "target">, cmd: Command) =>
      app.run(cmd, { card: spec, target, ...flags }, runLinkAdd)
    )
