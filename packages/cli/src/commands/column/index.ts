/**
 * A project's columns: list them with their kinds, create one, rename, move or set its kind.
 * The kind (`todo`, `in_progress`, `done`) is what the queue and overdue marks go by
 * (docs/board.md, Column kinds): `board agent next` without --column takes from todo columns.
 */
import { type ColumnKind, columnKinds } from "@board/core/contract"
import { Effect } from "effect"
import { type Command, Option } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import type { Column } from "../../support/types.ts"
import { projectOption, wholeNumber } from "../shared.ts"

const kindOption = (what: string) => new Option("-k, --kind <kind>", what).choices(columnKinds)

const columnLine = (c: Column) => `${c.name} (${c.kind}, position ${c.position})`

export interface ColumnListOptions {
  readonly project?: string
}

export const runColumnList = Effect.fn("column.list")(function* (options: ColumnListOptions) {
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const board = yield* lookup.board(project.id)
  if (board.columns.length === 0 && !out.json)
    return yield* out.message(`${project.name} has no columns yet: board column create NAME`)
  yield* out.result(board.columns, () =>
    table(
      board.columns.map((c) => [
        c.name,
        c.kind,
        String(board.cards.filter((card) => card.columnId === c.id).length),
        out.style.dim(c.id)
      ]),
      out.style,
      ["NAME", "KIND", "CARDS", "ID"]
    )
  )
})

export interface ColumnCreateOptions {
  readonly name: string
  readonly project?: string
  readonly kind?: ColumnKind
  readonly position?: number
}

export const runColumnCreate = Effect.fn("column.create")(function* (options: ColumnCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const column = yield* client.board.createColumn({
    payload: {
      projectId: project.id,
      name: options.name,
      ...(options.kind !== undefined ? { kind: options.kind } : {}),
      ...(options.position !== undefined ? { position: options.position } : {})
    }
  })
  yield* out.message(`Created column ${columnLine(column)} in ${project.name}.`)
  yield* out.result(column, () => column.id)
})

export interface ColumnEditOptions {
  readonly column: string
  readonly project?: string
  readonly name?: string
  readonly kind?: ColumnKind
  readonly position?: number
}

export const runColumnEdit = Effect.fn("column.edit")(function* (options: ColumnEditOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  if (options.name === undefined && options.kind === undefined && options.position === undefined) {
    return yield* usageError("nothing to change: give --name, --kind or --position")
  }
  const project = yield* lookup.project(options.project)
  const column = yield* lookup.column(yield* lookup.board(project.id), options.column)
  const updated = yield* client.board.updateColumn({
    params: { id: column.id },
    payload: {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.kind !== undefined ? { kind: options.kind } : {}),
      ...(options.position !== undefined ? { position: options.position } : {})
    }
  })
  yield* out.message(`Updated column ${columnLine(updated)}.`)
  yield* out.result(updated, () => updated.id)
})

export const registerColumn = (program: Command, app: App) => {
  const column = program
    .command("column")
    .description("list a project's columns with their kinds (todo, in_progress, done); create and edit them")
    .addHelpText(
      "after",
      examples(
        "board column list",
        "board column create Review --kind in_progress",
        "board column edit Done --kind done"
      )
    )
  column
    .command("list")
    .alias("ls")
    .description("list a project's columns in board order: name, kind, number of cards, id")
    .addOption(projectOption())
    .addHelpText("after", examples("board column list", "board column list --project Website --json"))
    .action((flags: ColumnListOptions, cmd: Command) => app.run(cmd, flags, runColumnList))
  column
    .command("create")
    .description("add a column at the end (or at --position); without --kind: todo on an empty board, else in_progress")
    .argument("<name>", "the column's name")
    .addOption(projectOption())
    .addOption(kindOption("what it holds: todo (work waiting), in_progress or done"))
    .option("--position <n>", "0-based place among the columns; past the end means the end", wholeNumber(0))
    .addHelpText(
      "after",
      examples("board column create Review --kind in_progress --position 2", "board column create Backlog --kind todo")
    )
    .action((name: string, flags: Omit<ColumnCreateOptions, "name">, cmd: Command) =>
      app.run(cmd, { name, ...flags }, runColumnCreate)
    )
  column
    .command("edit")
    .description("rename a column, move it, or set its kind")
    .argument("<column>", "the column's name (case does not matter) or id")
    .addOption(projectOption())
    .option("--name <name>", "its new name")
    .addOption(kindOption("todo, in_progress or done"))
    .option("--position <n>", "0-based place among the columns", wholeNumber(0))
    .addHelpText("after", examples("board column edit Done --kind done", 'board column edit "QA" --name Review'))
    .action((spec: string, flags: Omit<ColumnEditOptions, "column">, cmd: Command) =>
      app.run(cmd, { column: spec, ...flags }, runColumnEdit)
    )
  return column
}
