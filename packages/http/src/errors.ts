/**
 * The only wire shape of a failure, `{error: string}`, one class per status, and the total map
 * from core errors to them: a core error without a status here does not compile.
 */
import type { DomainError } from "@board/core"
import { Effect, Schema } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

const body = { error: Schema.String }

// each description is the response's description in the OpenAPI document
export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(body, {
  httpApiStatus: 400,
  description: "Malformed input: `error` names the field and the rule it broke."
}) {}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(body, {
  httpApiStatus: 401,
  description: "The credential is missing, malformed, unknown, expired, or not accepted here."
}) {}
export class Forbidden extends Schema.Error<Forbidden>("Forbidden")(body, {
  httpApiStatus: 403,
  description: "The credential may not do this (its kind, its grant, or the caller's role)."
}) {}
export class NotFound extends Schema.Error<NotFound>("NotFound")(body, {
  httpApiStatus: 404,
  description: "No such resource, or one the caller cannot see: the two are indistinguishable."
}) {}
export class Conflict extends Schema.Error<Conflict>("Conflict")(body, {
  httpApiStatus: 409,
  description: "The request conflicts with the resource's current state."
}) {}
export class TooManyRequests extends Schema.Error<TooManyRequests>("TooManyRequests")(body, {
  httpApiStatus: 429,
  description: "Too many requests: `Retry-After` says in how many seconds to come back."
}) {}

export type HttpError = BadRequest | Unauthorized | Forbidden | NotFound | Conflict | TooManyRequests

const statuses: ReadonlyArray<readonly [new (...args: never) => HttpError, number]> = [
  [BadRequest, 400],
  [Unauthorized, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [TooManyRequests, 429]
]

/**
 * The response the HttpApi sends for one of these errors, for routes outside it (the MCP
 * endpoint): the `{error}` body and the status; headers come from pre-response handlers.
 */
export const httpErrorResponse = (e: HttpError): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe({ error: e.error }, { status: statuses.find(([cls]) => e instanceof cls)?.[1] ?? 500 })

const statusOf: { readonly [K in DomainError["_tag"]]: (message: string) => HttpError } = {
  InvalidInput: (error) => new BadRequest({ error }),
  Unauthenticated: (error) => new Unauthorized({ error }),
  WorkspaceNotGranted: (error) => new Forbidden({ error }),
  Forbidden: (error) => new Forbidden({ error }),
  NotFound: (error) => new NotFound({ error }),
  Conflict: (error) => new Conflict({ error }),
  TooManyRequests: (error) => new TooManyRequests({ error })
}

export const toHttpError = (e: DomainError): HttpError => statusOf[e._tag](e.message)

/**
 * Fails with the HTTP error of a domain error; a 429 also gets its `Retry-After` header
 * (set on the final response, since error bodies carry no headers of their own).
 */
export const failDomain = (e: DomainError) =>
  e._tag === "TooManyRequests"
    ? HttpEffect.appendPreResponseHandler((_req, res) =>
        Effect.succeed(
          HttpServerResponse.setHeader(res, "retry-after", String(Math.max(1, Math.ceil(e.retryAfterSeconds))))
        )
      ).pipe(Effect.andThen(Effect.fail(toHttpError(e))))
    : Effect.fail(toHttpError(e))

/** Runs a core call, answering its domain errors with their statuses. */
export const orHttpError = <A, E extends DomainError, R>(self: Effect.Effect<A, E, R>) => Effect.catch(self, failDomain)
