/**
 * Cards: create, read, edit, move, delete. Positions stay 0..n-1 per column under concurrency:
 * every write locks in one order (project row, then column rows by id, then the card), and the
 * (column, position) uniqueness is a deferred constraint checked at commit.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Priority } from "../domain/limits.ts"
import type { Principal } from "../domain/Principal.ts"
import { Access, checkGrant, isUuid, type Role } from "./Access.ts"
import { checkDescription, checkPriority, checkTitle, firstFailure } from "./cardRules.ts"
import { cardColumns, type CardRow, type CardView, toCard } from "./cardView.ts"
import { retryConflicts } from "../infra/retryConflicts.ts"
import { clampPosition } from "./positions.ts"

export interface CardInput {
  readonly projectId: string
  readonly columnId: string
  readonly title: string
  readonly description?: string | undefined
  readonly priority?: Priority | undefined
}

export interface CardPatch {
  readonly title?: string | undefined
  /** `null` clears the description. */
  readonly description?: string | null | undefined
  readonly priority?: Priority | undefined
}

type AccessError = NotFound | WorkspaceNotGranted

export class Cards extends Context.Service<Cards, {
  readonly create: (principal: Principal, input: CardInput) => Effect.Effect<CardView, InvalidInput | AccessError>
  readonly get: (principal: Principal, id: string) => Effect.Effect<CardView, AccessError>
  readonly update: (principal: Principal, id: string, patch: CardPatch) => Effect.Effect<CardView, InvalidInput | AccessError>
  readonly remove: (principal: Principal, id: string) => Effect.Effect<void, AccessError>
  readonly move: (principal: Principal, id: string, to: { columnId: string; position?: number | undefined }) => Effect.Effect<CardView, InvalidInput | AccessError>
  /** Files a card at the end of a column without a member's access check (intake tokens). */
  readonly file: (input: Omit<CardInput, "projectId"> & { source: string; intakeTokenId: string | null; createdBy: string | null }) => Effect.Effect<CardView, NotFound>
  /** Reads cards by id, in the given order, with labels and subtasks. */
  readonly load: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<CardView>>
}>()("board/core/Cards") {
  static readonly layer = Layer.effect(
    Cards,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access

      const load = (ids: ReadonlyArray<string>) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql.unsafe<CardRow>(`SELECT ${cardColumns} FROM cards c WHERE c.id = ANY($1::uuid[])`, [ids as Array<string>]).pipe(
            Effect.orDie,
            Effect.map((rows) => {
              const byId = new Map(rows.map((r) => [r.id, toCard(r)]))
              return ids.flatMap((id) => byId.get(id) ?? [])
            })
          )

      const loadOne = (id: string) =>
        Effect.flatMap(load([id]), (cards) => cards[0] !== undefined ? Effect.succeed(cards[0]) : Effect.fail(new NotFound({ message: `card ${id} not found` })))

      /** Locks columns in id order; returns the ids that still exist. */
      const lockColumns = (ids: ReadonlyArray<string>) =>
        sql<{ id: string }>`SELECT id FROM board_columns WHERE id IN ${sql.in([...new Set(ids)].sort())} ORDER BY id FOR UPDATE`.pipe(
          Effect.map((rows) => new Set(rows.map((r) => r.id)))
        )

      /** Inserts at the end of a column; the caller has checked access. */
      const insertCard = (projectId: string, columnId: string, fields: {
        title: string
        description: string | null
        priority: Priority
        source: string
        intakeTokenId: string | null
        createdBy: string | null
      }) =>
        sql.withTransaction(Effect.gen(function*() {
          const [project] = yield* sql<{ n: number; ref_prefix: string }>`
            UPDATE projects SET next_ref_number = next_ref_number + 1 WHERE id = ${projectId}
            RETURNING next_ref_number - 1 AS n, ref_prefix`
          const locked = yield* lockColumns([columnId])
          if (project === undefined || !locked.has(columnId)) return undefined
          const [row] = yield* sql<{ id: string }>`
            INSERT INTO cards (project_id, column_id, position, ref_number, ref, title, description, priority, source, intake_token_id, created_by)
            VALUES (${projectId}, ${columnId}, (SELECT COALESCE(max(position) + 1, 0) FROM cards WHERE column_id = ${columnId}), ${project.n},
              ${`${project.ref_prefix}-${project.n}`}, ${fields.title}, ${fields.description}, ${fields.priority},
              ${fields.source}, ${fields.intakeTokenId}, ${fields.createdBy})
            RETURNING id`
          return row!.id
        })).pipe(retryConflicts, Effect.orDie)

      /** The column must be visible (else 404) and belong to the project (else 400). */
      const columnOfProject = (principal: Principal, columnId: string, projectId: string) =>
        Effect.gen(function*() {
          const column = yield* access.resolve(principal, "column", columnId)
          if (column.projectId !== projectId) {
            return yield* new InvalidInput({ message: `columnId: column ${columnId} belongs to another project` })
          }
        })

      const create = Effect.fn("Cards.create")(function*(principal: Principal, input: CardInput) {
        const invalid = firstFailure(checkTitle(input.title), checkDescription(input.description), checkPriority(input.priority))
        if (invalid) return yield* invalid
        yield* access.resolve(principal, "project", input.projectId)
        yield* columnOfProject(principal, input.columnId, input.projectId)
        const id = yield* insertCard(input.projectId, input.columnId, {
          title: input.title,
          description: input.description ?? null,
          priority: input.priority ?? "medium",
          source: "api",
          intakeTokenId: null,
          createdBy: principal.userId
        })
        if (id === undefined) return yield* new NotFound({ message: `column ${input.columnId} not found` })
        return yield* loadOne(id)
      })

      const file = Effect.fn("Cards.file")(function*(input: Omit<CardInput, "projectId"> & { source: string; intakeTokenId: string | null; createdBy: string | null }) {
        const [column] = yield* sql<{ project_id: string }>`SELECT project_id FROM board_columns WHERE id = ${input.columnId}`.pipe(Effect.orDie)
        if (column === undefined) return yield* new NotFound({ message: `column ${input.columnId} not found` })
        const id = yield* insertCard(column.project_id, input.columnId, {
          title: input.title,
          description: input.description ?? null,
          priority: input.priority ?? "medium",
          source: input.source,
          intakeTokenId: input.intakeTokenId,
          createdBy: input.createdBy
        })
        if (id === undefined) return yield* new NotFound({ message: `column ${input.columnId} not found` })
        return yield* loadOne(id)
      })

      // the hottest read: access and the card in one statement (one round trip, not two)
      const get = Effect.fn("Cards.get")(function*(principal: Principal, id: string) {
        const what = `card ${id}`
        if (!isUuid(id)) return yield* new NotFound({ message: `${what} not found` })
        const [row] = yield* sql.unsafe<CardRow & { workspace_id: string; role: Role | null }>(`
          SELECT ${cardColumns}, p.workspace_id, m.role FROM cards c
          JOIN projects p ON p.id = c.project_id
          LEFT JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = $2
          WHERE c.id = $1`, [id, principal.userId]).pipe(Effect.orDie)
        yield* checkGrant(principal, row?.workspace_id ?? "", row?.role ?? undefined, what)
        return toCard(row!)
      })

      const update = Effect.fn("Cards.update")(function*(principal: Principal, id: string, patch: CardPatch) {
        const invalid = firstFailure(
          patch.title !== undefined ? checkTitle(patch.title) : undefined,
          checkDescription(patch.description),
          checkPriority(patch.priority)
        )
        if (invalid) return yield* invalid
        yield* access.resolve(principal, "card", id)
        const set: Record<string, unknown> = {}
        if (patch.title !== undefined) set.title = patch.title
        if (patch.description !== undefined) set.description = patch.description
        if (patch.priority !== undefined) set.priority = patch.priority
        if (Object.keys(set).length > 0) {
          yield* sql`UPDATE cards SET ${sql.update(set)}, updated_at = now() WHERE id = ${id}`.pipe(Effect.orDie)
        }
        return yield* loadOne(id)
      })

      /** Locks the card's current column (and `also`), retrying if a concurrent move changed it. */
      const lockCardColumn = (id: string, also: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          for (let attempt = 0; attempt < 20; attempt++) {
            const [before] = yield* sql<{ column_id: string }>`SELECT column_id FROM cards WHERE id = ${id}`
            if (before === undefined) return undefined
            yield* lockColumns([before.column_id, ...also])
            const [card] = yield* sql<{ column_id: string; position: number }>`
              SELECT column_id, position FROM cards WHERE id = ${id} FOR UPDATE`
            if (card === undefined) return undefined
            if (card.column_id === before.column_id) return card
          }
          return yield* Effect.die(new Error(`card ${id} kept moving while being locked`))
        })

      const remove = Effect.fn("Cards.remove")(function*(principal: Principal, id: string) {
        yield* access.resolve(principal, "card", id)
        yield* sql.withTransaction(Effect.gen(function*() {
          const card = yield* lockCardColumn(id, [])
          if (card === undefined) return
          yield* sql`DELETE FROM cards WHERE id = ${id}`
          yield* sql`UPDATE cards SET position = position - 1 WHERE column_id = ${card.column_id} AND position > ${card.position}`
        })).pipe(retryConflicts, Effect.orDie)
      })

      const move = Effect.fn("Cards.move")(function*(principal: Principal, id: string, to: { columnId: string; position?: number | undefined }) {
        if (to.position !== undefined && (!Number.isInteger(to.position) || to.position < 0)) {
          return yield* new InvalidInput({ message: "position: must be a whole number from 0" })
        }
        const card = yield* access.resolve(principal, "card", id)
        yield* columnOfProject(principal, to.columnId, card.projectId!)
        const moved = yield* sql.withTransaction(Effect.gen(function*() {
          const current = yield* lockCardColumn(id, [to.columnId])
          if (current === undefined) return false
          const same = current.column_id === to.columnId
          // positions are dense, so the end of the column is one index lookup, not a count
          const [{ n }] = yield* sql<{ n: number }>`SELECT COALESCE(max(position) + 1, 0)::int AS n FROM cards WHERE column_id = ${to.columnId}`
          const target = clampPosition(to.position, same ? n - 1 : n)
          if (same) {
            if (target < current.position) {
              yield* sql`UPDATE cards SET position = position + 1 WHERE column_id = ${to.columnId} AND position >= ${target} AND position < ${current.position}`
            } else if (target > current.position) {
              yield* sql`UPDATE cards SET position = position - 1 WHERE column_id = ${to.columnId} AND position > ${current.position} AND position <= ${target}`
            }
          } else {
            yield* sql`UPDATE cards SET position = position - 1 WHERE column_id = ${current.column_id} AND position > ${current.position}`
            yield* sql`UPDATE cards SET position = position + 1 WHERE column_id = ${to.columnId} AND position >= ${target}`
          }
          yield* sql`UPDATE cards SET column_id = ${to.columnId}, position = ${target}, updated_at = now() WHERE id = ${id}`
          return true
        })).pipe(retryConflicts, Effect.orDie)
        if (!moved) return yield* new NotFound({ message: `card ${id} not found` })
        return yield* loadOne(id)
      })

      return Cards.of({ create, get, update, remove, move, file, load })
    })
  )
}
