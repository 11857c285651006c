import { Effect } from "effect"
import type { CardLinkId } from "@board/core/contract"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure } from "../../support/failure.ts"
import { examples, linkPhrase } from "../../support/format.ts"
import { isUuid, Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { linkTypeOption, projectOption } from "../shared.ts"
import type { LinkType } from "./add.ts"

export interface LinkDeleteOptions {
  /** A link id, or the card at one end (with `target`). */
  readonly card: string
  readonly target?: string
  readonly type?: LinkType
  readonly project?: string
}

export const runLinkDelete = Effect.fn("link.delete")(function* (options: LinkDeleteOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  if (options.target === undefined) {
    if (!isUuid(options.card))
      return yield* failure(
        "give a link id (board link list CARD shows them), or the two cards: board link delete WEB-4 WEB-5"
      )
    yield* client.board.deleteCardLink({ params: { id: options.card as CardLinkId } })
    yield* out.message("Removed the link.")
    return yield* out.result({ deleted: { id: options.card } }, () => undefined)
  }
  const card = yield* lookup.card(options.card, options.project)
  const target = yield* lookup.card(options.target, options.project)
  const links = (yield* client.board.listCardLinks({ params: { id: card.id } })).filter(
    (l) => l.card.id === target.id && (options.type === undefined || l.linkType === options.type)
  )
  if (links.length === 0)
    return yield* failure(
      `${card.ref} and ${target.ref} are not linked${options.type !== undefined ? ` by ${options.type}` : ""}`
    )
  if (links.length > 1) {
    return yield* failure(
      `${card.ref} and ${target.ref} have ${links.length} links (${links.map((l) => l.linkType).join(", ")}); say which with --type`
    )
  }
  yield* client.board.deleteCardLink({ params: { id: links[0].id } })
  yield* out.message(`Removed: ${card.ref} ${linkPhrase(links[0])} ${target.ref}.`)
  yield* out.result({ deleted: { id: links[0].id } }, () => undefined)
})

export const registerLinkDelete = (link: Command, app: App) =>
  link
    .command("delete")
    // `remove` was its name before issue 16: `delete` ends a thing everywhere in the CLI
    .alias("remove")
    .alias("rm")
    .description("remove a link between two cards, or by its id")
    .argument("<card-or-link-id>", "a card (ref, id or title), or a link id")
    .argument("[target]", "the card at the other end")
    .addOption(linkTypeOption())
    .addOption(projectOption())
    .addHelpText(
      "after",
      examples(
        "board link delete WEB-4 WEB-5",
        "board link delete WEB-4 WEB-5 --type blocks",
        "board link delete 3f1c…   # a link id from `board link list`"
      )
    )
    .action(
      (spec: string, target: string | undefined, flags: Omit<LinkDeleteOptions, "card" | "target">, cmd: Command) =>
        app.run(cmd, { card: spec, ...(target !== undefined ? { target } : {}), ...flags }, runLinkDelete)
    )
