/**
 * A card's assignees (issue 19): members of its workspace, kept in card_assignees in the order
 * they were assigned. Cards.create writes them in its one statement (cardStatements.ts); a PATCH
 * replaces the set here, with its `card.assigned` event in the same transaction.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { InvalidInput } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { isUuid } from "../domain/ids.ts"
import { listOf } from "./names.ts"

/**
 * The user an `assignee` filter names: `me` is the caller; an id that is not a UUID names nobody
 * (the HTTP contract refuses it first). Undefined: no filter.
 */
export const assigneeOf = (principal: Principal, assignee: string | undefined): string | undefined =>
  assignee === undefined ? undefined : assignee === "me" ? principal.userId : isUuid(assignee) ? assignee : NOBODY

/** A user id no user has: a filter by it matches no card. */
const NOBODY = "00000000-0000-0000-0000-000000000000"

/** The ids of `ids` that are not members of `workspaceId`, in the order given. */
export const nonMembers = (sql: SqlClient.SqlClient, workspaceId: string, ids: ReadonlyArray<string>) =>
  ids.length === 0
    ? Effect.succeed([] as Array<string>)
    : sql
        .unsafe<{ id: string }>(
          `SELECT u.id::text AS id FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, i)
           WHERE NOT EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = $2::uuid AND m.user_id = u.id)
           ORDER BY u.i`,
          [ids as Array<string>, workspaceId]
        )
        .pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map((r) => r.id))
        )

/** The 400 that names the assignees who are not members of the card's workspace. */
export const notMembers = (ids: ReadonlyArray<string>): InvalidInput =>
  new InvalidInput({
    message: `assigneeIds: ${listOf(ids)} ${ids.length === 1 ? "is not a member" : "are not members"} of the card's workspace`
  })

/** Fails with `notMembers` when any of `ids` is not a member of the workspace. */
export const checkMembers = (sql: SqlClient.SqlClient, workspaceId: string, ids: ReadonlyArray<string>) =>
  Effect.flatMap(nonMembers(sql, workspaceId, ids), (missing) =>
    missing.length === 0 ? Effect.void : Effect.fail(notMembers(missing))
  )

/**
 * Replaces card `cardId`'s assignees with `ids` (distinct) at `now`, on the caller's transaction,
 * and answers the set before, or undefined when nothing changed. The card row is locked first,
 * so two replacements of one card's set take turns and each sees the other's result.
 */
export const replaceAssignees = (sql: SqlClient.SqlClient, cardId: string, ids: ReadonlyArray<string>, now: string) =>
  Effect.gen(function* () {
    yield* sql`SELECT 1 FROM cards WHERE id = ${cardId} FOR NO KEY UPDATE`
    const before = (yield* sql<{ user_id: string }>`
      SELECT user_id FROM card_assignees WHERE card_id = ${cardId} ORDER BY created_at, user_id`).map((r) => r.user_id)
    const wanted = new Set(ids)
    if (before.length === wanted.size && before.every((id) => wanted.has(id))) return undefined
    yield* sql.unsafe(
      `WITH gone AS (
         DELETE FROM card_assignees WHERE card_id = $1::uuid AND user_id <> ALL($2::uuid[]) RETURNING 1
       ), added AS (
         INSERT INTO card_assignees (card_id, user_id, created_at)
         SELECT $1::uuid, u.id, $3::timestamptz FROM unnest($2::uuid[]) u(id)
         ON CONFLICT DO NOTHING RETURNING 1
       )
       UPDATE cards SET updated_at = $3::timestamptz WHERE id = $1::uuid`,
      [cardId, [...wanted], now]
    )
    return before
  }).pipe(Effect.orDie)
