/**
 * Webhooks (issue 18): an endpoint that receives a workspace's or a project's events as signed
 * POSTs, and its deliveries (one per event, retried with backoff). The same schemas serve the
 * HTTP contract, the CLI and the core's views.
 */
import { Schema } from "effect"
import { eventTypes } from "./event.ts"
import { Id } from "./ids.ts"
import { limits } from "./limits.ts"
import { MaxString, Timestamp } from "./text.ts"

const knownTypes: ReadonlySet<string> = new Set(eventTypes)

/** Why a list of event types is not one a webhook can subscribe to, or undefined. */
export const webhookEventsFailure = (events: ReadonlyArray<string>): string | undefined => {
  if (events.length === 0) return 'events: give at least one event type, or ["*"] for all'
  if (events.includes("*"))
    return events.length === 1 ? undefined : 'events: "*" means every type; give it alone, as ["*"]'
  const unknown = events.filter((e) => !knownTypes.has(e))
  return unknown.length === 0
    ? undefined
    : `events: unknown event type ${JSON.stringify(unknown[0])}; the types are ${eventTypes.join(", ")}`
}

/** Event types, or exactly `["*"]` for all of them. */
export const WebhookEvents = Schema.Array(Schema.String).check(
  Schema.makeFilter((events: ReadonlyArray<string>) => webhookEventsFailure(events) ?? true)
)

export const WebhookUrl = Schema.String.check(
  Schema.isMinLength(1, { message: "must not be empty" }),
  Schema.isMaxLength(limits.linkUrl, { message: `must be at most ${limits.linkUrl} characters` })
).annotate({ format: "uri" })

export const Webhook = Schema.Struct({
  id: Id,
  url: Schema.String,
  workspaceId: Id,
  /** null: every project of the workspace. */
  projectId: Schema.NullOr(Id),
  events: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  /** Why it was disabled (3 days of failed deliveries, the credential that made it revoked, its owner gone from the workspace, by hand); null while enabled. */
  disabledReason: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "Webhook",
  description: "An endpoint that receives a workspace's or a project's events as signed POSTs."
})
export type Webhook = typeof Webhook.Type

/** A new webhook, with its signing secret: shown this once only. */
export const WebhookWithSecret = Schema.Struct({ ...Webhook.fields, secret: Schema.String }).annotate({
  identifier: "WebhookWithSecret",
  description: "A new webhook with its signing secret, shown this once only."
})
export type WebhookWithSecret = typeof WebhookWithSecret.Type

export const WebhookDescription = MaxString(limits.linkNote)

export const deliveryStatuses = ["pending", "delivered", "failed"] as const

export const Delivery = Schema.Struct({
  /** Sent as `Board-Delivery`: the same on every attempt. */
  id: Id,
  eventId: Schema.String,
  eventType: Schema.String,
  status: Schema.Literals(deliveryStatuses),
  // whole numbers (Schema.Number would also document "Infinity" and "NaN" strings)
  attempts: Schema.Int,
  lastStatusCode: Schema.NullOr(Schema.Int),
  lastError: Schema.NullOr(Schema.String),
  /** When the next attempt is due (pending), otherwise null. */
  nextAttemptAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Delivery", description: "One event sent to one webhook, with its attempts so far." })
export type Delivery = typeof Delivery.Type

export const DeliveryPage = Schema.Struct({
  deliveries: Schema.Array(Delivery),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}).annotate({
  identifier: "DeliveryPage",
  description: "A page of a webhook's deliveries, newest first, with the total."
})
export type DeliveryPage = typeof DeliveryPage.Type

export const DELIVERY_PAGE_MAX = 500
export const DELIVERY_PAGE_DEFAULT = 50
