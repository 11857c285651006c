import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { eventLine } from "../../support/events.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface CardHistoryOptions {
  readonly card: string
  readonly project?: string
}

export const runCardHistory = Effect.fn("card.history")(function* (options: CardHistoryOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  // the members name whom an agent acts for ("Claude [agent for Ada]")
  const members = out.json
    ? undefined
    : new Map(
        (yield* client.members.list({
          params: { id: (yield* lookup.board(card.projectId)).project.workspaceId }
        })).map((m) => [m.userId as string, m.fullName || m.email] as const)
      )
  let after: string | undefined
  for (;;) {
    const page = yield* client.events.cardHistory({
      params: { id: card.id },
      query: { limit: 500, ...(after !== undefined ? { after } : {}) }
    })
    for (const e of page.events) yield* out.data(out.json ? JSON.stringify(e) : eventLine(e, out.style, members))
    if (page.next === null) return
    after = page.next
  }
})

export const registerCardHistory = (card: Command, app: App) =>
  card
    .command("history")
    .description("what happened to a card, oldest first: time, type, who")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .addOption(projectOption())
    .addHelpText("after", examples("board card history WEB-12", "board card history WEB-12 --json | jq -r .type"))
    .action((spec: string, flags: Omit<CardHistoryOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runCardHistory)
    )
