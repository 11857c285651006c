import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import type { Comment } from "../../support/types.ts"
import { projectOption, textOrStdin, wholeNumber } from "../shared.ts"

export interface CommentAddOptions {
  readonly card: string
  readonly text: string
  readonly project?: string
}

export interface CommentListOptions {
  readonly card: string
  readonly project?: string
  readonly limit?: number
  readonly offset?: number
}

const authorOf = (c: Comment) =>
  `${c.author.name ?? c.author.type}${c.author.type === "user" ? "" : ` (${c.author.type})`}`

export const runCommentAdd = Effect.fn("comment.add")(function* (options: CommentAddOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const body = (yield* textOrStdin(options.text)) ?? options.text
  const comment = yield* client.board.createComment({ params: { id: card.id }, payload: { body } })
  yield* out.message(`Commented on ${card.ref}.`)
  yield* out.result(comment, () => comment.id)
})

export const runCommentList = Effect.fn("comment.list")(function* (options: CommentListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const page = yield* client.board.listComments({
    params: { id: card.id },
    query: {
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.offset !== undefined ? { offset: options.offset } : {})
    }
  })
  yield* out.result(page, () =>
    page.comments.length === 0
      ? `${card.ref} has no comments${page.total > 0 ? ` here (${page.total} in all)` : ""}.`
      : page.comments
          .map((c) => `${out.style.bold(authorOf(c))} ${out.style.dim(c.createdAt)}\n${c.body.trimEnd()}`)
          .join("\n\n")
  )
})

export const registerComment = (program: Command, app: App) => {
  const comment = program
    .command("comment")
    .description("talk on a card: add comments and read them")
    .addHelpText("after", examples('board comment add WEB-12 "Looks good"', "board comment list WEB-12"))
  comment
    .command("add")
    .description("comment on a card (Markdown)")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<text>", "the comment; - reads it from stdin")
    .addOption(projectOption())
    .addHelpText(
      "after",
      examples('board comment add WEB-12 "Which API version?"', "board comment add WEB-12 - < notes.md")
    )
    .action((spec: string, text: string, flags: { project?: string }, cmd: Command) =>
      app.run(cmd, { card: spec, text, ...flags }, runCommentAdd)
    )
  comment
    .command("list")
    .description("a card's comments, oldest first")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .addOption(projectOption())
    .option("--limit <n>", "how many, 1 to 500 (default 50)", wholeNumber(1))
    .option("--offset <n>", "how many to skip", wholeNumber(0))
    .addHelpText(
      "after",
      examples("board comment list WEB-12", "board comment list WEB-12 --json | jq '.comments[].body'")
    )
    .action((spec: string, flags: Omit<CommentListOptions, "card">, cmd: Command) =>
      app.run(cmd, { card: spec, ...flags }, runCommentList)
    )
  return comment
}
