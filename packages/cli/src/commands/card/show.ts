import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { cardDetails, examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface CardShowOptions {
  readonly card: string
  readonly project?: string
}

export const runCardShow = Effect.fn("card.show")(function* (options: CardShowOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const board = yield* lookup.board(card.projectId)
  const links = yield* client.board.listCardLinks({ params: { id: card.id } })
  // assignees and the claim by name, an agent with its mark; the pull requests that name the card
  const members = out.json ? [] : yield* client.members.list({ params: { id: board.project.workspaceId } })
  const pullRequests = yield* client.forge.pullRequests({ params: { id: card.id } })
  yield* out.result({ ...card, links, pullRequests }, () =>
    cardDetails(card, board, links, out.style, members, pullRequests)
  )
})

export const registerCardShow = (card: Command, app: App) =>
  card
    .command("show")
    .description("show a card: column, priority, labels, description, subtasks, links, pull requests and shipped state")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .addOption(projectOption())
    .addHelpText(
      "after",
      examples("board card show WEB-12", 'board card show "Fix login"', "board card show WEB-12 --json | jq .subtasks")
    )
    .action((spec: string, flags: Omit<CardShowOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runCardShow)
    )
