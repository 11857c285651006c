/** Labels of a project (names unique per project, case-insensitively) and their attachment to cards. */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Conflict, type Forbidden, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { findAll, statement } from "../infra/statement.ts"
import type { CardId, LabelId } from "../domain/ids.ts"
import type { LabelCreate, LabelEnsure } from "../domain/inputs.ts"
import { Access } from "./Access.ts"
import { EventLog } from "../events/EventLog.ts"
import { cardColumn, CardRow, type CardView, type LabelView, toLabel } from "./cardView.ts"

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict

/** The card after a label change, read in the change's transaction (the event's object). */
const cardAfterSql = statement<{ card: string; now: string }>(
  (p) => `SELECT ${cardColumn(p.now)} FROM cards c WHERE c.id = ${p.card}::uuid`
)

// A label attached or removed, and the card's updated_at: the RETURNING reads the statement's
// own snapshot, so it answers the card as it was before (its labels before the change).
const attachSql = statement<{ card: string; label: string; now: string }>(
  (p) => `WITH added AS (
    INSERT INTO card_labels (card_id, label_id, created_at) VALUES (${p.card}, ${p.label}, ${p.now}::timestamptz)
    ON CONFLICT DO NOTHING RETURNING card_id
  )
  UPDATE cards c SET updated_at = ${p.now}::timestamptz FROM added WHERE c.id = added.card_id
  RETURNING ${cardColumn(p.now)}`
)
const detachSql = statement<{ card: string; label: string | null; now: string }>(
  (p) => `WITH removed AS (
    DELETE FROM card_labels WHERE card_id = ${p.card} AND label_id = ${p.label} RETURNING card_id
  )
  UPDATE cards c SET updated_at = ${p.now}::timestamptz FROM removed WHERE c.id = removed.card_id
  RETURNING ${cardColumn(p.now)}`
)

export interface EnsuredLabel {
  readonly id: LabelId
  readonly name: string
}

export class Labels extends Context.Service<
  Labels,
  {
    /** `input` was decoded with `LabelCreate`, as every caller does. */
    readonly create: (principal: Principal, input: LabelCreate) => Effect.Effect<LabelView, WriteError>
    readonly attach: (
      principal: Principal,
      cardId: CardId,
      labelId: LabelId
    ) => Effect.Effect<void, InvalidInput | WriteError>
    readonly detach: (principal: Principal, cardId: CardId, labelId: LabelId) => Effect.Effect<void, WriteError>
    /**
     * The project's label of this name (names compare case-insensitively), created when it does
     * not exist yet (`created` says which), so "add label bug" works on a board without one.
     */
    readonly ensure: (
      principal: Principal,
      input: LabelEnsure
    ) => Effect.Effect<{ readonly label: EnsuredLabel; readonly created: boolean }, InvalidInput | WriteError>
  }
>()("board/core/Labels") {
  static readonly layer = Layer.effect(
    Labels,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog
      const attachRow = findAll(sql, attachSql, CardRow)
      const detachRow = findAll(sql, detachSql, CardRow)
      const cardRows = findAll(sql, cardAfterSql, CardRow)

      /** The card after a label change: the change's transaction holds it (its row is locked). */
      const cardAfter = (cardId: string, now: string) =>
        cardRows({ card: cardId, now }).pipe(
          Effect.flatMap(([row]) => (row === undefined ? Effect.die(`card ${cardId} went`) : Effect.succeed(row.card)))
        )

      /**
       * A card's label event: the card after the change, and its labels before it as `previous`
       * (the changed field's old value; the difference names the label).
       */
      const logLabelChange = (
        principal: Principal,
        type: "card.label_added" | "card.label_removed",
        workspaceId: string,
        before: CardView,
        after: CardView
      ) =>
        events.record(principal, {
          type,
          workspaceId,
          projectId: after.projectId,
          cardId: after.id,
          object: after,
          previous: { labels: before.labels }
        })

      const create = Effect.fn("Labels.create")(function* (principal: Principal, input: LabelCreate) {
        const project = yield* access.write(principal, "project", input.projectId, { action: "change labels" })
        const name = input.name.trim()
        const now = yield* sqlNow
        const row = yield* events
          .withEvents(
            Effect.gen(function* () {
              const [row] = yield* sql<{
                id: LabelId
                project_id: string
                name: string
                color: string | null
                created_at: Date
                updated_at: Date
              }>`
              INSERT INTO labels (project_id, name, color, created_at, updated_at)
              VALUES (${input.projectId}, ${name}, ${input.color?.toLowerCase() ?? null}, ${now}::timestamptz, ${now}::timestamptz)
              ON CONFLICT (project_id, lower(name)) DO NOTHING
              RETURNING id, project_id, name, color, created_at, updated_at`
              if (row === undefined) return undefined
              const label = toLabel({
                id: row.id,
                projectId: row.project_id,
                name: row.name,
                color: row.color,
                createdAt: row.created_at,
                updatedAt: row.updated_at
              })
              yield* events.record(principal, {
                type: "label.created",
                workspaceId: project.workspaceId,
                projectId: label.projectId,
                object: label
              })
              return label
            })
          )
          .pipe(Effect.orDie)
        if (row === undefined)
          return yield* new Conflict({
            message: `a label named ${JSON.stringify(name)} already exists in this project`
          })
        return row
      })

      const attach = Effect.fn("Labels.attach")(function* (principal: Principal, cardId: CardId, labelId: LabelId) {
        const card = yield* access.write(principal, "card", cardId)
        const label = yield* access.resolve(principal, "label", labelId)
        if (label.projectId !== card.projectId) {
          return yield* new InvalidInput({
            message: `labelId: label ${labelId} belongs to another project than the card`
          })
        }
        const now = yield* sqlNow
        // one transaction: the attachment, the card's updated_at, the card after and the event.
        // The first statement's RETURNING reads its own snapshot: the card's labels before.
        // Attaching a label the card already has changes nothing: no write, no event.
        yield* events
          .withEvents(
            Effect.gen(function* () {
              const [before] = yield* attachRow({ card: cardId, label: labelId, now })
              if (before === undefined) return
              yield* logLabelChange(
                principal,
                "card.label_added",
                card.workspaceId,
                before.card,
                yield* cardAfter(cardId, now)
              )
            })
          )
          .pipe(
            // the card or label deleted since the access check
            Effect.catchTag("SqlError", (e) =>
              e.reason._tag === "ConstraintError"
                ? Effect.fail(new NotFound({ message: "card or label not found" }))
                : Effect.die(e)
            )
          )
      })

      const detach = Effect.fn("Labels.detach")(function* (principal: Principal, cardId: CardId, labelId: LabelId) {
        const card = yield* access.write(principal, "card", cardId, {
          action: "remove labels from cards",
          deletes: true
        })
        const now = yield* sqlNow
        const removed = yield* events
          .withEvents(
            Effect.gen(function* () {
              // as in attach: the RETURNING shows the card's labels before the removal
              const [before] = yield* detachRow({ card: cardId, label: labelId, now })
              if (before === undefined) return false
              yield* logLabelChange(
                principal,
                "card.label_removed",
                card.workspaceId,
                before.card,
                yield* cardAfter(cardId, now)
              )
              return true
            })
          )
          .pipe(Effect.orDie)
        if (!removed) return yield* new NotFound({ message: `label ${labelId} is not on card ${cardId}` })
      })

      const byName = (projectId: string, name: string) =>
        sql<EnsuredLabel>`SELECT id, name FROM labels WHERE project_id = ${projectId} AND lower(name) = lower(${name.trim()})`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0])
        )

      const ensure = Effect.fn("Labels.ensure")(function* (principal: Principal, input: LabelEnsure) {
        yield* access.write(principal, "project", input.projectId, { action: "change labels" })
        const existing = yield* byName(input.projectId, input.name)
        if (existing !== undefined) return { label: existing, created: false }
        const created = yield* create(principal, input).pipe(
          Effect.map((label): EnsuredLabel | undefined => ({ id: label.id, name: label.name })),
          // created by someone else in the meantime: use theirs
          Effect.catchTag("Conflict", () => Effect.succeed(undefined))
        )
        if (created !== undefined) return { label: created, created: true }
        const raced = yield* byName(input.projectId, input.name)
        if (raced === undefined)
          return yield* new InvalidInput({
            message: `label ${JSON.stringify(input.name)} could not be created; try again`
          })
        return { label: raced, created: false }
      })

      return Labels.of({ create, attach, detach, ensure })
    })
  )
}
