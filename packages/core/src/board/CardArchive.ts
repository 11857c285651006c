/**
 * Archive and restore a card (issue 33 part 4): what agents do instead of deleting.
 *
 * An archived card keeps its row, ref, column, labels, subtasks, comments, links and history,
 * but leaves its column's order: `archived_at` is set and its `sort_key` is NULL
 * (migrations/0025), so the order counts drop it (the triggers count keyed cards only), the
 * cards after it close ranks, and the board, search and the queue leave it out. Its `position`
 * reads 0. A live agent session holding it is released in the same transaction, with its
 * `agent_session.updated` event. A restore puts it back at the END of its column (its old
 * neighbours may have moved, been archived or deleted meanwhile; the end is where a person looks
 * for what came back), with a key drawn as a create draws one.
 *
 * Both are idempotent: archiving an archived card, or restoring a live one, answers the card
 * as it is, writes nothing and logs no event (as a project's archive does).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { CardId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { Access, type WriteError } from "./Access.ts"
import { Cards } from "./Cards.ts"
import type { CardView } from "./cardView.ts"
import { LIVE } from "./claimSql.ts"
import { iso } from "./rows.ts"
import { compactOrderCounts } from "./orderCounts.ts"
import { keyAtEnd, retryRaces } from "./orderKeys.ts"
import { SESSION_COLUMNS, type SessionRow, sessionStatements } from "./sessionSql.ts"

export class CardArchive extends Context.Service<
  CardArchive,
  {
    /** Archives the card (idempotent): out of the board, search and the queue; its live session released. */
    readonly archive: (principal: Principal, id: CardId) => Effect.Effect<CardView, WriteError>
    /** Restores an archived card at the end of its column (idempotent). */
    readonly restore: (principal: Principal, id: CardId) => Effect.Effect<CardView, WriteError>
  }
>()("board/core/CardArchive") {
  static readonly layer = Layer.effect(
    CardArchive,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog
      const cards = yield* Cards
      const { sessionEvent, setStatus } = sessionStatements(sql, events)

      /** Locks the card's row (the order claims take: card, then sessions) and reads its state. */
      const lockCard = (id: string) =>
        sql<{ column_id: string; archived_at: Date | string | null }>`
          SELECT column_id, archived_at FROM cards WHERE id = ${id} FOR NO KEY UPDATE`

      const change = (principal: Principal, id: CardId, to: "archived" | "restored") =>
        Effect.gen(function* () {
          // a change like any other: a viewer is refused, and so is a card of an archived project
          const card = yield* access.write(principal, "card", id, {
            action: to === "archived" ? "archive cards" : "restore cards"
          })
          const workspaceId = card.workspaceId
          const outcome = yield* events
            .withEvents(
              Effect.gen(function* () {
                const [row] = yield* lockCard(id)
                // deleted since the access check: the same 404 as a card never there
                if (row === undefined) return undefined
                if ((row.archived_at !== null) === (to === "archived")) return { column: row.column_id, changed: false }
                const now = yield* sqlNow
                if (to === "archived") {
                  // the agent working on it stops: its live session ends as a release would end it
                  const live = yield* sql.unsafe<SessionRow>(
                    `SELECT ${SESSION_COLUMNS} FROM agent_sessions s WHERE s.card_id = $1::uuid AND s.status IN ${LIVE}`,
                    [id]
                  )
                  for (const session of live) {
                    const ended = yield* setStatus({ ...session, workspace_id: workspaceId }, "released", now)
                    yield* events.record(principal, {
                      ...sessionEvent("agent_session.updated", ended),
                      previous: { status: session.status }
                    })
                  }
                  yield* sql`UPDATE cards SET archived_at = ${now}::timestamptz, sort_key = NULL, updated_at = ${now}::timestamptz
                    WHERE id = ${id}`
                } else {
                  // the column row's KEY SHARE waits out a rebalance, as every order writer's does
                  // (orderKeys.ts); two writers drawing the same end key is a lost race, run again
                  yield* sql`SELECT 1 FROM board_columns WHERE id = ${row.column_id} FOR KEY SHARE`
                  yield* sql.unsafe(
                    `UPDATE cards SET archived_at = NULL, sort_key = ${keyAtEnd("$2::uuid")}, updated_at = $3::timestamptz
                     WHERE id = $1::uuid`,
                    [id, row.column_id, now]
                  )
                }
                const [after] = yield* cards.load([id])
                yield* events.record(principal, {
                  type: to === "archived" ? "card.archived" : "card.restored",
                  workspaceId,
                  projectId: after!.projectId,
                  cardId: id,
                  object: after,
                  previous: { archivedAt: row.archived_at === null ? null : iso(row.archived_at) }
                })
                return { column: row.column_id, changed: true }
              })
            )
            .pipe(retryRaces, Effect.orDie)
          if (outcome === undefined) {
            // the same words as every other card operation's 404
            return yield* access.resolve(principal, "card", id).pipe(Effect.andThen(cards.get(principal, id)))
          }
          // fold the counts the change wrote now rather than at the next minute's pass
          if (outcome.changed) yield* compactOrderCounts(sql, [outcome.column]).pipe(Effect.ignore)
          return yield* cards.get(principal, id)
        })

      return CardArchive.of({
        archive: Effect.fn("CardArchive.archive")((principal: Principal, id: CardId) =>
          change(principal, id, "archived")
        ),
        restore: Effect.fn("CardArchive.restore")((principal: Principal, id: CardId) =>
          change(principal, id, "restored")
        )
      })
    })
  )
}
