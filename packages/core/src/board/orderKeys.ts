/**
 * Card order without a column lock (issue 14). Each card has a sparse `sort_key`, unique in its
 * column; a create or a move writes only its own row, with a key drawn between its neighbours'
 * by `board_key_between` (migrations/0006_order_keys.sql) inside the same statement, so the
 * neighbours it read are the ones of its own snapshot and no read-then-write race exists.
 *
 * The rules every writer follows:
 * - it takes `FOR KEY SHARE` on the destination column row (the lock its foreign key takes
 *   anyway: writers never wait for each other) and writes only if the column's `order_epoch`
 *   it locked equals the one of its snapshot; otherwise a rebalance replaced the keys it read,
 *   and the statement wrote nothing and runs again;
 * - a unique violation on `cards_order_unique` (two writers drew the same key) and a foreign
 *   key violation (the column went away after its snapshot) also mean "run again".
 *
 * A rebalance takes `FOR UPDATE` on the column row (it waits for the writers in flight and
 * holds new ones back for its few milliseconds), renumbers the keys 1..n in order and bumps
 * the epoch. Readers take no lock, so they never wait for it.
 */
import { Effect, Predicate, Schedule } from "effect"
import type { SqlClient } from "effect/sql"

/** Keys with more digits after the point than this get their column rebalanced. */
export const REBALANCE_SCALE = 24
/**
 * A card written into a counting bucket (128 key units, cardView.ts) that holds more cards than
 * this gets its column rebalanced too: inserts spread over many gaps fill a bucket without
 * growing any key much, and a position counts the cards inside its bucket. Concurrent appends
 * share key units (each draws from the same maximum), so a bucket of a busy column holds up to
 * 128 times the number of writers at once: the limit leaves room for that. After a rebalance
 * each bucket holds 128 cards.
 */
export const REBALANCE_BUCKET_SIZE = 4096

/** A column is rebalanced at most this often by one instance: a rebalance rewrites the column. */
export const REBALANCE_COOLDOWN_MS = 60_000

const sqlFields = (e: unknown): { code?: unknown; constraint?: unknown } => {
  if (!Predicate.hasProperty(e, "reason") || !Predicate.hasProperty(e.reason, "cause")) return {}
  const cause = e.reason.cause
  return typeof cause === "object" && cause !== null ? cause : {}
}

/**
 * A write that lost a race it can simply run again: two writers drew the same key, the column
 * went away after its snapshot, a deadlock. Other violations would fail again: they surface.
 */
export const isRaceLost = (e: unknown): boolean => {
  const { code, constraint } = sqlFields(e)
  return (
    (code === "23505" && constraint === "cards_order_unique") ||
    (code === "23503" && constraint === "cards_column_id_fkey") ||
    code === "40P01" ||
    code === "40001"
  )
}

/** Thrown (as a failure) by a writer whose snapshot predates a rebalance of its column. */
export class StaleOrder {
  readonly _tag = "StaleOrder"
}

/** Runs a one-statement write again when it lost a race; after 8 tries the error surfaces. */
export const retryRaces = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(self, {
    times: 8,
    schedule: Schedule.exponential("2 millis").pipe(Schedule.jittered),
    while: (e) => e instanceof StaleOrder || isRaceLost(e)
  })

// Archived cards have no key (migrations/0025): every neighbour lookup skips them, so a live card
// never draws a key from one and a rebalance leaves them keyless.

/** The last key of `column` (no row in an empty column): one step on the (column_id, sort_key) index. */
const lastKeyIn = (column: string): string =>
  `SELECT sort_key FROM cards WHERE column_id = ${column} AND sort_key IS NOT NULL ORDER BY sort_key DESC LIMIT 1`

/** The key of a card placed last in `column`. */
export const keyAtEnd = (column: string): string => `board_key_between((${lastKeyIn(column)}), NULL)`

/**
 * keyAtEnd for a statement that appends many times a second (a create, a filing): the last key
 * of `column` read by a lateral join named `alias` (its `sort_key` NULL in an empty column), and
 * the key drawn after it. board_key_between uses its argument more than once, so PostgreSQL
 * inlines it only when that argument is a plain column: given the subquery, it parses and plans
 * the function's body again on every call (issue 35: 5-6% of a create's database time).
 */
export const lastKeyOf = (column: string, alias: string) => ({
  join: `LEFT JOIN LATERAL (${lastKeyIn(column)}) ${alias} ON TRUE`,
  next: `board_key_between(${alias}.sort_key, NULL)`
})

/**
 * The key of a card placed at ordinal `position` (NULL: the end) of `column`, among the column's
 * other cards than `card` (the one being moved). Ordinal p reads p index entries.
 * Every use of the position reads it through a subquery, which hides its value from the planner:
 * given the parameter itself, each execution's own plan (LIMIT 2, say, or only the CASE's branch
 * for the end) looked cheaper than the prepared statement's generic one, so PostgreSQL planned
 * the whole move again on every call, more than half of a move's database time (issue 35).
 * Hidden, every plan costs the same and PostgreSQL keeps the generic one after its fifth execution.
 */
export const keyAt = (column: string, card: string, position: string): string => {
  const others = `FROM cards WHERE column_id = ${column} AND id <> ${card} AND sort_key IS NOT NULL`
  const at = `(SELECT ${position})`
  return `CASE WHEN ${at} IS NULL
    THEN board_key_between((SELECT sort_key ${others} ORDER BY sort_key DESC LIMIT 1), NULL)
    ELSE board_key_between(
      (SELECT max(k.sort_key) FROM (SELECT sort_key ${others} ORDER BY sort_key LIMIT ${at}) k),
      (SELECT sort_key ${others} ORDER BY sort_key OFFSET ${at} LIMIT 1))
    END`
}

/** True when the epoch locked on `col` (the latest) is the one the statement's snapshot saw. */
export const epochUnchanged = (col: string): string =>
  `${col}.order_epoch = (SELECT e.order_epoch FROM board_columns e WHERE e.id = ${col}.id)`

/** Renumbers a column's keys 1..n in their order. See the module comment for the locking. */
export const rebalance = (sql: SqlClient.SqlClient, columnId: string) =>
  sql
    .withTransaction(
      Effect.gen(function* () {
        const [column] = yield* sql`SELECT id FROM board_columns WHERE id = ${columnId} FOR UPDATE`
        if (column === undefined) return
        yield* sql`
      UPDATE cards c SET sort_key = r.n
      FROM (SELECT id, row_number() OVER (ORDER BY sort_key, id) AS n FROM cards WHERE column_id = ${columnId} AND sort_key IS NOT NULL) r
      WHERE c.id = r.id AND c.column_id = ${columnId}`
        yield* sql`UPDATE board_columns SET order_epoch = order_epoch + 1 WHERE id = ${columnId}`
      })
    )
    .pipe(retryRaces, Effect.orDie)
