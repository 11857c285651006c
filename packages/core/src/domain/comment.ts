/** A comment on a card (issue 19): people and agents talk on the card. */
import { Schema } from "effect"
import { Actor } from "./event.ts"
import { CardId, CommentId } from "./ids.ts"
import { Timestamp } from "./text.ts"

export const Comment = Schema.Struct({
  id: CommentId,
  cardId: CardId,
  /** Who wrote it, named when it was written (an OAuth client is an agent with its client's name). */
  author: Actor,
  /** Markdown, kept as the author wrote it. */
  body: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Comment", description: "A comment on a card, in Markdown, with its author." })
export type Comment = typeof Comment.Type

export const CommentPage = Schema.Struct({
  comments: Schema.Array(Comment),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}).annotate({ identifier: "CommentPage", description: "A page of a card's comments, oldest first, with the total." })
export type CommentPage = typeof CommentPage.Type
