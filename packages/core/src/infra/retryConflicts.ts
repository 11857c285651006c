import { Effect, Predicate, Schedule } from "effect"

/**
 * Retries a whole transaction that PostgreSQL aborted as a deadlock victim or a serialization
 * failure: the transaction rolled back, so running it again is safe, and the client never
 * sees a 500 for a race it did not cause.
 */
export const retryConflicts = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(self, {
    times: 5,
    schedule: Schedule.exponential("5 millis"),
    while: (e) =>
      Predicate.hasProperty(e, "reason") &&
      Predicate.hasProperty(e.reason, "_tag") &&
      (e.reason._tag === "DeadlockError" || e.reason._tag === "SerializationError")
  })
