import type { Priority } from "@board/core/contract"
import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { collect, priorityOption, projectOption, textOrStdin } from "../shared.ts"

export interface CardCreateOptions {
  readonly title: string
  readonly project?: string
  readonly column?: string
  readonly description?: string
  readonly priority?: Priority
  readonly label?: ReadonlyArray<string>
}

export const runCardCreate = Effect.fn("card.create")(function* (options: CardCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const board = yield* lookup.board(project.id)
  const column =
    options.column === undefined
      ? (board.columns[0] ?? (yield* failure(`"${project.name}" has no columns to put a card in`)))
      : yield* lookup.column(board, options.column)
  // labels are checked before the card exists, so a typo files nothing
  const labels = yield* Effect.forEach(options.label ?? [], (l) => lookup.label(board, l))
  const description = yield* textOrStdin(options.description)
  let card = yield* client.board.createCard({
    payload: {
      projectId: project.id,
      columnId: column.id,
      title: options.title,
      ...(description !== undefined ? { description } : {}),
      ...(options.priority !== undefined ? { priority: options.priority } : {})
    }
  })
  for (const label of labels)
    card = yield* client.board.attachLabel({ params: { id: card.id }, payload: { labelId: label.id } })
  yield* out.message(`Created ${card.ref} in ${column.name}: ${card.title}`)
  yield* out.result(card, () => card.ref)
})

export const registerCardCreate = (card: Command, app: App) =>
  card
    .command("create")
    .description("create a card at the end of a column (default: the first); prints its ref")
    .argument("<title>", "the card's title")
    .addOption(projectOption())
    .option("-c, --column <column>", "column name or id (default: the first column)")
    .option("-d, --description <text>", "description; - reads it from stdin")
    .addOption(priorityOption())
    .option("-l, --label <label>", "attach an existing label (name or id); repeat for more", collect)
    .addHelpText(
      "after",
      examples(
        'board card create "Fix login"',
        'board card create "Fix login" --column "In Progress" --priority high --label bug',
        'git log -1 --format=%B | board card create "Release notes" --description -',
        'REF=$(board card create "Write docs" --project Website)'
      )
    )
    .action((title: string, flags: Omit<CardCreateOptions, "title">, cmd: Command) =>
      app.run(cmd, { title, ...flags }, runCardCreate)
    )
