/** Typed links between cards of one workspace, listed from either end. */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { type Conflict, type Forbidden, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import { type LinkType, linkTypes } from "../domain/enums.ts"
import type { CardLink } from "../domain/cardLink.ts"
import type { CardId, CardLinkId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { EventLog } from "../events/EventLog.ts"
import { Access, type Resolved } from "./Access.ts"
import { iso } from "./rows.ts"

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict

/** A link as clients see it: the type of the domain's schema (`domain/cardLink.ts`). */
export type CardLinkView = CardLink

type Row = {
  id: string
  source_id: string
  target_id: string
  link_type: LinkType
  created_at: Date
  updated_at: Date
  other_id: string
  other_ref: string
  other_title: string
}

const view = (r: Row, cardId: string): CardLinkView => ({
  id: r.id as CardLinkId,
  sourceId: r.source_id as CardId,
  targetId: r.target_id as CardId,
  linkType: r.link_type,
  direction: r.source_id === cardId ? "outgoing" : "incoming",
  card: { id: r.other_id as CardId, ref: r.other_ref, title: r.other_title },
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export class CardLinks extends Context.Service<
  CardLinks,
  {
    readonly list: (principal: Principal, cardId: string) => Effect.Effect<ReadonlyArray<CardLinkView>, AccessError>
    readonly create: (
      principal: Principal,
      cardId: string,
      input: { targetId: string; linkType: LinkType }
    ) => Effect.Effect<CardLinkView, InvalidInput | WriteError>
    readonly remove: (principal: Principal, linkId: string) => Effect.Effect<void, WriteError>
  }
>()("board/core/CardLinks") {
  static readonly layer = Layer.effect(
    CardLinks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog

      // a link's event belongs to its source card (its history), seen from that card
      const log = (
        principal: Principal,
        type: "card_link.created" | "card_link.deleted",
        source: Resolved,
        link: CardLinkView
      ) =>
        events.record(principal, {
          type,
          workspaceId: source.workspaceId,
          projectId: source.projectId!,
          cardId: link.sourceId,
          object: link
        })

      const select = (cardId: string, where: Statement.Fragment) =>
        sql<Row>`
          SELECT l.id, l.source_id, l.target_id, l.link_type, l.created_at, l.updated_at,
                 o.id AS other_id, o.ref AS other_ref, o.title AS other_title
          FROM card_links l
          JOIN cards o ON o.id = CASE WHEN l.source_id = ${cardId} THEN l.target_id ELSE l.source_id END
          WHERE ${where}
          ORDER BY l.created_at, l.id`.pipe(Effect.orDie)

      const list = Effect.fn("CardLinks.list")(function* (principal: Principal, cardId: string) {
        yield* access.resolve(principal, "card", cardId)
        const rows = yield* select(cardId, sql`(l.source_id = ${cardId} OR l.target_id = ${cardId})`)
        return rows.map((r) => view(r, cardId))
      })

      const create = Effect.fn("CardLinks.create")(function* (
        principal: Principal,
        cardId: string,
        input: { targetId: string; linkType: LinkType }
      ) {
        if (!(linkTypes as ReadonlyArray<string>).includes(input.linkType)) {
          return yield* new InvalidInput({ message: `linkType: must be one of ${linkTypes.join(", ")}` })
        }
        const source = yield* access.write(principal, "card", cardId, { action: "link cards" })
        if (input.targetId === cardId)
          return yield* new InvalidInput({ message: "targetId: a card cannot link to itself" })
        const target = yield* access.resolve(principal, "card", input.targetId)
        if (target.workspaceId !== source.workspaceId) {
          return yield* new InvalidInput({ message: "targetId: the target card must be in the same workspace" })
        }
        // the same (source, target, type) twice answers the existing link, and logs nothing
        const now = yield* sqlNow
        const link = yield* events
          .withEvents(
            Effect.gen(function* () {
              const inserted = yield* sql`
                INSERT INTO card_links (source_id, target_id, link_type, created_by, created_at, updated_at)
                VALUES (${cardId}, ${input.targetId}, ${input.linkType}, ${principal.userId}, ${now}::timestamptz, ${now}::timestamptz)
                ON CONFLICT (source_id, target_id, link_type) DO NOTHING RETURNING id`
              const rows = yield* select(
                cardId,
                sql`l.source_id = ${cardId} AND l.target_id = ${input.targetId} AND l.link_type = ${input.linkType}`
              )
              if (rows[0] === undefined) return undefined
              const link = view(rows[0], cardId)
              if (inserted.length > 0) yield* log(principal, "card_link.created", source, link)
              return link
            })
          )
          .pipe(
            // a card deleted between the access check and the insert: the foreign key says so
            Effect.catchTag("SqlError", (e) =>
              e.reason._tag === "ConstraintError"
                ? Effect.fail(new NotFound({ message: "card not found" }))
                : Effect.die(e)
            )
          )
        if (link === undefined) return yield* new NotFound({ message: "card not found" })
        return link
      })

      const remove = Effect.fn("CardLinks.remove")(function* (principal: Principal, linkId: string) {
        const source = yield* access.write(principal, "link", linkId, { action: "delete card links", deletes: true })
        yield* events
          .withEvents(
            Effect.gen(function* () {
              // the link's last state, seen from its source, read in the delete's own snapshot
              const [row] = yield* sql<Row>`
                WITH gone AS (DELETE FROM card_links WHERE id = ${linkId} RETURNING *)
                SELECT l.id, l.source_id, l.target_id, l.link_type, l.created_at, l.updated_at,
                       o.id AS other_id, o.ref AS other_ref, o.title AS other_title
                FROM gone l JOIN cards o ON o.id = l.target_id`
              if (row !== undefined) yield* log(principal, "card_link.deleted", source, view(row, row.source_id))
            })
          )
          .pipe(Effect.orDie)
      })

      return CardLinks.of({ list, create, remove })
    })
  )
}
