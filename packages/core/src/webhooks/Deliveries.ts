/**
 * The webhook delivery worker, one per server; several instances share the work through the
 * database. Each round claims the due deliveries with `FOR UPDATE SKIP LOCKED` and marks them
 * `locked_until` now + 30 s in the claiming transaction, so two instances never hold the same
 * attempt and a claim of an instance that died (SIGKILL) runs out and is taken again: delivery is
 * at least once. The outcome is written only while the claim is still this round's
 * (`locked_until` unchanged), so a late instance cannot overwrite a newer attempt.
 *
 * An event's payload is built from the log at its first claim (the API's own JSON of the event,
 * `toEvent`) and stored with the claim: every later attempt sends those bytes, so one
 * Board-Delivery never carries two payloads.
 *
 * A failure is retried after 30 s · 2^(attempt−1) (WEBHOOK_RETRY_BASE), capped at 6 h, ±20 %;
 * when a delivery has been failing for 3 days (WEBHOOK_DISABLE_AFTER) its webhook is disabled, its
 * reason recorded, and its pending deliveries marked failed.
 *
 * A delivery is sent only while the webhook's owner (the user who made or last enabled it) is
 * still a member of its workspace (issue 28): a round that finds a due delivery of a webhook
 * whose owner is not disables that webhook, with its reason, in the claiming transaction, and
 * sends nothing to it; its deliveries wait, pending, as for any disabled webhook.
 *
 * The worker wakes when this process records events (EventLog.onCommitted; only while some webhook
 * is enabled, so a server without webhooks pays for nothing but the poll) or queues a delivery
 * by hand (retry, ping), when the next delivery falls due, and at least every second (events
 * written through another instance).
 */
import { Clock, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { RequestOptions } from "node:http"
import { AppConfig } from "../Config.ts"
import { membershipOf } from "../board/Access.ts"
import { EventLog, toEvent } from "../events/EventLog.ts"
import { timestampOf } from "../infra/clock.ts"
import { http, https } from "../infra/nodeHttp.ts"
import { ServerSecret } from "../infra/Secret.ts"
import { openSecret, signatureHeader } from "./secretBox.ts"
import { pinHost, type Resolver, urlShapeFailure, WebhookResolver } from "./urlPolicy.ts"
import { Webhooks } from "./Webhooks.ts"

/** A claim's lease: 30 s, and always longer than an attempt may take. */
const claimMs = (timeoutMs: number) => Math.max(30_000, timeoutMs + 20_000)
const BATCH = 20
const CONCURRENCY = 8
const POLL_MS = 1_000
const MAX_BACKOFF_MS = 6 * 3_600_000
/** The most of a response body read; the rest is cut off. */
export const RESPONSE_CAP = 64 * 1024
export const USER_AGENT = "Board-Webhooks/1"

interface Claimed {
  readonly id: string
  readonly webhook_id: string
  readonly event_type: string
  readonly attempts: number
  readonly payload: string
  readonly url: string
  readonly secret_box: string
}

interface Outcome {
  readonly statusCode: number | null
  readonly error: string | null
}

/** The delay before attempt `attempts + 1`: base · 2^(attempts−1), capped, ±20 %. */
export const backoffMs = (baseMs: number, attempts: number, random: number): number =>
  Math.round(Math.min(baseMs * 2 ** Math.max(attempts - 1, 0), MAX_BACKOFF_MS) * (0.8 + 0.4 * random))

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`)

/**
 * One POST, to an address checked against the URL policy: the name is resolved once, every
 * address checked, and the connection made to the checked one (the Host header and TLS server
 * name stay the URL's), so nothing is sent to a refused address. Redirects are not followed; the
 * body read stops at RESPONSE_CAP.
 */
export const postOnce = async (
  target: { readonly url: string; readonly body: string; readonly headers: Record<string, string> },
  settings: { readonly allowHttp: boolean; readonly allowPrivate: boolean; readonly timeoutMs: number },
  resolver: Resolver
): Promise<Outcome> => {
  const refused = (error: string): Outcome => ({ statusCode: null, error: `refused: ${error.replace(/^url: /, "")}` })
  const shape = urlShapeFailure(target.url, settings)
  if (shape !== undefined) return refused(shape)
  const url = new URL(target.url)
  const pin = await pinHost(url, settings, resolver)
  if (!pin.ok) return pin.refused ? refused(pin.error) : { statusCode: null, error: pin.error }
  const { lookup } = pin
  return new Promise<Outcome>((resolve) => {
    let settled = false
    const finish = (outcome: Outcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      req.destroy()
      resolve(outcome)
    }
    const requestOptions: RequestOptions = {
      method: "POST",
      headers: { ...target.headers, "content-length": String(Buffer.byteLength(target.body)) },
      // a connection of its own: a pooled one could have been opened to another address
      agent: false,
      ...(lookup !== undefined ? { lookup } : {})
    }
    const req = (url.protocol === "https:" ? https : http).request(url, requestOptions, (res) => {
      const status = res.statusCode ?? 0
      const chunks: Array<Buffer> = []
      let size = 0
      const done = () => {
        const ok = status >= 200 && status < 300
        const text = Buffer.concat(chunks).toString("utf8").replace(/\s+/g, " ").trim().slice(0, 200)
        finish({
          statusCode: status,
          error: ok
            ? null
            : status >= 300 && status < 400
              ? `answered ${status} (redirects are not followed)`
              : `answered ${status}${text === "" ? "" : `: ${text}`}`
        })
      }
      res.on("data", (chunk: Buffer) => {
        if (size >= RESPONSE_CAP) return
        chunks.push(chunk)
        size += chunk.length
        if (size >= RESPONSE_CAP) done()
      })
      res.on("end", done)
      res.on("error", (e) => finish({ statusCode: status, error: `the response broke off (${e.message})` }))
    })
    const timer = setTimeout(
      () => finish({ statusCode: null, error: `no complete answer within ${seconds(settings.timeoutMs)}` }),
      settings.timeoutMs
    )
    req.on("error", (e: NodeJS.ErrnoException) =>
      finish({ statusCode: null, error: `could not deliver: ${e.code ?? e.message}` })
    )
    req.end(target.body)
  })
}

export const DeliveriesLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    const keys = yield* ServerSecret
    const resolver = yield* WebhookResolver
    const eventLog = yield* EventLog
    const webhooks = yield* Webhooks
    const settings = {
      allowHttp: config.webhookAllowHttp,
      allowPrivate: config.webhookAllowPrivate,
      timeoutMs: config.webhookTimeoutMs
    }

    // wake-ups: a signal that arrives while a round runs is kept for the next wait
    let signalled = false
    let wake: (() => void) | undefined
    const signal = () => {
      signalled = true
      wake?.()
    }
    const offEvents = eventLog.onCommitted(() => {
      if (anyEnabled) signal()
    })
    const offQueued = webhooks.onQueued(() => {
      anyEnabled = true
      signal()
    })
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        offEvents()
        offQueued()
      })
    )

    const claim = sql.withTransaction(
      Effect.gen(function* () {
        const nowNs = yield* Clock.currentTimeNanos
        const now = timestampOf(nowNs)
        const until = timestampOf(nowNs + BigInt(claimMs(config.webhookTimeoutMs)) * 1_000_000n)
        const rows = yield* sql.unsafe<{
          id: string
          webhook_id: string
          event_n: string | null
          event_type: string
          attempts: number
          payload: string | null
          url: string
          secret_box: string
          owner_role: string | null
        }>(
          `SELECT d.id, d.webhook_id, d.event_n::text AS event_n, d.event_type, d.attempts, d.payload, w.url, w.secret_box,
             m.role AS owner_role
           FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           ${membershipOf("w.workspace_id", "w.created_by")}
           WHERE d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz
             AND (d.locked_until IS NULL OR d.locked_until <= $1::timestamptz) AND w.enabled
           ORDER BY d.next_attempt_at LIMIT $2
           FOR UPDATE OF d SKIP LOCKED`,
          [now, BATCH]
        )
        // the owner left the workspace: their webhook is disabled, nothing is sent to it
        const orphaned = [...new Set(rows.filter((r) => r.owner_role === null).map((r) => r.webhook_id))]
        if (orphaned.length > 0)
          yield* sql.unsafe(
            `UPDATE webhooks SET enabled = false, updated_at = $2::timestamptz,
               disabled_reason = 'disabled because the user who created it (or last enabled it) can no longer see this workspace; a member can PATCH {"enabled": true} to take it over'
             WHERE id = ANY($1::uuid[]) AND enabled`,
            [orphaned, now]
          )
        const owned = rows.filter((r) => r.owner_role !== null)
        if (owned.length === 0) return { claimed: [] as Array<Claimed>, until }
        // first claim of an event's delivery: its payload, from the log, fixed from now on
        const missing = owned.filter((r) => r.payload === null && r.event_n !== null).map((r) => r.event_n!)
        const built = new Map<string, string>()
        if (missing.length > 0) {
          const events = yield* sql.unsafe<Parameters<typeof toEvent>[0]>(
            `SELECT n::text AS n, tx::text AS tx, workspace_id, project_id, type, actor, data, created_at
             FROM events WHERE n = ANY($1::bigint[])`,
            [missing]
          )
          for (const e of events) built.set(String(e.n), JSON.stringify(toEvent(e)))
        }
        const claimed: Array<Claimed> = []
        const gone: Array<string> = []
        for (const r of owned) {
          const payload = r.payload ?? (r.event_n === null ? undefined : built.get(r.event_n))
          if (payload === undefined) gone.push(r.id)
          else claimed.push({ ...r, payload })
        }
        if (claimed.length > 0)
          yield* sql.unsafe(
            `UPDATE webhook_deliveries d SET locked_until = $1::timestamptz, payload = COALESCE(d.payload, v.payload)
             FROM unnest($2::uuid[], $3::text[]) AS v(id, payload) WHERE d.id = v.id`,
            [until, claimed.map((c) => c.id), claimed.map((c) => c.payload)]
          )
        if (gone.length > 0)
          yield* sql.unsafe(
            `UPDATE webhook_deliveries SET status = 'failed', updated_at = $2::timestamptz,
               last_error = 'the event left the log (EVENT_RETENTION) before it could be delivered'
             WHERE id = ANY($1::uuid[])`,
            [gone, now]
          )
        return { claimed, until }
      })
    )

    const attempt = (d: Claimed, until: string) =>
      Effect.gen(function* () {
        const startMs = yield* Clock.currentTimeMillis
        const secret = openSecret(keys.webhooks, d.webhook_id, d.secret_box)
        const outcome: Outcome =
          secret === undefined
            ? {
                statusCode: null,
                error:
                  "the signing secret cannot be read (the server SECRET changed?); delete and re-create the webhook"
              }
            : yield* Effect.tryPromise(() =>
                postOnce(
                  {
                    url: d.url,
                    body: d.payload,
                    headers: {
                      "content-type": "application/json",
                      "user-agent": USER_AGENT,
                      "board-event": d.event_type,
                      "board-delivery": d.id,
                      "board-signature": signatureHeader(secret, Math.floor(startMs / 1000), d.payload)
                    }
                  },
                  settings,
                  resolver
                )
              ).pipe(
                // a request that cannot even be made is this attempt's failure, not the round's
                Effect.catch((e) =>
                  Effect.succeed<Outcome>({
                    statusCode: null,
                    error: `could not deliver: ${e.cause instanceof Error ? e.cause.message : String(e.cause)}`
                  })
                )
              )
        const nowMs = yield* Clock.currentTimeMillis
        const now = timestampOf(BigInt(nowMs) * 1_000_000n)
        if (outcome.error === null) {
          yield* sql`
            UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1,
              last_status_code = ${outcome.statusCode}, last_error = NULL, failing_since = NULL,
              locked_until = NULL, updated_at = ${now}::timestamptz
            WHERE id = ${d.id} AND locked_until = ${until}::timestamptz`
          return
        }
        const attempts = Number(d.attempts) + 1
        const next = timestampOf(
          BigInt(nowMs + backoffMs(config.webhookRetryBaseMs, attempts, Math.random())) * 1_000_000n
        )
        const [failed] = yield* sql<{ failing_since: Date | string }>`
          UPDATE webhook_deliveries SET attempts = attempts + 1,
            last_status_code = ${outcome.statusCode}, last_error = ${outcome.error.slice(0, 1000)},
            failing_since = COALESCE(failing_since, ${now}::timestamptz), next_attempt_at = ${next}::timestamptz,
            locked_until = NULL, updated_at = ${now}::timestamptz
          WHERE id = ${d.id} AND locked_until = ${until}::timestamptz AND status = 'pending'
          RETURNING failing_since`
        if (failed === undefined) return // the claim ran out and another instance took it over
        const failingMs = nowMs - new Date(failed.failing_since).getTime()
        if (failingMs >= config.webhookDisableAfterMs) {
          const reason = `disabled after ${seconds(failingMs)} of failed deliveries (the last: ${outcome.error.slice(0, 300)}); fix the endpoint, then PATCH {"enabled": true} and retry the failed deliveries`
          yield* sql`
            WITH w AS (
              UPDATE webhooks SET enabled = false, disabled_reason = ${reason}, updated_at = ${now}::timestamptz
              WHERE id = ${d.webhook_id} AND enabled RETURNING id
            )
            UPDATE webhook_deliveries SET status = 'failed', updated_at = ${now}::timestamptz
            WHERE webhook_id IN (SELECT id FROM w) AND status = 'pending'`
        }
      })

    // Whether any webhook is enabled, as of the last round: while none is, this process's own
    // writes do not wake the worker (a write-heavy server without webhooks pays nothing but the
    // poll), and the poll reads only this.
    let anyEnabled = true

    /** The wait until the next delivery falls due (a claimed one: until its lease ends), at most a second. */
    const nextDueMs = Effect.gen(function* () {
      const [row] = yield* sql<{ next: Date | string | null; any: boolean }>`
        SELECT (
          SELECT min(GREATEST(d.next_attempt_at, COALESCE(d.locked_until, d.next_attempt_at)))
          FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
          WHERE d.status = 'pending' AND w.enabled
        ) AS next, EXISTS (SELECT 1 FROM webhooks WHERE enabled) AS any`
      anyEnabled = row?.any === true
      if (row?.next === null || row?.next === undefined) return POLL_MS
      const nowMs = yield* Clock.currentTimeMillis
      return Math.max(0, Math.min(POLL_MS, new Date(row.next).getTime() - nowMs))
    })

    const round = Effect.gen(function* () {
      signalled = false
      if (anyEnabled) {
        const { claimed, until } = yield* claim
        yield* Effect.forEach(claimed, (d) => attempt(d, until), { concurrency: CONCURRENCY, discard: true })
        if (claimed.length === BATCH) return 0
      }
      return yield* nextDueMs
    }).pipe(
      Effect.catchCause((cause) =>
        Effect.as(Effect.logWarning("webhooks: a delivery round failed; it runs again in a second", cause), POLL_MS)
      )
    )

    const waitUpTo = (ms: number) =>
      signalled || ms <= 0
        ? Effect.void
        : Effect.raceFirst(
            Effect.sleep(ms),
            Effect.callback<void>((resume) => {
              wake = () => resume(Effect.void)
              return Effect.sync(() => {
                wake = undefined
              })
            })
          )

    yield* Effect.gen(function* () {
      for (;;) yield* waitUpTo(yield* round)
    }).pipe(Effect.forkScoped)
  })
)
