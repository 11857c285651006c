/**
 * Cards: create, read, edit, move, delete. A create, an intake filing, a move and a delete are
 * each one statement: the access check folded into the write, the answer built from
 * `RETURNING`, no lock on a shared row held across the commit (orderKeys.ts says how order
 * stays total without one; refs come from the project's sequence). When the statement finds
 * nothing to write, a second look (the access rule, then the column) names the reason.
 *
 * Over 400 lines: one service, the card writes, each beside its second look; the statements
 * already live in cardStatements.ts and cardReads.ts, the shapes in cardView.ts.
 */
import { Clock, Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Card } from "../domain/card.ts"
import { Conflict, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { ForgeProvider, MoveCause } from "../domain/forge.ts"
import type { CardId, ColumnId } from "../domain/ids.ts"
import type { CardCreate, CardMove, CardPatch } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { ReadSql } from "../infra/Database.ts"
import { findAll } from "../infra/statement.ts"
import { Access, checkGrant, reachOf, type Resolved, scopesFor, type WriteError, type WriteNeeds } from "./Access.ts"
import { checkMembers, nonMembers, notMembers, replaceAssignees } from "./assignees.ts"
import { CardRow, type CardView } from "./cardView.ts"
import { GetRow, getSql, loadSql } from "./cardReads.ts"
import { iso } from "./rows.ts"
import {
  createSql,
  createWithExtrasSql,
  DeletedRow,
  deleteSql,
  fileOnceSql,
  fileSql,
  moveSql,
  systemMoveSql,
  WrittenRow
} from "./cardStatements.ts"
import { actorParams, EventLog } from "../events/EventLog.ts"
import { startOrderCountCompaction } from "./orderCounts.ts"
import {
  rebalance,
  REBALANCE_BUCKET_SIZE,
  REBALANCE_COOLDOWN_MS,
  REBALANCE_SCALE,
  retryRaces,
  StaleOrder
} from "./orderKeys.ts"

/**
 * A card's fields as every caller decoded them (`domain/inputs.ts`): `CardCreate`, `CardPatch`
 * (`null` clears the description or the due date; `assigneeIds` replaces the set, members of
 * the card's workspace, `card.assigned` when it changes) and `CardMove`.
 */
export type CardInput = CardCreate

/** An intake filing: no member's access check; with `idempotencyKey`, at most one card per key. */
export interface Filing {
  readonly columnId: ColumnId
  readonly title: string
  readonly description?: string | undefined
  readonly source: string
  readonly intakeTokenId: string
  readonly createdBy: string | null
  readonly idempotencyKey?: string | undefined
}

type AccessError = WriteError

/** The card fields a PATCH sets, by their column, as the REST card names and shows them (card.updated's `previous`). */
const fieldOfColumn = (column: string): "title" | "description" | "priority" | "dueAt" =>
  column === "due_at" ? "dueAt" : (column as "title" | "description" | "priority")
const toCardFields = (old: Record<string, unknown>): Record<string, unknown> => ({
  title: old.title,
  description: old.description,
  priority: old.priority,
  dueAt: old.due_at === null || old.due_at === undefined ? null : iso(old.due_at as Date | string)
})

/** Who acts, as the one-statement writes take it: the user, their grants, the credential's kind and id. */
const actorOf = (principal: Principal, needs: WriteNeeds) => {
  const [kind, , credential] = actorParams(principal)
  return { user: principal.userId, grants: reachOf(principal, scopesFor(needs)), kind, credential }
}

/** The Card schema's decoder, for `get`: the text `getJson` reads is that schema's JSON. */
const decodeCard = Schema.decodeUnknownEffect(Card)

/** How the card writes name themselves to the access rule (their scopes follow: `scopesFor`). */
const CHANGE: WriteNeeds = { action: "change cards" }
const DELETE: WriteNeeds = { action: "delete cards", deletes: true }

/** A written card: the statement wrote it, so its row carries it. */
type Written = WrittenRow & { readonly card: CardView }

export class Cards extends Context.Service<
  Cards,
  {
    readonly create: (principal: Principal, input: CardCreate) => Effect.Effect<CardView, InvalidInput | AccessError>
    readonly get: (principal: Principal, id: CardId) => Effect.Effect<CardView, NotFound | WorkspaceNotGranted>
    /** `get`'s card as its JSON text, the REST body itself: for a caller that sends it on unread. */
    readonly getJson: (principal: Principal, id: CardId) => Effect.Effect<string, NotFound | WorkspaceNotGranted>
    readonly update: (
      principal: Principal,
      id: CardId,
      patch: CardPatch
    ) => Effect.Effect<CardView, InvalidInput | AccessError>
    readonly remove: (principal: Principal, id: CardId) => Effect.Effect<void, AccessError>
    readonly move: (
      principal: Principal,
      id: CardId,
      to: CardMove
    ) => Effect.Effect<CardView, InvalidInput | Conflict | AccessError>
    /**
     * Files a card at the end of a column without a member's access check (intake tokens), and
     * says whether it did or its idempotency key had already filed one (the channel is blind:
     * nothing about the card is answered).
     */
    readonly file: (input: Filing) => Effect.Effect<"filed" | "replayed", NotFound>
    /**
     * Moves a card to the end of a column as the service, for a forge (issue 31): an ordinary
     * move (one `card.moved`, actor `{type: "system", name: forge}`), no member's access check,
     * only while the card sits in a column of `fromKinds`. Undefined when it moved nothing.
     */
    readonly moveAsForge: (
      id: string,
      columnId: string,
      forge: ForgeProvider,
      fromKinds: ReadonlyArray<string>,
      cause: MoveCause
    ) => Effect.Effect<CardView | undefined>
    /** Reads cards by id, in the given order, with labels and subtasks. */
    readonly load: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<CardView>>
  }
>()("board/core/Cards") {
  static readonly layer = Layer.effect(
    Cards,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const reads = yield* ReadSql
      const access = yield* Access
      const events = yield* EventLog
      // one rebalance per column at a time from this process; another instance's overlaps safely
      const rebalancing = new Set<string>()
      // when a full bucket last rebalanced each column (an entry is dropped once its minute is over)
      const crowded = new Map<string, number>()
      const counts = yield* startOrderCountCompaction(sql)
      const loadCards = findAll(sql, loadSql, CardRow)
      const getCard = findAll(reads, getSql, GetRow)
      const writes = {
        create: findAll(sql, createSql, WrittenRow),
        createWithExtras: findAll(sql, createWithExtrasSql, WrittenRow),
        file: findAll(sql, fileSql, WrittenRow),
        fileOnce: findAll(sql, fileOnceSql, WrittenRow),
        move: findAll(sql, moveSql, WrittenRow),
        systemMove: findAll(sql, systemMoveSql, WrittenRow),
        remove: findAll(sql, deleteSql, DeletedRow)
      }

      const load = (ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed([])
          : Effect.flatMap(sqlNow, (now) => loadCards({ ids, now })).pipe(
              Effect.orDie,
              Effect.map((rows) => {
                const byId = new Map(rows.map((r) => [r.card.id as string, r.card]))
                return ids.flatMap((id) => byId.get(id) ?? [])
              })
            )

      const loadOne = (id: string) =>
        Effect.flatMap(load([id]), (cards) =>
          cards[0] !== undefined
            ? Effect.succeed(cards[0])
            : Effect.fail(new NotFound({ message: `card ${id} not found` }))
        )

      /**
       * Runs a one-statement write. `undefined`: the statement found nothing to write (the
       * caller names why); a stale snapshot or a lost race runs it again.
       */
      const write = <E>(statement: Effect.Effect<ReadonlyArray<WrittenRow>, E>) =>
        statement.pipe(
          Effect.flatMap(([row]) =>
            row === undefined || row.found === 0
              ? Effect.succeed(undefined)
              : row.card === null
                ? Effect.fail(new StaleOrder())
                : Effect.succeed({ ...row, card: row.card })
          ),
          retryRaces,
          Effect.orDie,
          Effect.tap((row) => (row === undefined ? Effect.void : written(row)))
        )

      // a write leaves count rows to fold, and a key long enough to rebalance its column
      const written = (row: Written) => {
        const { columnId, projectId } = row.card
        events.committed(projectId)
        counts.touched(columnId)
        if (row.old_column_id !== null) counts.touched(row.old_column_id)
        if (Number(row.key_scale) > REBALANCE_SCALE) return startRebalance(columnId)
        if ((row.bucket_size ?? 0) <= REBALANCE_BUCKET_SIZE) return Effect.void
        // a full bucket stays correct, only slower to count: rewrite a column at most once a minute
        return Effect.flatMap(Clock.currentTimeMillis, (now) => {
          if (now - (crowded.get(columnId) ?? 0) < REBALANCE_COOLDOWN_MS) return Effect.void
          for (const [column, at] of crowded) if (now - at >= REBALANCE_COOLDOWN_MS) crowded.delete(column)
          crowded.set(columnId, now)
          return startRebalance(columnId)
        })
      }

      const startRebalance = (columnId: string) =>
        rebalancing.has(columnId)
          ? Effect.void
          : Effect.forkDetach(
              Effect.suspend(() => {
                rebalancing.add(columnId)
                return rebalance(sql, columnId).pipe(
                  Effect.ensuring(
                    Effect.sync(() => {
                      rebalancing.delete(columnId)
                      counts.touched(columnId)
                    })
                  )
                )
              }),
              { startImmediately: true }
            ).pipe(Effect.asVoid)

      /** The column must be visible (else 404) and belong to the project (else 400). */
      const columnOfProject = (principal: Principal, columnId: string, projectId: string) =>
        Effect.gen(function* () {
          const column = yield* access.write(principal, "column", columnId, { action: "change cards" })
          if (column.projectId !== projectId) {
            return yield* new InvalidInput({ message: `columnId: column ${columnId} belongs to another project` })
          }
        })

      const create = Effect.fn("Cards.create")(function* (principal: Principal, input: CardCreate) {
        const now = yield* sqlNow
        // a due date or assignees take the statement's longer form; a plain create keeps the lean one
        const assignees = input.assigneeIds === undefined ? [] : [...new Set(input.assigneeIds)]
        const extras = assignees.length > 0 || input.dueAt != null
        for (let attempt = 0; ; attempt++) {
          const values = {
            column: input.columnId,
            title: input.title,
            description: input.description ?? null,
            priority: input.priority ?? "medium",
            source: "api",
            intakeToken: null,
            createdBy: principal.userId,
            now,
            project: input.projectId,
            ...actorOf(principal, CHANGE)
          }
          const row = yield* write(
            extras
              ? writes.createWithExtras({ ...values, dueAt: input.dueAt ?? null, assignees })
              : writes.create(values)
          )
          if (row !== undefined) return row.card
          // nothing written: say why, in the order a person would look
          const project = yield* access.write(principal, "project", input.projectId, { action: "change cards" })
          yield* columnOfProject(principal, input.columnId, input.projectId)
          const missing = yield* nonMembers(sql, project.workspaceId, assignees)
          if (missing.length > 0) return yield* notMembers(missing)
          // both are fine now: the column appeared or was granted meanwhile; look once more
          if (attempt >= 2) return yield* new NotFound({ message: `column ${input.columnId} not found` })
        }
      })

      const file = Effect.fn("Cards.file")(function* (input: Filing) {
        const key = input.idempotencyKey
        const now = yield* sqlNow
        const values = {
          column: input.columnId,
          title: input.title,
          description: input.description ?? null,
          priority: "medium" as const,
          source: input.source,
          intakeToken: input.intakeTokenId,
          createdBy: input.createdBy,
          now
        }
        for (;;) {
          const [row] = yield* (
            key === undefined ? writes.file(values) : writes.fileOnce({ ...values, idempotencyKey: key })
          ).pipe(
            Effect.flatMap((rows) =>
              rows[0]?.found === 1 && rows[0].card === null && key === undefined
                ? Effect.fail(new StaleOrder())
                : Effect.succeed(rows)
            ),
            retryRaces,
            Effect.orDie
          )
          if (row === undefined || row.found === 0)
            return yield* new NotFound({ message: `column ${input.columnId} not found` })
          if (row.card !== null) {
            yield* written({ ...row, card: row.card })
            return "filed" as const
          }
          // with a key, "nothing written" in a column that exists is a replay, or (rarely) a stale
          // snapshot, which wrote no claim either: then the filing runs again
          const [replayed] = yield* sql<{ n: number }>`
            SELECT 1 AS n FROM intake_claims WHERE token_id = ${input.intakeTokenId} AND idempotency_key = ${key}`.pipe(
            Effect.orDie
          )
          if (replayed !== undefined) return "replayed" as const
        }
      })

      // the hottest read: access and the card in one statement (one round trip, not two)
      const getJson = Effect.fn("Cards.getJson")(function* (principal: Principal, id: CardId) {
        const what = `card ${id}`
        const now = yield* sqlNow
        const [row] = yield* getCard({ id, user: principal.userId, now }).pipe(Effect.orDie)
        // no card, or not the caller's: the same 404
        if (row === undefined || row.role === null) return yield* new NotFound({ message: `${what} not found` })
        yield* checkGrant(principal, row.workspace_id, row.role, what, row.project_id)
        return row.card
      })

      // the JSON the database wrote is the Card schema's own (cardView.ts); one it refuses is a defect
      const get = Effect.fn("Cards.get")(function* (principal: Principal, id: CardId) {
        return yield* decodeCard(JSON.parse(yield* getJson(principal, id))).pipe(Effect.orDie)
      })

      const update = Effect.fn("Cards.update")(function* (principal: Principal, id: CardId, patch: CardPatch) {
        const card = yield* access.write(principal, "card", id)
        // assignees are checked before anything is written, so a refused PATCH changes nothing
        if (patch.assigneeIds !== undefined) yield* checkMembers(sql, card.workspaceId, patch.assigneeIds)
        const set: Record<string, unknown> = {}
        if (patch.title !== undefined) set.title = patch.title
        if (patch.description !== undefined) set.description = patch.description
        if (patch.priority !== undefined) set.priority = patch.priority
        if (patch.dueAt !== undefined) set.due_at = patch.dueAt
        // an empty patch changes nothing: no write, no event
        if (Object.keys(set).length === 0 && patch.assigneeIds === undefined) return yield* loadOne(id)
        const now = yield* sqlNow
        // the fields, the assignees and their events commit together; the self-join reads the
        // old values in the same statement as the write (they are card.updated's `previous`)
        return yield* events
          .withEvents(
            Effect.gen(function* () {
              if (Object.keys(set).length > 0) {
                const [old] = yield* sql<Record<string, unknown>>`
                UPDATE cards c SET ${sql.update(set)}, updated_at = ${now}::timestamptz FROM cards old
                WHERE c.id = ${id} AND old.id = c.id
                RETURNING old.title, old.description, old.priority, old.due_at`
                if (old === undefined) return yield* new NotFound({ message: `card ${id} not found` })
                const after = yield* loadOne(id)
                const before = toCardFields(old)
                const previous: Record<string, unknown> = {}
                for (const field of Object.keys(set).map(fieldOfColumn))
                  if (before[field] !== after[field]) previous[field] = before[field]
                yield* events.record(principal, {
                  type: "card.updated",
                  workspaceId: card.workspaceId,
                  projectId: after.projectId,
                  cardId: id,
                  object: after,
                  previous
                })
              }
              if (patch.assigneeIds !== undefined) yield* assign(principal, card, id, patch.assigneeIds)
              return yield* loadOne(id)
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
      })

      /** Replaces the card's assignees and logs `card.assigned` (object: the card after) when the set changed. */
      /** Replaces a card's assignees and logs card.assigned when the set changed (inside the PATCH's transaction). */
      const assign = (principal: Principal, card: Resolved, id: string, ids: ReadonlyArray<string>) =>
        Effect.gen(function* () {
          const before = yield* replaceAssignees(sql, id, [...new Set(ids)], yield* sqlNow)
          if (before === undefined) return
          yield* events.record(principal, {
            type: "card.assigned",
            workspaceId: card.workspaceId,
            projectId: card.projectId!,
            cardId: id,
            object: yield* loadOne(id),
            previous: { assigneeIds: before }
          })
        })

      // nothing else moves: the cards after it keep their keys, and their ordinals follow
      const remove = Effect.fn("Cards.remove")(function* (principal: Principal, id: CardId) {
        const now = yield* sqlNow
        const deleted = yield* writes.remove({ card: id, now, ...actorOf(principal, DELETE) }).pipe(Effect.orDie)
        if (deleted[0] !== undefined) {
          events.committed(deleted[0].project_id)
          return counts.touched(deleted[0].column_id)
        }
        yield* access.write(principal, "card", id, DELETE)
        return yield* new NotFound({ message: `card ${id} not found` })
      })

      const move = Effect.fn("Cards.move")(function* (principal: Principal, id: CardId, to: CardMove) {
        // past the end means the end; the bound keeps the number a PostgreSQL int
        const position = to.position === undefined ? null : Math.min(to.position, 2 ** 31 - 1)
        const now = yield* sqlNow
        for (let attempt = 0; ; attempt++) {
          const row = yield* write(
            writes.move({ card: id, to: to.columnId, position, now, ...actorOf(principal, CHANGE) })
          )
          if (row !== undefined) return row.card
          const card = yield* access.write(principal, "card", id)
          // an archived card has no place in any column until it is restored
          const [archived] = yield* sql<{ ref: string }>`
            SELECT ref FROM cards WHERE id = ${id} AND archived_at IS NOT NULL`.pipe(Effect.orDie)
          if (archived !== undefined)
            return yield* new Conflict({
              message: `card ${archived.ref} is archived; restore it (POST /v1/cards/${id}/restore) before moving it`
            })
          yield* columnOfProject(principal, to.columnId, card.projectId!)
          if (attempt >= 2) return yield* new NotFound({ message: `card ${id} not found` })
        }
      })

      const moveAsForge = (
        id: string,
        columnId: string,
        forge: ForgeProvider,
        fromKinds: ReadonlyArray<string>,
        cause: MoveCause
      ) =>
        Effect.gen(function* () {
          const now = yield* sqlNow
          const [kind] = actorParams({ forge })
          const row = yield* write(
            writes.systemMove({
              card: id,
              to: columnId,
              position: null,
              now,
              user: "",
              grants: null,
              kind,
              credential: null,
              fromKinds: [...fromKinds],
              cause: JSON.stringify({ repository: cause.repository, number: cause.number, action: cause.action })
            })
          )
          return row?.card
        })

      return Cards.of({ create, get, getJson, update, remove, move, moveAsForge, file, load })
    })
  )
}
