/**
 * Keeps card_order_counts small (see cardView.ts's ordinalOf and migrations/0006): every card
 * write adds a row per bucket it changed, and a position sums the rows of the buckets before
 * its card (a created card's, of its whole column), so rows must be folded soon after they are
 * written: at a thousand appends a second,
 * two seconds of unfolded rows made a create's position cost a millisecond of database time.
 *
 * Folding is one transaction, so readers see the rows before or after it, never half; rows
 * written meanwhile are not in its snapshot and stay for the next round. Several instances may
 * fold at once: a row deleted by one is skipped by the other.
 */
import { Effect, Schedule } from "effect"
import type { SqlClient } from "effect/sql"

/** How often the columns this process wrote to are folded. */
export const COMPACT_TOUCHED_EVERY = "250 millis"
/** How often every column is folded (rows other instances or hand-written SQL left; Jobs.ts runs it). */
export const COMPACT_ALL_EVERY = "1 minute"

/**
 * Folds each bucket's rows into one and drops buckets back at zero: of `columns`, or of all.
 *
 * The columns are locked first (`FOR KEY SHARE`, as a card write locks its column), skipping any
 * a delete holds. A project's or workspace's delete removes its columns, then their count rows
 * (deleteOrderCounts below). A fold that deleted and
 * re-inserted a column's rows unlocked could commit just after that cleanup had taken its
 * snapshot, leaving its re-inserted row behind for a column that no longer exists. Locked, a
 * delete waits for the fold and then removes what it wrote, or the fold skips the column; and
 * since a delete locks a column before its count rows, as the fold does, neither waits on the
 * other in the opposite order.
 */
export const compactOrderCounts = (sql: SqlClient.SqlClient, columns?: ReadonlyArray<string>) =>
  sql
    .withTransaction(
      Effect.flatMap(
        sql<{ id: string }>`
          SELECT id FROM board_columns
          WHERE ${columns === undefined ? sql`id IN (SELECT column_id FROM card_order_counts)` : sql`id = ANY(${columns as Array<string>}::uuid[])`}
          FOR KEY SHARE SKIP LOCKED`,
        (live) =>
          live.length === 0
            ? Effect.void
            : sql`
          WITH many AS (
            SELECT column_id, bucket FROM card_order_counts
            WHERE column_id = ANY(${live.map((c) => c.id)}::uuid[])
            GROUP BY 1, 2 HAVING count(*) > 1 OR sum(delta) = 0
          ), gone AS (
            DELETE FROM card_order_counts c USING many m WHERE c.column_id = m.column_id AND c.bucket = m.bucket
            RETURNING c.column_id, c.bucket, c.delta
          )
          INSERT INTO card_order_counts (column_id, bucket, delta)
          SELECT column_id, bucket, sum(delta) FROM gone GROUP BY 1, 2 HAVING sum(delta) <> 0`
      )
    )
    .pipe(Effect.asVoid)

/**
 * A deleted column's count rows, which no foreign key removes (card_order_counts is written by
 * every card write: a key to lock would cost each of them). Every delete of a column calls it in
 * its transaction, after the column (and its cards, whose delete trigger counts them out).
 */
export const deleteOrderCounts = (sql: SqlClient.SqlClient, columnIds: ReadonlyArray<string>) =>
  columnIds.length === 0
    ? Effect.void
    : sql`DELETE FROM card_order_counts WHERE column_id = ANY(${columnIds as Array<string>}::uuid[])`.pipe(
        Effect.asVoid
      )

/** How often card_order_counts is vacuumed (Jobs.ts). */
export const VACUUM_EVERY = "5 seconds"

/**
 * Vacuums card_order_counts: each fold deletes and re-inserts rows, and until a VACUUM their dead
 * index entries stay in the index every create's and move's position sum scans. Autovacuum comes
 * too late for this table: it wakes once a minute (autovacuum_naptime), and an operator may have
 * it off; a thousand creates a second leave tens of thousands of dead entries by then. Measured
 * (issue 35): the create statement on a 15,000-card column at 1.32 ms before a VACUUM, 0.79 ms
 * after. The table holds a row per bucket, so a pass is a few milliseconds; SKIP_LOCKED leaves
 * it to the next pass when another instance is vacuuming it. (VACUUM cannot run in a
 * transaction: this is its own statement, never inside `withTransaction`.)
 */
export const vacuumOrderCounts = (sql: SqlClient.SqlClient) =>
  sql`VACUUM (SKIP_LOCKED) card_order_counts`.pipe(Effect.asVoid)

/**
 * Starts folding the columns this process wrote to, for as long as the scope lives; `touched`
 * marks such a column, to be folded in the next quarter second. (Every column is folded by
 * Jobs.ts, each COMPACT_ALL_EVERY.)
 */
export const startOrderCountCompaction = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    let touched = new Set<string>()
    yield* Effect.suspend(() => {
      if (touched.size === 0) return Effect.void
      const columns = [...touched]
      touched = new Set()
      return compactOrderCounts(sql, columns)
    }).pipe(
      Effect.catchCause((cause) => Effect.logWarning("card order counts: folding failed", cause)),
      Effect.repeat(Schedule.spaced(COMPACT_TOUCHED_EVERY)),
      Effect.forkScoped
    )
    return { touched: (columnId: string) => void touched.add(columnId) }
  })
