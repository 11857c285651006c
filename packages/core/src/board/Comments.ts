/**
 * Comments on cards (issue 19): people and agents talk on a card. The author is the event log's
 * actor, named when the comment is written (an OAuth client is an agent with its client's name),
 * and stored on the comment, so renaming a client later does not rewrite what it said.
 *
 * Who may edit or delete a comment: its author, meaning the same user account. A person and the
 * agents they authorised (OAuth) act as that one user, so either may edit the other's comments;
 * another member of the workspace may not (403), someone who cannot see the card gets 404, and a
 * credential outside its grant 403, as everywhere.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Comment, CommentPage } from "../domain/comment.ts"
import { type Conflict, Forbidden, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Actor } from "../domain/event.ts"
import type { CardId, CommentId } from "../domain/ids.ts"
import type { CommentInput } from "../domain/inputs.ts"
import { limits } from "../domain/limits.ts"
import type { Principal } from "../domain/Principal.ts"
import { actorParams, actorSql, EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { Access } from "./Access.ts"
import { AgentSessions } from "./AgentSessions.ts"
import { iso } from "./rows.ts"

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict

interface CommentRow {
  readonly id: string
  readonly card_id: string
  readonly author_id: string | null
  readonly author: unknown
  readonly body: string
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

const COLUMNS = "id, card_id, author_id, author, body, created_at, updated_at"

const toComment = (r: CommentRow): Comment => ({
  id: r.id as CommentId,
  cardId: r.card_id as CardId,
  author: (typeof r.author === "string" ? JSON.parse(r.author) : r.author) as Actor,
  body: r.body,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export interface CommentQuery {
  readonly limit?: number | undefined
  readonly offset?: number | undefined
}

export class Comments extends Context.Service<
  Comments,
  {
    /** `input` was decoded with `CommentInput`, as every caller does. */
    readonly create: (principal: Principal, cardId: CardId, input: CommentInput) => Effect.Effect<Comment, WriteError>
    /** A page of a card's comments, oldest first. */
    readonly list: (
      principal: Principal,
      cardId: CardId,
      query?: CommentQuery
    ) => Effect.Effect<CommentPage, InvalidInput | AccessError>
    readonly update: (principal: Principal, id: CommentId, input: CommentInput) => Effect.Effect<Comment, WriteError>
    readonly remove: (principal: Principal, id: CommentId) => Effect.Effect<void, WriteError>
    /** The card's latest `count` comments, oldest first, and how many it has. No access check: callers check. */
    readonly latest: (
      cardId: string,
      count: number
    ) => Effect.Effect<{ readonly comments: ReadonlyArray<Comment>; readonly total: number }>
  }
>()("board/core/Comments") {
  static readonly layer = Layer.effect(
    Comments,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog
      const changing = events.changing

      const sessions = yield* AgentSessions
      /**
       * A person answered on the card: the card's `awaitingInput` agent session becomes `active`
       * again, with its `agent_session.updated` event, in the comment's transaction.
       */
      const personCommented = (principal: Principal, cardId: string): Effect.Effect<void> =>
        sessions.resumeOnComment(principal, cardId)

      const create = Effect.fn("Comments.create")(function* (
        principal: Principal,
        cardId: CardId,
        { body }: CommentInput
      ) {
        const card = yield* access.write(principal, "card", cardId, { action: "comment on cards" })
        return yield* changing(
          Effect.gen(function* () {
            const now = yield* sqlNow
            const [kind, user, credential] = actorParams(principal)
            const [row] = yield* sql
              .unsafe<CommentRow>(
                // from the card's row: a card deleted since the access check writes nothing (404)
                `INSERT INTO comments (card_id, author_id, author_kind, author, body, created_at, updated_at)
                 SELECT c.id, $2::uuid, $3, ${actorSql("$3::text", "$2", "$4")}, $5, $6::timestamptz, $6::timestamptz
                 FROM cards c WHERE c.id = $1::uuid
                 RETURNING ${COLUMNS}`,
                [cardId, user, kind, credential, body, now]
              )
              .pipe(Effect.orDie)
            if (row === undefined) return yield* new NotFound({ message: `card ${cardId} not found` })
            const comment = toComment(row)
            yield* events.record(principal, {
              type: "comment.created",
              workspaceId: card.workspaceId,
              projectId: card.projectId!,
              cardId,
              object: comment
            })
            if (comment.author.type === "user") yield* personCommented(principal, cardId)
            return comment
          })
        )
      })

      const list = Effect.fn("Comments.list")(function* (principal: Principal, cardId: CardId, query?: CommentQuery) {
        const limit = query?.limit ?? limits.commentPageDefault
        const offset = query?.offset ?? 0
        if (!Number.isInteger(limit) || limit < 1 || limit > limits.commentPageMax)
          return yield* new InvalidInput({
            message: `limit: must be a whole number from 1 to ${limits.commentPageMax}`
          })
        if (!Number.isSafeInteger(offset) || offset < 0)
          return yield* new InvalidInput({ message: "offset: must be a whole number from 0" })
        yield* access.resolve(principal, "card", cardId)
        const [rows, [count]] = yield* Effect.all(
          [
            sql<CommentRow>`
              SELECT ${sql.literal(COLUMNS)} FROM comments WHERE card_id = ${cardId}
              ORDER BY n LIMIT ${limit} OFFSET ${offset}`,
            sql<{ total: number }>`SELECT count(*)::int AS total FROM comments WHERE card_id = ${cardId}`
          ],
          { concurrency: "unbounded" }
        ).pipe(Effect.orDie)
        return { comments: rows.map(toComment), total: count?.total ?? 0, limit, offset }
      })

      /** The comment, if the caller may see it (else 404/403) and wrote it (else 403). */
      const authored = (principal: Principal, id: string, deletes = false) =>
        Effect.gen(function* () {
          const card = yield* access.write(principal, "comment", id, {
            action: deletes ? "delete comments" : "change comments",
            deletes
          })
          const [row] = yield* sql<CommentRow>`SELECT ${sql.literal(COLUMNS)} FROM comments WHERE id = ${id}`.pipe(
            Effect.orDie
          )
          // deleted since the access check
          if (row === undefined) return yield* new NotFound({ message: `comment ${id} not found` })
          if (row.author_id !== principal.userId)
            return yield* new Forbidden({ message: "only the comment's author may change or delete it" })
          return { card, row }
        })

      const update = Effect.fn("Comments.update")(function* (
        principal: Principal,
        id: CommentId,
        { body }: CommentInput
      ) {
        const { card, row } = yield* authored(principal, id)
        return yield* changing(
          Effect.gen(function* () {
            const now = yield* sqlNow
            const [updated] = yield* sql<CommentRow>`
              UPDATE comments SET body = ${body}, updated_at = ${now}::timestamptz WHERE id = ${id}
              RETURNING ${sql.literal(COLUMNS)}`.pipe(Effect.orDie)
            // deleted meanwhile: the card is gone or its author deleted it
            if (updated === undefined) return toComment(row)
            const comment = toComment(updated)
            yield* events.record(principal, {
              type: "comment.updated",
              workspaceId: card.workspaceId,
              projectId: card.projectId!,
              cardId: comment.cardId,
              object: comment,
              previous: { body: row.body }
            })
            return comment
          })
        )
      })

      const remove = Effect.fn("Comments.remove")(function* (principal: Principal, id: CommentId) {
        const { card } = yield* authored(principal, id, true)
        yield* changing(
          Effect.gen(function* () {
            const [gone] = yield* sql<CommentRow>`
              DELETE FROM comments WHERE id = ${id} RETURNING ${sql.literal(COLUMNS)}`.pipe(Effect.orDie)
            if (gone === undefined) return
            const comment = toComment(gone)
            yield* events.record(principal, {
              type: "comment.deleted",
              workspaceId: card.workspaceId,
              projectId: card.projectId!,
              cardId: comment.cardId,
              object: comment
            })
          })
        )
      })

      const latest = (cardId: string, count: number) =>
        Effect.all(
          [
            sql<CommentRow>`
              SELECT * FROM (SELECT ${sql.literal(COLUMNS)}, n FROM comments WHERE card_id = ${cardId}
              ORDER BY n DESC LIMIT ${count}) k ORDER BY n`,
            sql<{ total: number }>`SELECT count(*)::int AS total FROM comments WHERE card_id = ${cardId}`
          ],
          { concurrency: "unbounded" }
        ).pipe(
          Effect.orDie,
          Effect.map(([rows, [total]]) => ({ comments: rows.map(toComment), total: total?.total ?? 0 }))
        )

      return Comments.of({ create, list, update, remove, latest })
    })
  )
}
