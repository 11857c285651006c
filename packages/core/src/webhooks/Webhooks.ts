/**
 * Webhooks (issue 18, CONTRACT.md): create, list, read, change and delete the endpoints that
 * receive a workspace's or a project's events, list their deliveries, retry one, and ping. A
 * webhook belongs to its workspace: its members manage it (another user gets NotFound, a
 * credential whose grant does not cover the workspace WorkspaceNotGranted, through Access).
 *
 * Deliveries are created by the events trigger in the event's own transaction
 * (migrations/0011_webhooks.sql) and sent by Deliveries.ts. A disabled webhook is sent nothing:
 * a retry or a ping queued while it is disabled waits, pending, until it is enabled again.
 *
 * A webhook also belongs to the credential that made it (issue 28): revoking that API key,
 * OAuth grant or web session disables it with a `disabledReason` (the credential tables'
 * trigger, migrations/0016), and a delivery is sent only while its user is still a member of
 * the workspace (Deliveries.ts). Enabling it again (PATCH `enabled: true`) hands it to the
 * enabling user and credential: the one who turns a channel back on answers for it.
 *
 * The rows and their views are in webhookRows.ts.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import { AppConfig } from "../Config.ts"
import { Access, reachOf, visibleTo, type WriteNeeds } from "../board/Access.ts"
import { iso } from "../board/rows.ts"
import { type Conflict, type Forbidden, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import { isUuid } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { textFailure } from "../domain/text.ts"
import {
  DELIVERY_PAGE_DEFAULT,
  DELIVERY_PAGE_MAX,
  type Delivery,
  type DeliveryPage,
  type Webhook,
  type WebhookWithSecret,
  webhookEventsFailure
} from "../domain/webhook.ts"
import { limits } from "../domain/limits.ts"
import { actorParams, actorSql } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { ServerSecret } from "../infra/Secret.ts"
import { mintWebhookSecret, sealSecret } from "./secretBox.ts"
import {
  COLUMNS,
  DELIVERY_COLUMNS,
  type DeliveryRow,
  deliveryView,
  ownerCredential,
  type Row,
  webhookView
} from "./webhookRows.ts"
import { pinHost, urlShapeFailure, WebhookResolver } from "./urlPolicy.ts"

export { deliveryView, webhookView }

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict

/** What a webhook's changes need: a member's role (a viewer reads them). */
const manageHooks: WriteNeeds = { action: "manage webhooks", manages: true }

export interface WebhookInput {
  readonly url: string
  readonly workspaceId?: string | undefined
  readonly projectId?: string | undefined
  readonly events: ReadonlyArray<string>
  readonly description?: string | undefined
}

export interface WebhookPatch {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<string> | undefined
  readonly description?: string | null | undefined
  readonly enabled?: boolean | undefined
}

export class Webhooks extends Context.Service<
  Webhooks,
  {
    readonly create: (
      principal: Principal,
      input: WebhookInput
    ) => Effect.Effect<WebhookWithSecret, InvalidInput | WriteError>
    readonly list: (
      principal: Principal,
      scope: { readonly workspaceId?: string | undefined; readonly projectId?: string | undefined }
    ) => Effect.Effect<ReadonlyArray<Webhook>, AccessError>
    readonly get: (principal: Principal, id: string) => Effect.Effect<Webhook, AccessError>
    readonly update: (
      principal: Principal,
      id: string,
      patch: WebhookPatch
    ) => Effect.Effect<Webhook, InvalidInput | WriteError>
    readonly remove: (principal: Principal, id: string) => Effect.Effect<void, WriteError>
    readonly deliveries: (
      principal: Principal,
      id: string,
      page: { readonly limit?: number | undefined; readonly offset?: number | undefined }
    ) => Effect.Effect<DeliveryPage, AccessError>
    readonly retry: (principal: Principal, id: string, deliveryId: string) => Effect.Effect<Delivery, WriteError>
    /** Queues a `ping` delivery (not an event of the log). */
    readonly ping: (principal: Principal, id: string) => Effect.Effect<Delivery, WriteError>
    /** Registers a listener told when a webhook is created or enabled, or a delivery queued by hand (retry, ping); returns its removal. */
    readonly onQueued: (listener: () => void) => () => void
  }
>()("board/core/Webhooks") {
  static readonly layer = Layer.effect(
    Webhooks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const config = yield* AppConfig
      const keys = yield* ServerSecret
      const resolver = yield* WebhookResolver
      const listeners = new Set<() => void>()
      const queued = () => {
        for (const listener of listeners) listener()
      }
      const settings = { allowHttp: config.webhookAllowHttp, allowPrivate: config.webhookAllowPrivate }

      /** The URL policy at creation: its shape and, for a name, every address it resolves to now. */
      const checkUrl = (url: string) =>
        Effect.gen(function* () {
          const shape = urlShapeFailure(url, settings)
          if (shape !== undefined) return yield* new InvalidInput({ message: shape })
          if (settings.allowPrivate) return
          // the rule a delivery applies (pinHost), here without keeping the address
          const pin = yield* Effect.promise(() => pinHost(new URL(url), settings, resolver))
          if (!pin.ok)
            return yield* new InvalidInput({
              message: pin.refused ? pin.error : `url: ${pin.error}; give a host name that resolves`
            })
        })

      const checkDescription = (description: string | null | undefined) => {
        const bad =
          description === undefined || description === null
            ? undefined
            : textFailure(description, "description", { max: limits.linkNote, nonBlank: false })
        return bad === undefined ? Effect.void : Effect.fail(new InvalidInput({ message: bad }))
      }

      const checkEvents = (events: ReadonlyArray<string>) => {
        const bad = webhookEventsFailure(events)
        return bad === undefined ? Effect.void : Effect.fail(new InvalidInput({ message: bad }))
      }

      /**
       * The webhook's row, after `check` (the access rule on what it watches, to read or to
       * change): its project's, or for a workspace-wide one its workspace's. A key limited to
       * projects reaches a project's webhook only within them, and no workspace-wide one: what
       * `list` shows it (`visibleTo`), by id as well.
       */
      const find = <E>(
        principal: Principal,
        id: string,
        check: (kind: "project" | "workspace", scopeId: string, what: string) => Effect.Effect<unknown, E>
      ) =>
        Effect.gen(function* () {
          const what = `webhook ${id}`
          if (!isUuid(id)) return yield* new NotFound({ message: `${what} not found` })
          const [row] = yield* sql.unsafe<Row>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1`, [id]).pipe(Effect.orDie)
          if (row === undefined) return yield* new NotFound({ message: `${what} not found` })
          if (row.project_id === null && principal.projects !== undefined)
            return yield* new NotFound({ message: `${what} not found` })
          yield* row.project_id === null
            ? check("workspace", row.workspace_id, what)
            : check("project", row.project_id, what)
          return row
        })
      const owned = (principal: Principal, id: string) =>
        find(principal, id, (kind, scopeId, what) => access.resolve(principal, kind, scopeId, what))
      const ownedToChange = (principal: Principal, id: string, deletes = false) =>
        find(principal, id, (kind, scopeId, what) =>
          access.write(principal, kind, scopeId, {
            ...manageHooks,
            ...(deletes ? { action: "delete webhooks", deletes } : {}),
            // as when this rule looked only at the workspace (which is never archived): an archived
            // project's webhooks can still be turned off, changed and deleted
            evenArchived: true,
            what
          })
        )

      const create = Effect.fn("Webhooks.create")(function* (principal: Principal, input: WebhookInput) {
        if ((input.workspaceId === undefined) === (input.projectId === undefined))
          return yield* new InvalidInput({
            message: "give workspaceId (every project of a workspace) or projectId (one project), not both"
          })
        yield* checkEvents(input.events)
        yield* checkDescription(input.description)
        const scope =
          input.projectId !== undefined
            ? yield* access.write(principal, "project", input.projectId, manageHooks)
            : yield* access.write(principal, "workspace", input.workspaceId!, manageHooks)
        yield* checkUrl(input.url)
        const id = crypto.randomUUID()
        const secret = mintWebhookSecret()
        const now = yield* sqlNow
        const [row] = yield* sql
          .unsafe<Row>(
            `INSERT INTO webhooks (id, workspace_id, project_id, url, events, description, secret_box, created_by,
               created_at, updated_at, created_by_credential, created_by_kind)
             VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9::timestamptz, $9::timestamptz, $10::uuid, $11)
             RETURNING ${COLUMNS}`,
            [
              id,
              scope.workspaceId,
              scope.projectId ?? null,
              input.url,
              [...input.events],
              input.description ?? null,
              sealSecret(keys.webhooks, id, secret),
              principal.userId,
              now,
              ...ownerCredential(principal)
            ]
          )
          .pipe(Effect.orDie)
        queued()
        return { ...webhookView(row!), secret }
      })

      // a workspace's webhooks (all its projects'), a project's, or, with neither, every webhook
      // the caller can see (its workspaces, within an OAuth grant)
      const list = Effect.fn("Webhooks.list")(function* (
        principal: Principal,
        scope: { readonly workspaceId?: string | undefined; readonly projectId?: string | undefined }
      ) {
        if (scope.projectId !== undefined) yield* access.resolve(principal, "project", scope.projectId)
        if (scope.workspaceId !== undefined) yield* access.resolve(principal, "workspace", scope.workspaceId)
        const rows = yield* sql
          .unsafe<Row>(
            `SELECT ${COLUMNS} FROM webhooks w
             WHERE ($1::uuid IS NULL OR w.workspace_id = $1::uuid) AND ($2::uuid IS NULL OR w.project_id = $2::uuid)
               AND ${visibleTo("w.workspace_id", "$3::uuid", "$4", "w.project_id")}
             ORDER BY w.created_at, w.id`,
            [scope.workspaceId ?? null, scope.projectId ?? null, principal.userId, reachOf(principal)]
          )
          .pipe(Effect.orDie)
        return rows.map(webhookView)
      })

      const get = Effect.fn("Webhooks.get")(function* (principal: Principal, id: string) {
        return webhookView(yield* owned(principal, id))
      })

      const update = Effect.fn("Webhooks.update")(function* (principal: Principal, id: string, patch: WebhookPatch) {
        const row = yield* ownedToChange(principal, id)
        if (patch.events !== undefined) yield* checkEvents(patch.events)
        yield* checkDescription(patch.description)
        if (patch.url !== undefined) yield* checkUrl(patch.url)
        const now = yield* sqlNow
        // enabling clears the reason it was disabled and makes the caller and their credential its
        // owners (issue 28); disabling by hand gives its own reason
        const [credential, kind] = ownerCredential(principal)
        const [updated] = yield* sql
          .unsafe<Row>(
            `UPDATE webhooks SET
               url = COALESCE($2, url),
               events = COALESCE($3::text[], events),
               description = CASE WHEN $4::boolean THEN $5 ELSE description END,
               enabled = COALESCE($6::boolean, enabled),
               disabled_reason = CASE WHEN $6::boolean IS NULL THEN disabled_reason
                 WHEN $6::boolean THEN NULL ELSE COALESCE(disabled_reason, 'disabled by its owner') END,
               created_by = CASE WHEN $6::boolean THEN $8::uuid ELSE created_by END,
               created_by_credential = CASE WHEN $6::boolean THEN $9::uuid ELSE created_by_credential END,
               created_by_kind = CASE WHEN $6::boolean THEN $10 ELSE created_by_kind END,
               updated_at = $7::timestamptz
             WHERE id = $1 RETURNING ${COLUMNS}`,
            [
              row.id,
              patch.url ?? null,
              patch.events === undefined ? null : [...patch.events],
              patch.description !== undefined,
              patch.description ?? null,
              patch.enabled ?? null,
              now,
              principal.userId,
              credential,
              kind
            ]
          )
          .pipe(Effect.orDie)
        if (updated === undefined) return yield* new NotFound({ message: `webhook ${id} not found` })
        if (updated.enabled) queued()
        return webhookView(updated)
      })

      const remove = Effect.fn("Webhooks.remove")(function* (principal: Principal, id: string) {
        const row = yield* ownedToChange(principal, id, true)
        yield* sql`DELETE FROM webhooks WHERE id = ${row.id}`.pipe(Effect.orDie)
      })

      const deliveries = Effect.fn("Webhooks.deliveries")(function* (
        principal: Principal,
        id: string,
        page: { readonly limit?: number | undefined; readonly offset?: number | undefined }
      ) {
        const row = yield* owned(principal, id)
        const limit = Math.min(Math.max(page.limit ?? DELIVERY_PAGE_DEFAULT, 1), DELIVERY_PAGE_MAX)
        const offset = Math.max(page.offset ?? 0, 0)
        const rows = yield* sql
          .unsafe<DeliveryRow>(
            `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1
             ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
            [row.id, limit, offset]
          )
          .pipe(Effect.orDie)
        const [count] = yield* sql<{ total: string | number }>`
          SELECT count(*) AS total FROM webhook_deliveries WHERE webhook_id = ${row.id}`.pipe(Effect.orDie)
        return { deliveries: rows.map(deliveryView), total: Number(count?.total ?? 0), limit, offset }
      })

      const retry = Effect.fn("Webhooks.retry")(function* (principal: Principal, id: string, deliveryId: string) {
        const row = yield* ownedToChange(principal, id)
        if (!isUuid(deliveryId)) return yield* new NotFound({ message: `delivery ${deliveryId} not found` })
        const now = yield* sqlNow
        // a new streak: a retry by hand does not count the old failures toward disabling
        const [delivery] = yield* sql
          .unsafe<DeliveryRow>(
            `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3::timestamptz,
               failing_since = NULL, updated_at = $3::timestamptz
             WHERE id = $1 AND webhook_id = $2 RETURNING ${DELIVERY_COLUMNS}`,
            [deliveryId, row.id, now]
          )
          .pipe(Effect.orDie)
        if (delivery === undefined) return yield* new NotFound({ message: `delivery ${deliveryId} not found` })
        queued()
        return deliveryView(delivery)
      })

      const ping = Effect.fn("Webhooks.ping")(function* (principal: Principal, id: string) {
        const row = yield* ownedToChange(principal, id)
        const now = yield* sqlNow
        const [kind, user, credential] = actorParams(principal)
        const [actor] = yield* sql
          .unsafe<{ actor: unknown }>(`SELECT ${actorSql("$1::text", "$2", "$3")} AS actor`, [kind, user, credential])
          .pipe(Effect.orDie)
        const eventId = `ping_${crypto.randomBytes(12).toString("hex")}`
        // the same shape as an event; `ping` is not in the log
        const payload = JSON.stringify({
          id: eventId,
          type: "ping",
          createdAt: iso(now),
          workspaceId: row.workspace_id,
          projectId: row.project_id,
          actor: typeof actor?.actor === "string" ? JSON.parse(actor.actor) : actor?.actor,
          data: { object: webhookView(row) }
        })
        const [delivery] = yield* sql
          .unsafe<DeliveryRow>(
            `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload, next_attempt_at, created_at, updated_at)
             VALUES ($1, $2, 'ping', $3, $4::timestamptz, $4::timestamptz, $4::timestamptz)
             RETURNING ${DELIVERY_COLUMNS}`,
            [row.id, eventId, payload, now]
          )
          .pipe(Effect.orDie)
        queued()
        return deliveryView(delivery!)
      })

      return Webhooks.of({
        create,
        list,
        get,
        update,
        remove,
        deliveries,
        retry,
        ping,
        onQueued: (listener) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        }
      })
    })
  )
}
