/**
 * Every background loop of a server, in one place: what runs, how often, and what it does. A new
 * loop is added here.
 *
 * Two kinds. A periodic pass that needs nothing but the database (a sweep, a fold) is a method of
 * its service, and this layer schedules it (`scheduledJobs`, started by `JobsLive`). A loop that
 * works on its service's own memory (a cache fed by LISTEN, the streams a watch holds, the
 * columns this process wrote to, the delivery worker's wake-ups) stays beside that state, started
 * with its service's layer and ended with it; moving it here would mean exposing that state, so
 * it is only named here (`serviceLoops`) with its period and the file it lives in.
 *
 * Each loop runs in every instance; the statements are written so that instances may run them at
 * once (SKIP LOCKED, or deletes of rows another instance already took). A failed pass logs a
 * warning and the loop goes on; loops end with the server's scope. Per-request fibers (an event
 * stream's keep-alive, an MCP session's end) are not background loops and are not listed.
 */
import { type Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { SWEEP_MS as WATCH_SWEEP_MS } from "./auth/CredentialWatch.ts"
import { AgentSessions } from "./board/AgentSessions.ts"
import {
  COMPACT_ALL_EVERY,
  COMPACT_TOUCHED_EVERY,
  compactOrderCounts,
  VACUUM_EVERY,
  vacuumOrderCounts
} from "./board/orderCounts.ts"
import { EventLog, NOTIFY_WINDOW_MS } from "./events/EventLog.ts"
import { Intake } from "./intake/Intake.ts"

/** A loop this layer starts: the service's one pass, then `every` after each pass ends. */
export interface ScheduledJob<R> {
  readonly name: string
  readonly every: Duration.Input
  /** A wait before each pass as well (the retention sweep: its first pass a minute after start). */
  readonly delay?: Duration.Input
  readonly does: string
  /** The warning a failed pass logs. */
  readonly failed: string
  readonly pass: Effect.Effect<unknown, unknown, R>
}

/** A loop that lives beside its service's state: named here, started by that service's layer. */
export interface ServiceLoop {
  readonly name: string
  readonly every: string
  readonly does: string
  readonly where: string
}

export const scheduledJobs: ReadonlyArray<ScheduledJob<AgentSessions | EventLog | Intake | SqlClient.SqlClient>> = [
  {
    name: "agent lease sweep",
    every: "1 second",
    does: "marks live agent sessions whose lease has passed `stale`, with agent_session.stale events by `system` (board/leaseSweep.ts)",
    failed: "agent sessions: a lease sweep failed; it runs again in a second",
    pass: AgentSessions.use((sessions) => sessions.sweep)
  },
  {
    name: "card order counts, every column",
    every: COMPACT_ALL_EVERY,
    does: "folds card_order_counts rows of every column, those other instances or hand-written SQL left (board/orderCounts.ts)",
    failed: "card order counts: folding failed",
    pass: Effect.flatMap(SqlClient.SqlClient, (sql) => compactOrderCounts(sql))
  },
  {
    name: "card order counts vacuum",
    every: VACUUM_EVERY,
    does: "vacuums card_order_counts, whose folds leave dead index entries every position sum would scan until autovacuum's next minute (board/orderCounts.ts)",
    failed: "card order counts: the vacuum failed; it runs again in 5 seconds",
    pass: Effect.flatMap(SqlClient.SqlClient, (sql) => vacuumOrderCounts(sql))
  },
  {
    name: "event retention",
    every: "1 hour",
    delay: "1 minute",
    does: "deletes events older than EVENT_RETENTION, 5,000 a statement (events/EventLog.ts)",
    failed: "events: the retention sweep failed; it runs again in an hour",
    pass: EventLog.use((events) => events.sweep)
  },
  {
    name: "intake idempotency claims",
    every: "1 hour",
    does: "deletes intake Idempotency-Key claims older than their retention, 7 days (intake/Intake.ts)",
    failed: "intake: sweeping old idempotency claims failed",
    pass: Intake.use((intake) => intake.sweepClaims)
  }
]

export const serviceLoops: ReadonlyArray<ServiceLoop> = [
  {
    name: "card order counts, this process's columns",
    every: COMPACT_TOUCHED_EVERY,
    does: "folds the card_order_counts rows of the columns this process wrote to since the last fold",
    where: "board/orderCounts.ts, started by Cards.layer"
  },
  {
    name: "revocation feed",
    every: "LISTEN, restarted 1 s after a drop; a heartbeat NOTIFY each second, 3 s of silence ends it",
    does: "drops cached credentials another instance revoked; caches nothing while down (PostgreSQL only)",
    where: "auth/CredentialCache.ts"
  },
  {
    name: "credential watch",
    every: `${WATCH_SWEEP_MS} ms, and at each credential's expiry; woken by a revocation`,
    does: "ends the event streams and MCP sessions whose credential was revoked or expired, or whose user left the workspace",
    where: "auth/CredentialWatch.ts"
  },
  {
    name: "event NOTIFY",
    every: `${NOTIFY_WINDOW_MS} ms after a commit`,
    does: "tells other instances, in one NOTIFY, the projects whose events this process committed (PostgreSQL only)",
    where: "events/EventLog.ts"
  },
  {
    name: "event feed LISTEN",
    every: "LISTEN, restarted 1 s after a drop",
    does: "wakes this process's tails when another instance commits events (PostgreSQL only)",
    where: "events/EventFeed.ts"
  },
  {
    name: "event feed tails",
    every: "one per project with open streams: polls each second, every 30 ms for 4 polls after a wake",
    does: "reads a project's new events once and fans them out to its streams",
    where: "events/EventFeed.ts"
  },
  {
    name: "webhook deliveries",
    every: "at most 1 s apart; sooner when a delivery falls due, or this process records events or queues one",
    does: "claims due deliveries, signs and POSTs them, records the outcome, backs off, disables",
    where: "webhooks/Deliveries.ts (DeliveriesLive)"
  }
]

/** Starts `scheduledJobs` for as long as the server's scope lives. */
export const JobsLive = Layer.effectDiscard(
  Effect.forEach(
    scheduledJobs,
    (job) => {
      const guarded = job.pass.pipe(Effect.catchCause((cause) => Effect.logWarning(job.failed, cause)))
      return (job.delay === undefined ? guarded : Effect.delay(guarded, job.delay)).pipe(
        Effect.repeat(Schedule.spaced(job.every)),
        Effect.forkScoped
      )
    },
    { discard: true }
  )
)
