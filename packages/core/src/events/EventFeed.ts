/**
 * The live feed behind the event streams (issue 18): ONE tail per project per process, however
 * many streams are open, fanned out in memory. No stream holds a database connection or runs
 * its own query per event.
 *
 * A tail reads the project's final events (EventLog.page, from its cursor) when woken:
 * - by `EventLog.onCommitted` (a write in this process; on the embedded database the only writer);
 * - on PostgreSQL, by `LISTEN board_events` (the trigger's NOTIFY at commit, from any instance);
 *   while that listener reconnects, and after, every tail re-reads;
 * - by a safety poll every second, and quick re-polls (every 30 ms, a few times) after each
 *   wake: an event committed behind a transaction still running stays hidden until that one
 *   ends (migrations/0010_events.sql), which may send no notification of its own.
 *
 * A subscriber is one stream. Its `last` is the id of the last event it was given; ids sort as
 * text in log order, so "give only ids > last" is the whole no-gap/no-duplicate rule:
 * - with a cursor behind the tail, the subscriber first replays from the log itself, page by
 *   page (the consumer's pace, with back-pressure), then, in one synchronous step, joins the
 *   fan-out if the tail has not moved past its `last` (else it reads one more page). Events the
 *   tail saw are final and visible, so the replay reaches them; the tail's later events go
 *   through the fan-out; the `> last` filter drops the overlap;
 * - "from now on" is a cursor too: the newest event's id when the stream was requested
 *   (`position`).
 * A subscriber is a `Sink` (no fiber or queue of the feed's own per stream). One more than
 * `eventStreamBuffer` events behind its consumer is detached and told so (the HTTP layer tells
 * the client to resume from its Last-Event-ID).
 */
import { PgClient } from "@effect/sql-pg"
import {
  Cause,
  Context,
  Deferred,
  Effect,
  Exit,
  Fiber,
  FiberSet,
  Layer,
  Option,
  Queue,
  Schedule,
  type Scope
} from "effect"
import { AppConfig } from "../Config.ts"
import type { BoardEvent } from "../domain/event.ts"
import { EVENT_PAGE_MAX } from "../domain/event.ts"
import { EVENTS_CHANNEL, EventLog } from "./EventLog.ts"

/** Safety poll while a tail has subscribers. */
const POLL_MS = 1_000
/** Re-polls after a wake, for events hidden behind a running transaction for a moment. */
const QUICK_POLLS = 4
const QUICK_POLL_MS = 30

/** An event id that sorts before every event. */
export const BEFORE_ALL = "0".repeat(24)

/**
 * Where a subscriber's events go (an HTTP response's queue). Called synchronously by the tail:
 * `push` must not block; `pending` is what the consumer has not taken yet.
 */
export interface Sink {
  readonly push: (event: BoardEvent) => void
  readonly pending: () => number
  /** The consumer fell more than `eventStreamBuffer` events behind: it is detached, and should end. */
  readonly behind: () => void
}

interface Subscriber {
  readonly sink: Sink
  last: string
}

interface Tail {
  readonly projectId: string
  /** The id of the newest event fanned out (undefined: the project has none yet). */
  cursor: string | undefined
  readonly ready: Deferred.Deferred<void>
  readonly wake: Queue.Queue<void>
  readonly subscribers: Set<Subscriber>
  /** Streams holding this tail (subscribed, or still replaying towards it). */
  holders: number
  fiber: Fiber.Fiber<unknown> | undefined
}

export class EventFeed extends Context.Service<
  EventFeed,
  {
    /**
     * Gives `sink` a project's events after `after`: replayed from the log, then live, until the
     * scope closes or the sink falls behind. Returns once live. Access is the caller's to check
     * (History.checkStream).
     */
    readonly attach: (projectId: string, after: string, sink: Sink) => Effect.Effect<void, never, Scope.Scope>
    /**
     * Where "from now on" is for a project: its newest final event id (this process's tail
     * when it has one). Taken when a stream is requested, since the stream subscribes only
     * once its response starts; the id before every event when the project has none.
     */
    readonly position: (projectId: string) => Effect.Effect<string>
    /** Open tails and streams in this process (for tests and metrics). */
    readonly stats: () => { readonly tails: number; readonly streams: number }
  }
>()("board/core/EventFeed") {
  static readonly layer = Layer.effect(
    EventFeed,
    Effect.gen(function* () {
      const log = yield* EventLog
      const config = yield* AppConfig
      // tails run with the feed's own context, not the first subscriber's request, and end with the feed
      const spawn = yield* FiberSet.makeRuntime<never>()
      const tails = new Map<string, Tail>()
      const limit = config.eventStreamBuffer

      const behind = (tail: Tail, sub: Subscriber) => {
        tail.subscribers.delete(sub)
        sub.sink.behind()
      }

      /** Gives a subscriber the events after its `last`; closes it when its consumer lags too far. */
      const give = (sub: Subscriber, events: ReadonlyArray<BoardEvent>) => {
        for (const e of events) {
          if (e.id <= sub.last) continue
          sub.sink.push(e)
          sub.last = e.id
        }
      }

      // reads from the tail's cursor to the end of what is final, fanning each page out at once
      const drain = (tail: Tail) =>
        Effect.gen(function* () {
          for (;;) {
            const page = yield* log.page("project", tail.projectId, { after: tail.cursor, limit: EVENT_PAGE_MAX })
            if (page.events.length === 0) return
            // one synchronous step: a subscriber joins before or after a page, never inside one
            tail.cursor = page.events[page.events.length - 1]!.id
            for (const sub of tail.subscribers) {
              give(sub, page.events)
              if (sub.sink.pending() > limit) behind(tail, sub)
            }
            if (page.next === null) return
          }
        })

      const run = (tail: Tail) =>
        Effect.gen(function* () {
          if (!Deferred.isDoneUnsafe(tail.ready)) {
            tail.cursor = yield* log.head(tail.projectId)
            Deferred.doneUnsafe(tail.ready, Exit.void)
          }
          let quick = 0
          for (;;) {
            const woke = yield* Queue.take(tail.wake).pipe(
              Effect.timeoutOption(quick > 0 ? QUICK_POLL_MS : POLL_MS),
              Effect.map(Option.isSome)
            )
            quick = woke ? QUICK_POLLS : Math.max(0, quick - 1)
            yield* drain(tail)
          }
        }).pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.interrupt
              : Effect.logWarning("event feed: a tail's read failed; it retries in a second", cause)
          ),
          Effect.repeat(Schedule.spaced("1 second"))
        )

      const wake = (projectId: string) => {
        const tail = tails.get(projectId)
        if (tail !== undefined) Queue.offerUnsafe(tail.wake, undefined)
      }
      const wakeAll = () => {
        for (const tail of tails.values()) Queue.offerUnsafe(tail.wake, undefined)
      }

      const acquire = (projectId: string) =>
        Effect.flatMap(Queue.sliding<void>(1), (wake) =>
          // the look-up and the registration in one synchronous step: two first subscribers of a
          // project share one tail (the spare queue is dropped)
          Effect.sync(() => {
            let tail = tails.get(projectId)
            if (tail === undefined) {
              const created: Tail = {
                projectId,
                cursor: undefined,
                ready: Deferred.makeUnsafe<void>(),
                wake,
                subscribers: new Set(),
                holders: 0,
                fiber: undefined
              }
              tails.set(projectId, created)
              created.fiber = spawn(run(created))
              tail = created
            }
            tail.holders++
            return tail
          })
        )

      const release = (tail: Tail, sub: Subscriber) =>
        Effect.suspend(() => {
          tail.subscribers.delete(sub)
          tail.holders--
          if (tail.holders > 0) return Effect.void
          if (tails.get(tail.projectId) === tail) tails.delete(tail.projectId)
          // not awaited: a stream's body ends only after this release, and a tail reading a page
          // stops only once its query is answered, which on the embedded database's one
          // connection waits behind every other query (a revoked stream ended seconds late)
          return tail.fiber === undefined ? Effect.void : Effect.asVoid(Effect.forkDetach(Fiber.interrupt(tail.fiber)))
        })

      const position = (projectId: string) => {
        const tail = tails.get(projectId)
        return tail !== undefined && tail.cursor !== undefined && Deferred.isDoneUnsafe(tail.ready)
          ? Effect.succeed(tail.cursor)
          : Effect.map(log.head(projectId), (head) => head ?? BEFORE_ALL)
      }

      const attach = (projectId: string, after: string, sink: Sink) =>
        Effect.gen(function* () {
          const sub: Subscriber = { sink, last: after }
          const tail = yield* Effect.acquireRelease(acquire(projectId), (t) => release(t, sub))
          yield* Deferred.await(tail.ready)
          // replay until the tail has not passed `last`, then join in the same synchronous step
          for (;;) {
            const joined = (() => {
              if (tail.cursor !== undefined && tail.cursor > sub.last) return false
              tail.subscribers.add(sub)
              return true
            })()
            if (joined) return
            // back-pressure: wait while the consumer has a page's worth unread
            while (sink.pending() >= EVENT_PAGE_MAX) yield* Effect.sleep(20)
            const page = yield* log.page("project", projectId, { after: sub.last, limit: EVENT_PAGE_MAX })
            // the events were deleted by retention meanwhile: carry on from the tail
            if (page.events.length === 0) sub.last = tail.cursor ?? sub.last
            give(sub, page.events)
          }
        })

      const stopListening = log.onCommitted(wake)
      yield* Effect.addFinalizer(() => Effect.sync(stopListening))

      // PostgreSQL: every instance hears every commit. Never on the embedded database: it has
      // one connection, which a LISTEN would hold.
      if (config.databaseUrl !== undefined) {
        const pg = yield* PgClient.PgClient
        const listenOnce = Effect.scoped(
          Effect.gen(function* () {
            const notifications = yield* pg.listen(EVENTS_CHANNEL)
            // a notification may have been missed while the listener was down
            wakeAll()
            for (;;) {
              // the writers' batched NOTIFY after their commit: project ids, comma-separated
              const { payload } = yield* Queue.take(notifications)
              for (const projectId of payload.split(",")) wake(projectId)
            }
          })
        ).pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.interrupt
              : Effect.logWarning("event feed: the LISTEN connection dropped; polling until it is back", cause)
          )
        )
        yield* listenOnce.pipe(Effect.repeat(Schedule.spaced("1 second")), Effect.forkScoped)
      }

      return EventFeed.of({
        attach,
        position,
        stats: () => {
          let streams = 0
          for (const tail of tails.values()) streams += tail.subscribers.size
          return { tails: tails.size, streams }
        }
      })
    })
  )
}
