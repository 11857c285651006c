/**
 * The event log (issue 18): every change writes its event in its own transaction (a
 * transactional outbox; migrations/0010_events.sql says how events are ordered), and history,
 * the live streams and the webhooks read it.
 *
 * Two ways in, one table and one actor rule:
 * - `record` inserts events on the fiber's SQL client, so inside `sql.withTransaction` they commit
 *   or roll back with the change;
 * - the one-statement card writes (cardStatements.ts) insert their event in the same statement,
 *   through `eventInsertSql`, so the hottest writes stay one round trip.
 *
 * Telling readers: once a change commits, `committed` tells this process's feeds at once and, on
 * PostgreSQL, every instance through one NOTIFY on `board_events` per batch (payload: the
 * projects' ids, comma-separated), sent in a statement of its own. A NOTIFY inside the writing
 * transaction would take PostgreSQL's global notification lock at its commit and serialise all
 * writes' commits. Feeds also poll, for writers that never notify (a crash between the commit
 * and the NOTIFY, a change made in SQL by hand).
 */
import { Cause, Context, Effect, Layer, Queue } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { AppConfig } from "../Config.ts"
import type { Actor, BoardEvent, EventPage, EventType } from "../domain/event.ts"
import { type ForgeProvider, forgeProviders } from "../domain/forge.ts"
import type { ProjectId, WorkspaceId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { iso } from "../board/rows.ts"
import { sqlNow, timestampOf } from "../infra/clock.ts"
import { XID_OFFSET } from "./eventClock.ts"
import { Clock } from "effect"

/** What a change says about itself; the log adds the id, the time and the actor. */
export interface EventInput {
  readonly type: EventType
  readonly workspaceId: string
  readonly projectId: string
  /** The card the event belongs to (the card itself, or its label, subtask or link), for its history. */
  readonly cardId?: string | null | undefined
  /** The resource in its REST shape after the change; for a delete, its last state. */
  readonly object: unknown
  /** For updates and moves: the changed fields' old values. */
  readonly previous?: Record<string, unknown> | undefined
}

/** Who acts: a principal, the service itself (a lease sweep, a migration), or a forge's delivery (issue 31). */
export type EventActor = Principal | "system" | { readonly forge: ForgeProvider }

/** The three values `actorSql` reads: the credential's kind, the user, the credential's id. */
export const actorParams = (actor: EventActor): [string, string | null, string | null] =>
  actor === "system"
    ? ["system", null, null]
    : "forge" in actor
      ? [`forge:${actor.forge}`, null, null]
      : [actor.via, actor.userId, actor.credentialId ?? null]

// a forge acts as the service, named after its provider: `{type: "system", name: "github"}`
const forgeActors = forgeProviders
  .map((p) => `WHEN 'forge:${p}' THEN json_build_object('type', 'system', 'name', '${p}')`)
  .join("\n    ")

/**
 * The actor's JSON, named at the time of the change: an OAuth grant is an agent named after its
 * registered client, acting for (`onBehalfOf`) the person who granted it; an account of kind
 * `agent` (an agent member's key, migrations/0022) is an agent named after itself, acting for its
 * creator; an intake token is intake named after the token (never its secret); anything else is
 * the person. `kind`, `user` and `credential` are SQL expressions (parameters). The one place an
 * actor is built.
 */
export const actorSql = (kind: string, user: string, credential: string): string => `json_strip_nulls(CASE ${kind}
    WHEN 'oauth' THEN json_build_object('type', 'agent', 'userId', ${user}::uuid, 'name',
      (SELECT oc.client_name FROM oauth_grants og JOIN oauth_clients oc ON oc.id = og.client_id WHERE og.id = ${credential}::uuid),
      'onBehalfOf', ${user}::uuid)
    WHEN 'intake' THEN json_build_object('type', 'intake', 'name', (SELECT it.name FROM intake_tokens it WHERE it.id = ${credential}::uuid))
    WHEN 'system' THEN json_build_object('type', 'system')
    ${forgeActors}
    ELSE COALESCE((SELECT CASE WHEN u.kind = 'agent'
        THEN json_build_object('type', 'agent', 'userId', u.id, 'name', u.full_name, 'onBehalfOf',
          (SELECT a.created_by FROM agents a WHERE a.user_id = u.id))
        ELSE json_build_object('type', 'user', 'userId', u.id, 'name', u.full_name) END
      FROM users u WHERE u.id = ${user}::uuid), json_build_object('type', 'user', 'userId', ${user}::uuid))
  END)`

/**
 * A data-modifying CTE that logs one event per row of `from`, for the one-statement writes.
 * Every argument is an SQL expression over `from`'s rows (or a parameter); `data` must be the
 * JSON text of `{object, previous?}`.
 */
export const eventInsertSql = (e: {
  readonly name: string
  readonly from: string
  readonly type: string
  readonly workspace: string
  readonly project: string
  readonly card: string
  readonly data: string
  readonly actor: string
  readonly at: string
}): string => `${e.name} AS (
    INSERT INTO events (workspace_id, project_id, card_id, type, actor, data, created_at)
    SELECT ${e.workspace}, ${e.project}, ${e.card}, ${e.type}, ${e.actor}, (${e.data})::json, ${e.at}::timestamptz
    FROM ${e.from}
    RETURNING 1
  )`

// An event's id: its transaction and its number, each as 12 hex digits (2^48 of each: centuries
// at tens of thousands a second), so the text sorts as the log does.
const HEX_DIGITS = 12

export const encodeEventId = (tx: string | bigint, n: string | bigint): string =>
  BigInt(tx).toString(16).padStart(HEX_DIGITS, "0") + BigInt(n).toString(16).padStart(HEX_DIGITS, "0")

/** The cursor of an id (checked by the contract's schema: 24 hex digits). */
export const decodeEventId = (id: string): { readonly tx: string; readonly n: string } => ({
  tx: BigInt(`0x${id.slice(0, HEX_DIGITS)}`).toString(),
  n: BigInt(`0x${id.slice(HEX_DIGITS)}`).toString()
})

const START = { tx: "0", n: "0" }

interface EventRow {
  readonly n: string
  readonly tx: string
  readonly workspace_id: string
  readonly project_id: string
  readonly type: EventType
  readonly actor: unknown
  readonly data: unknown
  readonly created_at: Date | string
}

const parseJson = (v: unknown): unknown => (typeof v === "string" ? JSON.parse(v) : v)

export const toEvent = (r: EventRow): BoardEvent => ({
  id: encodeEventId(r.tx, r.n),
  type: r.type,
  createdAt: iso(r.created_at),
  workspaceId: r.workspace_id as WorkspaceId,
  projectId: r.project_id as ProjectId,
  actor: parseJson(r.actor) as Actor,
  data: parseJson(r.data) as BoardEvent["data"]
})

// n and tx as text (a bigint may not fit a JS number); ORDER BY must then name the
// table's columns (events.tx), as a bare `tx` would sort these text aliases ("1000" < "999")
const EVENT_COLUMNS = "n::text AS n, tx::text AS tx, workspace_id, project_id, type, actor, data, created_at"

/**
 * The transaction id below which every event is final (migrations/0010_events.sql says why):
 * the oldest transaction still running in the statement's snapshot, or the snapshot's end when
 * none runs. Transaction ids are the whole PostgreSQL server's, so a long transaction of another
 * database on the same server would hold every stream back; a running transaction that
 * pg_stat_activity places in another database is left out. Anything not known to be elsewhere
 * (a session whose details are hidden from this role, one that began after the snapshot's
 * list) counts, so the answer errs only towards waiting. (xip lists 64-bit ids; the activity
 * view's are their low 32 bits.) Ids on the event clock: plus its offset (XID_OFFSET).
 */
export const FINAL_BELOW = `((SELECT COALESCE(min(r.x), pg_snapshot_xmax(pg_current_snapshot())::text::bigint)
    FROM (SELECT xip::text::bigint AS x FROM pg_snapshot_xip(pg_current_snapshot()) AS xip) r
    WHERE r.x % 4294967296 NOT IN (
      SELECT a.backend_xid::text::bigint FROM pg_stat_activity a
      WHERE a.backend_xid IS NOT NULL AND a.datname IS DISTINCT FROM current_database()))
    + ${XID_OFFSET})`

/** The final events of one project (or one card) after a cursor, oldest first. */
const pageSql = (scope: "project" | "card") => `
  SELECT ${EVENT_COLUMNS} FROM events
  WHERE ${scope === "project" ? "project_id" : "card_id"} = $1::uuid
    AND (tx, n) > ($2::bigint, $3::bigint)
    AND tx < ${FINAL_BELOW}
    AND ($4::text[] IS NULL OR type = ANY($4::text[]))
  ORDER BY events.tx, events.n LIMIT $5`

export interface PageQuery {
  readonly after?: string | undefined
  readonly limit: number
  readonly types?: ReadonlyArray<string> | undefined
}

/** The channel instances LISTEN on; each payload is project ids, comma-separated. */
export const EVENTS_CHANNEL = "board_events"
/** How long commits gather before this instance tells the others, in one NOTIFY. */
export const NOTIFY_WINDOW_MS = 10
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more: about 200 project ids per NOTIFY. */
const IDS_PER_NOTIFY = 200

/**
 * The projects whose events the current `withEvents` transaction recorded, told once it commits;
 * outside one, `record` is its own statement and tells at once.
 */
const PendingSignals = Context.Reference<Set<string> | undefined>("board/core/EventLog/PendingSignals", {
  defaultValue: () => undefined
})

/** Events deleted per statement of the retention sweep, so no statement holds the database long. */
const SWEEP_BATCH = 5_000

export class EventLog extends Context.Service<
  EventLog,
  {
    /**
     * Logs events on the caller's SQL client: inside a transaction, they commit with it. Run the
     * change and its `record` inside `withEvents`, so readers are told after the commit.
     */
    readonly record: (actor: EventActor, events: EventInput | ReadonlyArray<EventInput>) => Effect.Effect<void>
    /** `sql.withTransaction`, then tells readers of the projects whose events it recorded. */
    readonly withEvents: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError.SqlError, R>
    /** `withEvents` for changes that map no database error: a failed statement is a defect. */
    readonly changing: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
    /** Says this process committed events of a project (call after the commit). */
    readonly committed: (projectId: string) => void
    /** Registers a listener for `committed`; returns its removal. */
    readonly onCommitted: (listener: (projectId: string) => void) => () => void
    /** A page of a project's (or a card's) final events after a cursor. No access check: callers check. */
    readonly page: (scope: "project" | "card", id: string, query: PageQuery) => Effect.Effect<EventPage>
    /** The id of a project's newest final event (undefined for none): where a live tail starts. */
    readonly head: (projectId: string) => Effect.Effect<string | undefined>
    /** One pass of the retention sweep: deletes the events older than EVENT_RETENTION (Jobs.ts runs it). */
    readonly sweep: Effect.Effect<void>
  }
>()("board/core/EventLog") {
  static readonly layer = Layer.effect(
    EventLog,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const config = yield* AppConfig
      const listeners = new Set<(projectId: string) => void>()

      const record = (actor: EventActor, input: EventInput | ReadonlyArray<EventInput>) => {
        const events = Array.isArray(input) ? (input as ReadonlyArray<EventInput>) : [input as EventInput]
        if (events.length === 0) return Effect.void
        return Effect.gen(function* () {
          const now = yield* sqlNow
          const [kind, user, credential] = actorParams(actor)
          yield* sql
            .unsafe(
              `INSERT INTO events (workspace_id, project_id, card_id, type, actor, data, created_at)
               SELECT e.w, e.p, NULLIF(e.c, '')::uuid, e.t, ${actorSql("$1::text", "$2", "$3")}, e.d::json, $4::timestamptz
               FROM unnest($5::uuid[], $6::uuid[], $7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS e(w, p, c, t, d, i)
               ORDER BY e.i`,
              [
                kind,
                user,
                credential,
                now,
                events.map((e) => e.workspaceId),
                events.map((e) => e.projectId),
                // '' for no card: the driver cannot type an array holding only nulls
                events.map((e) => e.cardId ?? ""),
                events.map((e) => e.type),
                events.map((e) =>
                  JSON.stringify(
                    e.previous === undefined ? { object: e.object } : { object: e.object, previous: e.previous }
                  )
                )
              ]
            )
            .pipe(Effect.orDie)
          const pending = yield* PendingSignals
          for (const e of events) {
            if (pending === undefined) committed(e.projectId)
            else pending.add(e.projectId)
          }
        })
      }

      const withEvents = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.suspend(() => {
          const pending = new Set<string>()
          return sql.withTransaction(effect.pipe(Effect.provideService(PendingSignals, pending))).pipe(
            Effect.tap(() =>
              Effect.sync(() => {
                for (const projectId of pending) committed(projectId)
              })
            )
          )
        })

      // Other instances hear of commits through NOTIFY, at most one per NOTIFY_WINDOW_MS naming
      // the projects of that window: one per write would double the statements of every write
      // (measured: the server's CPU per create doubled). The embedded database has one process,
      // which the listeners above cover.
      const toNotify = new Set<string>()
      const notifyDue = yield* Queue.sliding<void>(1)
      if (config.databaseUrl !== undefined) {
        yield* Effect.gen(function* () {
          yield* Queue.take(notifyDue)
          yield* Effect.sleep(NOTIFY_WINDOW_MS)
          const projects = [...toNotify]
          toNotify.clear()
          for (let i = 0; i < projects.length; i += IDS_PER_NOTIFY) {
            const payload = projects.slice(i, i + IDS_PER_NOTIFY).join(",")
            yield* sql`SELECT pg_notify(${EVENTS_CHANNEL}, ${payload})`
          }
        }).pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.interrupt
              : Effect.logWarning("events: a NOTIFY failed; other instances see those events at their next poll", cause)
          ),
          Effect.forever,
          Effect.forkScoped
        )
      }

      const committed = (projectId: string) => {
        for (const listener of listeners) listener(projectId)
        if (config.databaseUrl === undefined) return
        toNotify.add(projectId)
        Queue.offerUnsafe(notifyDue, undefined)
      }

      const page = (scope: "project" | "card", id: string, query: PageQuery) =>
        Effect.gen(function* () {
          const from = query.after === undefined ? START : decodeEventId(query.after)
          const rows = yield* sql
            .unsafe<EventRow>(pageSql(scope), [
              id,
              from.tx,
              from.n,
              query.types === undefined || query.types.length === 0 ? null : query.types,
              query.limit + 1
            ])
            .pipe(Effect.orDie)
          const events = rows.slice(0, query.limit).map(toEvent)
          return {
            events,
            next: rows.length > query.limit ? events[events.length - 1]!.id : null
          } satisfies EventPage as EventPage
        })

      const head = (projectId: string) =>
        sql
          .unsafe<{ tx: string; n: string }>(
            `SELECT tx::text AS tx, n::text AS n FROM events
             WHERE project_id = $1::uuid AND tx < ${FINAL_BELOW}
             ORDER BY events.tx DESC, events.n DESC LIMIT 1`,
            [projectId]
          )
          .pipe(
            Effect.orDie,
            Effect.map((rows) => (rows[0] === undefined ? undefined : encodeEventId(rows[0].tx, rows[0].n)))
          )

      // retention: events older than EVENT_RETENTION go, in batches (Jobs.ts: hourly, and soon after start)
      const sweep = Effect.gen(function* () {
        const cutoff = timestampOf(
          BigInt(yield* Clock.currentTimeMillis) * 1_000_000n - BigInt(config.eventRetentionMs) * 1_000_000n
        )
        for (;;) {
          const deleted = yield* sql<{ n: string }>`
            DELETE FROM events WHERE n IN (
              SELECT n FROM events WHERE created_at < ${cutoff}::timestamptz LIMIT ${SWEEP_BATCH}
            ) RETURNING n`
          if (deleted.length < SWEEP_BATCH) return
        }
      }).pipe(Effect.orDie)

      return EventLog.of({
        record,
        withEvents,
        changing: (effect) => withEvents(effect).pipe(Effect.catchTag("SqlError", (e) => Effect.die(e))),
        committed,
        onCommitted: (listener) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
        page,
        head,
        sweep
      })
    })
  )
}
