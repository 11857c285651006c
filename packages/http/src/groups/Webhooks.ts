/** CONTRACT.md's webhook endpoints (issue 18): signed POSTs of a workspace's or project's events. */
import {
  checkedId,
  Delivery,
  DELIVERY_PAGE_MAX,
  DeliveryPage,
  ProjectId,
  Uuid,
  Webhook,
  WebhookDescription,
  WebhookEvents,
  WebhookUrl,
  WebhookWithSecret,
  WorkspaceId
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound, Conflict } from "../errors.ts"
import { AnyUserAuth } from "../middleware/Authentication.ts"
import { documentParameters, integerSchema, QueryInt, doc } from "../schemas.ts"

// one webhook, one scope: a project, or every project of a workspace. Two members rather than two
// optional fields, so the document says a request needs one of them; a request naming both is
// read as the project's (the narrower scope; its workspace is the project's own).
const webhookFields = {
  url: WebhookUrl,
  events: WebhookEvents,
  description: Schema.optionalKey(WebhookDescription)
}
const CreateWebhook = Schema.Union([
  Schema.Struct({ ...webhookFields, projectId: checkedId(ProjectId) }),
  Schema.Struct({ ...webhookFields, workspaceId: checkedId(WorkspaceId) })
])

const deliveryLimit = { minimum: 1, maximum: DELIVERY_PAGE_MAX }
const offsetRange = { minimum: 0 }

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/v1/webhooks", {
      payload: CreateWebhook,
      success: WebhookWithSecret.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
      .annotateMerge(
        doc(
          "Create a webhook",
          "Subscribes a URL to a project's events (`projectId`) or to every project of a workspace (`workspaceId`). `events` lists event types, or is `[\"*\"]` for all. The answer's `secret` signs every delivery and is shown this once only."
        )
      )
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/webhooks", {
      query: {
        workspaceId: Schema.optionalKey(checkedId(WorkspaceId)),
        projectId: Schema.optionalKey(checkedId(ProjectId))
      },
      success: Schema.Array(Webhook),
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "List webhooks",
          "A workspace's webhooks (all its projects'), a project's, or with neither every webhook the caller can see."
        )
      )
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.get("get", "/v1/webhooks/:id", {
      params: { id: Uuid },
      success: Webhook,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("Get a webhook", "One webhook, without its secret."))
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.patch("update", "/v1/webhooks/:id", {
      params: { id: Uuid },
      payload: Schema.Struct({
        url: Schema.optionalKey(WebhookUrl),
        events: Schema.optionalKey(WebhookEvents),
        description: Schema.optionalKey(Schema.NullOr(WebhookDescription)),
        enabled: Schema.optionalKey(Schema.Boolean)
      }),
      success: Webhook,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Update a webhook",
          "Changes the fields sent; `enabled: true` re-enables a webhook the service disabled after days of failed deliveries."
        )
      )
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.delete("remove", "/v1/webhooks/:id", {
      params: { id: Uuid },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("Delete a webhook", "Deletes a webhook; pending deliveries are dropped."))
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.get("deliveries", "/v1/webhooks/:id/deliveries", {
      params: { id: Uuid },
      query: {
        limit: Schema.optionalKey(QueryInt(deliveryLimit)),
        offset: Schema.optionalKey(QueryInt(offsetRange))
      },
      success: DeliveryPage,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "List a webhook's deliveries",
          "A page of the webhook's deliveries, newest first, with each one's attempts and last result."
        )
      )
      .middleware(AnyUserAuth)
      .annotate(
        OpenApi.Transform,
        documentParameters({ replace: { limit: integerSchema(deliveryLimit), offset: integerSchema(offsetRange) } })
      )
  )
  .add(
    HttpApiEndpoint.post("retry", "/v1/webhooks/:id/deliveries/:deliveryId/retry", {
      params: { id: Uuid, deliveryId: Uuid },
      success: Delivery.pipe(HttpApiSchema.status(202)),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("Retry a delivery", "Queues the delivery for another attempt now (202)."))
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.post("ping", "/v1/webhooks/:id/ping", {
      params: { id: Uuid },
      success: Delivery.pipe(HttpApiSchema.status(202)),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("Ping a webhook", "Queues a test delivery (`ping`) to the webhook's URL now (202)."))
      .middleware(AnyUserAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Webhooks",
      description:
        "Signed POSTs of a workspace's or a project's events (Board-Signature: t=<unix>,v1=<HMAC-SHA256 of \"<t>.<body>\">), retried with backoff; at least once."
    })
  ) {}
