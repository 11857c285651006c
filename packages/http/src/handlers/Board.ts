import {
  Boards,
  CardArchive,
  CardLinks,
  Cards,
  Columns,
  Comments,
  Labels,
  Lookups,
  Search,
  Subtasks
} from "@board/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const BoardHandlers = HttpApiBuilder.group(Api, "board", (handlers) =>
  Effect.gen(function* () {
    const boards = yield* Boards
    const cards = yield* Cards
    const archive = yield* CardArchive
    const columns = yield* Columns
    const labels = yield* Labels
    const subtasks = yield* Subtasks
    const links = yield* CardLinks
    const search = yield* Search
    const lookups = yield* Lookups
    const comments = yield* Comments
    return (
      handlers
        // PostgreSQL writes the board's JSON (the bytes the Board schema would encode): sent as it
        // comes, with no decode and re-encode per card; the endpoint still declares Board for the OpenAPI document
        .handle("board", ({ params, query }) =>
          asPrincipal((p) => boards.json(p, params.projectId, query.assignee, query.archived === "true")).pipe(
            // the parts encoded once, straight into one buffer of the body's length. Streaming the
            // strings (Readable.from) made Node copy each into a Buffer of its own, and that
            // churn of external memory set off a full collection about every ten 1,000-card boards:
            // this costs a third less server CPU a board, with no full collection (issue 35)
            Effect.map((parts) => {
              let length = 0
              for (const part of parts) length += Buffer.byteLength(part)
              const body = Buffer.allocUnsafe(length)
              let at = 0
              for (const part of parts) at += body.write(part, at)
              return HttpServerResponse.uint8Array(body, { contentType: "application/json" })
            })
          )
        )
        .handle("createCard", ({ payload }) => asPrincipal((p) => cards.create(p, payload)))
        // an id goes straight to the one-statement read; a ref is resolved first (see groups/Board.ts).
        // The card's JSON is sent as PostgreSQL wrote it, like the board's: the endpoint still declares Card
        .handle("getCard", ({ params }) =>
          asPrincipal((p) =>
            Effect.flatMap(lookups.cardId(p, params.id), (id) => cards.getJson(p, id)).pipe(
              Effect.map((json) => HttpServerResponse.text(json, { contentType: "application/json" }))
            )
          )
        )
        .handle("updateCard", ({ params, payload }) => asPrincipal((p) => cards.update(p, params.id, payload)))
        .handle("deleteCard", ({ params }) => asPrincipal((p) => cards.remove(p, params.id)))
        .handle("moveCard", ({ params, payload }) => asPrincipal((p) => cards.move(p, params.id, payload)))
        .handle("archiveCard", ({ params }) => asPrincipal((p) => archive.archive(p, params.id)))
        .handle("restoreCard", ({ params }) => asPrincipal((p) => archive.restore(p, params.id)))
        .handle("search", ({ query: { archived, ...query } }) =>
          asPrincipal((p) => search.cards(p, { ...query, archived: archived === "true" }))
        )
        .handle("createColumn", ({ payload }) => asPrincipal((p) => columns.create(p, payload)))
        .handle("updateColumn", ({ params, payload }) => asPrincipal((p) => columns.update(p, params.id, payload)))
        .handle("deleteColumn", ({ params }) => asPrincipal((p) => columns.remove(p, params.id)))
        .handle("createLabel", ({ payload }) => asPrincipal((p) => labels.create(p, payload)))
        .handle("attachLabel", ({ params, payload }) =>
          asPrincipal((p) => Effect.andThen(labels.attach(p, params.id, payload.labelId), cards.get(p, params.id)))
        )
        .handle("detachLabel", ({ params }) => asPrincipal((p) => labels.detach(p, params.id, params.labelId)))
        .handle("createSubtask", ({ payload }) => asPrincipal((p) => subtasks.create(p, payload)))
        .handle("toggleSubtask", ({ params }) => asPrincipal((p) => subtasks.toggle(p, params.id)))
        .handle("deleteSubtask", ({ params }) => asPrincipal((p) => subtasks.remove(p, params.id)))
        .handle("listCardLinks", ({ params }) => asPrincipal((p) => links.list(p, params.id)))
        .handle("createCardLink", ({ params, payload }) => asPrincipal((p) => links.create(p, params.id, payload)))
        .handle("deleteCardLink", ({ params }) => asPrincipal((p) => links.remove(p, params.id)))
        .handle("createComment", ({ params, payload }) => asPrincipal((p) => comments.create(p, params.id, payload)))
        .handle("listComments", ({ params, query }) => asPrincipal((p) => comments.list(p, params.id, query)))
        .handle("updateComment", ({ params, payload }) => asPrincipal((p) => comments.update(p, params.id, payload)))
        .handle("deleteComment", ({ params }) => asPrincipal((p) => comments.remove(p, params.id)))
    )
  })
)
