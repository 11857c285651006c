/** SPEC.md's "Intake" section and CONTRACT.md's intake-token endpoints. */
import { headerCharCount, Id, limits, MaxString, NonBlank, Timestamp, Uuid } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound } from "../errors.ts"
import { AnyUserAuth, IntakeAuth } from "../middleware/Authentication.ts"

export const IntakeToken = Schema.Struct({
  id: Id,
  columnId: Id,
  projectId: Id,
  name: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export class IntakeGroup extends HttpApiGroup.make("intake")
  .add(
    HttpApiEndpoint.post("file", "/v1/intake", {
      headers: {
        "idempotency-key": Schema.optionalKey(
          Schema.String.check(
            Schema.isMinLength(1, { message: "must not be empty" }),
            // counted in characters, as SPEC.md says, also when a client sends UTF-8 (Node reads header bytes as latin1)
            Schema.makeFilter((value: string) => headerCharCount(value) <= limits.idempotencyKey, {
              message: `must be at most ${limits.idempotencyKey} characters`,
              toJsonSchema: () => ({ maxLength: limits.idempotencyKey }),
              arbitraryConstraint: { maxLength: limits.idempotencyKey }
            })
          )
        )
      },
      payload: Schema.Struct({
        title: NonBlank(limits.intakeTitle),
        description: Schema.optionalKey(MaxString(limits.intakeDescription))
      }),
      success: Schema.Struct({ ok: Schema.Literal(true) }).pipe(HttpApiSchema.status(201)),
      error: BadRequest
    }).middleware(IntakeAuth)
  )
  .add(
    HttpApiEndpoint.post("mintToken", "/v1/intake-tokens", {
      payload: Schema.Struct({
        columnId: Uuid,
        name: Schema.optionalKey(MaxString(limits.name)),
        // checked by the core: an ISO 8601 date-time in the future
        expiresAt: Schema.optionalKey(Schema.String.annotate({ format: "date-time" }))
      }),
      success: Schema.Struct({ ...IntakeToken.fields, token: Schema.String }).pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound]
    }).middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.get("listTokens", "/v1/projects/:projectId/intake-tokens", {
      params: { projectId: Uuid },
      success: Schema.Array(IntakeToken),
      error: [Forbidden, NotFound]
    }).middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.delete("revokeToken", "/v1/intake-tokens/:id", {
      params: { id: Uuid },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound]
    }).middleware(AnyUserAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Intake",
      description: "A blind channel: an intake token files one card into one column and reads nothing back."
    })
  ) {}
