/**
 * Keeps card_order_counts small (see cardView.ts's ordinalOf and migrations/0006): every card
 * write adds a row per bucket it changed, and this folds each bucket's rows into one, dropping
 * buckets that came back to zero. One statement, so readers see the rows before or after it,
 * never half; rows written meanwhile are not in its snapshot and stay for the next round.
 * Several instances may run it at once: a row deleted by one is skipped by the other.
 */
import { Effect, Schedule } from "effect"
import type { SqlClient } from "effect/sql"

/** How often the rows are folded: about as many rows as card writes in this time remain. */
export const COMPACT_EVERY = "2 seconds"

export const compactOrderCounts = (sql: SqlClient.SqlClient) =>
  sql`
    WITH many AS (
      SELECT column_id, bucket FROM card_order_counts GROUP BY 1, 2 HAVING count(*) > 1 OR sum(delta) = 0
    ), gone AS (
      DELETE FROM card_order_counts c USING many m WHERE c.column_id = m.column_id AND c.bucket = m.bucket
      RETURNING c.column_id, c.bucket, c.delta
    )
    INSERT INTO card_order_counts (column_id, bucket, delta)
    SELECT column_id, bucket, sum(delta) FROM gone GROUP BY 1, 2 HAVING sum(delta) <> 0`.pipe(Effect.asVoid)

/** Runs the compaction for as long as the scope lives; a failed round is logged and retried. */
export const compactOrderCountsForever = (sql: SqlClient.SqlClient) =>
  compactOrderCounts(sql).pipe(
    Effect.catchCause((cause) => Effect.logWarning("card order counts: compaction failed", cause)),
    Effect.repeat(Schedule.spaced(COMPACT_EVERY)),
    Effect.forkScoped
  )
