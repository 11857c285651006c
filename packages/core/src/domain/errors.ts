/**
 * Domain errors: tagged, each with a message a person can act on. The HTTP package maps every
 * tag to a status in one total table, so adding an error here without a status fails to compile.
 */
import { Data } from "effect"

/** Input that breaks a domain rule (the HTTP layer answers 400). */
export class InvalidInput extends Data.TaggedError("InvalidInput")<{ readonly message: string }> {}

/** No such resource, or the caller cannot see it: the two are indistinguishable by design. */
export class NotFound extends Data.TaggedError("NotFound")<{ readonly message: string }> {}

/**
 * A member whose credential does not cover the operation: a workspace outside an OAuth grant, or
 * a read by a credential without the `read` scope (issue 33; the HTTP layer answers 403).
 */
export class WorkspaceNotGranted extends Data.TaggedError("WorkspaceNotGranted")<{ readonly message: string }> {}

/** A request that conflicts with the current state (existing account, column still holding cards). */
export class Conflict extends Data.TaggedError("Conflict")<{ readonly message: string }> {}

/** A credential that is missing, malformed, unknown, expired, or used where it is not accepted. */
export class Unauthenticated extends Data.TaggedError("Unauthenticated")<{
  readonly message: string
  /** RFC 6750: `invalid_token` when a token was presented and refused. */
  readonly invalidToken: boolean
}> {}

/** An operation the credential kind may not perform, or signups closed. */
export class Forbidden extends Data.TaggedError("Forbidden")<{ readonly message: string }> {}

/** Too many attempts; `retryAfterSeconds` tells the client when to come back. */
export class TooManyRequests extends Data.TaggedError("TooManyRequests")<{
  readonly message: string
  readonly retryAfterSeconds: number
}> {}

export type DomainError =
  | InvalidInput
  | NotFound
  | WorkspaceNotGranted
  | Conflict
  | Unauthenticated
  | Forbidden
  | TooManyRequests
