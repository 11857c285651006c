import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { doc } from "../schemas.ts"

export const Health = Schema.Struct({ status: Schema.Literal("ok"), service: Schema.Literal("service-api") }).annotate({
  identifier: "Health",
  description: "The process is up."
})

export const ApiIndex = Schema.Struct({
  status: Schema.Literal("ok"),
  service: Schema.Literal("service-api"),
  name: Schema.String,
  description: Schema.optionalKey(Schema.String),
  /** The API's version (`1.0`, SPEC's interface version). */
  version: Schema.optionalKey(Schema.String),
  /** The running release of the service (the root package.json's version). */
  serviceVersion: Schema.optionalKey(Schema.String),
  baseUrl: Schema.String.annotate({ format: "uri" }),
  documentation: Schema.optionalKey(Schema.Record(Schema.String, Schema.String.annotate({ format: "uri" }))),
  authentication: Schema.optionalKey(
    Schema.Struct({
      required: Schema.Boolean,
      schemes: Schema.Array(Schema.Record(Schema.String, Schema.Unknown))
    })
  )
}).annotate({
  identifier: "ApiIndex",
  description: "What this service is, where its documentation lives, how to authenticate."
})

/** Public: no credential, and health is never rate limited. */
export class SystemGroup extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("index", "/v1", { success: ApiIndex })
      .annotateMerge(
        doc(
          "Describe the API",
          "The service's name, version, base URL, where its documentation lives and how to authenticate. No credential."
        )
      )
      .annotateMerge(
        doc(
          "Describe the API",
          "The service's name, version, base URL, where its documentation lives and how to authenticate. No credential."
        )
      )
  )
  .add(
    HttpApiEndpoint.get("health", "/v1/health", { success: Health })
      .annotateMerge(
        doc(
          "Check health",
          "Answers 200 while the process is up. No credential, never rate limited; readiness (database and Redis reachable) is `GET /ready`, outside the API."
        )
      )
      .annotateMerge(
        doc(
          "Check health",
          "Answers 200 while the process is up. No credential, never rate limited; readiness (database and Redis reachable) is `GET /ready`, outside the API."
        )
      )
  )
  .annotateMerge(OpenApi.annotations({ title: "System", description: "Public endpoints: no credential." })) {}
