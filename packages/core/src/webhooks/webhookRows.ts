/**
 * A webhook's and a delivery's rows and their REST views (Webhooks.ts), and the credential a
 * new or re-enabled webhook belongs to.
 */
import { iso } from "../board/rows.ts"
import type { Principal } from "../domain/Principal.ts"
import type { Delivery, Webhook } from "../domain/webhook.ts"

/** The credential a webhook belongs to: its id and kind, or nulls (a bootstrap session token, which cannot be revoked). */
export const ownerCredential = (principal: Principal): [string | null, string | null] =>
  principal.credentialId !== undefined &&
  (principal.via === "apiKey" || principal.via === "oauth" || principal.via === "browser")
    ? [principal.credentialId, principal.via]
    : [null, null]

export interface Row {
  readonly id: string
  readonly workspace_id: string
  readonly project_id: string | null
  readonly url: string
  readonly events: ReadonlyArray<string> | string
  readonly description: string | null
  readonly enabled: boolean
  readonly disabled_reason: string | null
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

export const COLUMNS =
  "id, workspace_id, project_id, url, events, description, enabled, disabled_reason, created_at, updated_at"

// a text[] arrives as an array from both drivers; the literal form is parsed just in case
const textArray = (v: ReadonlyArray<string> | string): ReadonlyArray<string> =>
  typeof v === "string"
    ? v
        .replace(/^\{|\}$/g, "")
        .split(",")
        .filter((s) => s !== "")
        .map((s) => s.replace(/^"|"$/g, ""))
    : v

export const webhookView = (r: Row): Webhook => ({
  id: r.id,
  url: r.url,
  workspaceId: r.workspace_id,
  projectId: r.project_id,
  events: textArray(r.events),
  description: r.description,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export interface DeliveryRow {
  readonly id: string
  readonly event_id: string | null
  readonly event_type: string
  readonly status: Delivery["status"]
  readonly attempts: number
  readonly last_status_code: number | null
  readonly last_error: string | null
  readonly next_attempt_at: Date | string
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

export const DELIVERY_COLUMNS =
  "id, event_id, event_type, status, attempts, last_status_code, last_error, next_attempt_at, created_at, updated_at"

export const deliveryView = (r: DeliveryRow): Delivery => ({
  id: r.id,
  eventId: r.event_id ?? "",
  eventType: r.event_type,
  status: r.status,
  attempts: Number(r.attempts),
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  lastError: r.last_error,
  nextAttemptAt: r.status === "pending" ? iso(r.next_attempt_at) : null,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})
