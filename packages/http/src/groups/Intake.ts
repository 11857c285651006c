/** SPEC.md's "Intake" section and CONTRACT.md's intake-token endpoints. */
import { headerCharCount, Id, IntakeFiling, IntakeTokenMint, limits, Timestamp, Uuid } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { doc } from "../schemas.ts"
import { BadRequest, Forbidden, NotFound, Conflict } from "../errors.ts"
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
}).annotate({
  identifier: "IntakeToken",
  description: "An intake token: files cards into one column; its secret is not shown."
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
      payload: IntakeFiling,
      success: Schema.Struct({ ok: Schema.Literal(true) }).pipe(HttpApiSchema.status(201)),
      error: BadRequest
    })
      .annotateMerge(
        doc(
          "File a card through intake",
          "Files one card into the intake token's column and answers only `{ok: true}`: an intake token reads nothing back. An `Idempotency-Key` makes a retry answer the same without a second card."
        )
      )
      .middleware(IntakeAuth)
  )
  .add(
    HttpApiEndpoint.post("mintToken", "/v1/intake-tokens", {
      // expiresAt is checked by the core: an ISO 8601 date-time in the future
      payload: IntakeTokenMint,
      success: Schema.Struct({ ...IntakeToken.fields, token: Schema.String }).pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
      .annotateMerge(
        doc(
          "Create an intake token",
          "Creates an intake token for a column; `token` (prefix `svc_in_`) is shown in this answer only. Send it as `X-Intake-Key` to `POST /v1/intake`."
        )
      )
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.get("listTokens", "/v1/projects/:projectId/intake-tokens", {
      params: { projectId: Uuid },
      success: Schema.Array(IntakeToken),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("List a project's intake tokens", "The project's intake tokens, without their secrets."))
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.delete("revokeToken", "/v1/intake-tokens/:id", {
      params: { id: Uuid },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    })
      .annotateMerge(doc("Revoke an intake token", "Revokes an intake token; it answers 401 from then on."))
      .middleware(AnyUserAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Intake",
      description: "A blind channel: an intake token files one card into one column and reads nothing back."
    })
  ) {}
