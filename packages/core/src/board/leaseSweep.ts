/**
 * The lease sweep's one pass: every live agent session whose lease has passed becomes `stale`,
 * with an `agent_session.stale` event by `system`. Rows are taken FOR UPDATE SKIP LOCKED, so
 * every instance may sweep at once and each row is taken by one only. Jobs.ts runs a pass each
 * second; correctness does not wait for it (AgentSessions.ts's header).
 */
import { Clock, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { EventLog } from "../events/EventLog.ts"
import { timestampOf } from "../infra/clock.ts"
import { LIVE } from "./claimSql.ts"
import { SESSION_COLUMNS, type Scoped, type SessionStatements } from "./sessionSql.ts"

/** The sessions the sweep turns stale per statement, so no statement holds many rows at once. */
const SWEEP_BATCH = 500

/** One pass: the passed leases, a batch at a time; answers how many turned stale. */
export const leaseSweep = (
  sql: SqlClient.SqlClient,
  events: EventLog["Service"],
  { sessionEvent }: SessionStatements
): Effect.Effect<number> =>
  Effect.gen(function* () {
    let total = 0
    for (;;) {
      const now = timestampOf(yield* Clock.currentTimeNanos)
      const stale = yield* events.changing(
        Effect.gen(function* () {
          const rows = yield* sql
            .unsafe<Scoped>(
              // the card too, skipping one a taker holds: the claimed trigger updates it, and
              // takers lock the card before its sessions, so waiting on it could deadlock
              `WITH due AS (
                 SELECT s.id FROM agent_sessions s JOIN cards c ON c.id = s.card_id
                 WHERE s.status IN ${LIVE} AND s.lease_expires_at <= $1::timestamptz
                 ORDER BY s.lease_expires_at LIMIT ${SWEEP_BATCH}
                 FOR UPDATE OF s SKIP LOCKED FOR NO KEY UPDATE OF c SKIP LOCKED
               ), gone AS (
                 UPDATE agent_sessions s SET status = 'stale', updated_at = $1::timestamptz FROM due
                 WHERE s.id = due.id RETURNING ${SESSION_COLUMNS}
               )
               SELECT s.*, p.workspace_id FROM gone s JOIN projects p ON p.id = s.project_id`,
              [now]
            )
            .pipe(Effect.orDie)
          yield* events.record(
            "system",
            rows.map((r) => sessionEvent("agent_session.stale", r))
          )
          return rows.length
        })
      )
      total += stale
      if (stale < SWEEP_BATCH) return total
    }
  })
