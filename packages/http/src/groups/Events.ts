/** Issue 18's history and live stream (CONTRACT.md, "Events, history, live stream and webhooks"). */
import { CARD_ID_OR_REF, CheckedEventId, checkedId, EVENT_PAGE_MAX, EventPage, ProjectId } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters, integerSchema, QueryInt, doc } from "../schemas.ts"

const projectId = checkedId(ProjectId)
const Limit = { minimum: 1, maximum: EVENT_PAGE_MAX } as const
const page = {
  after: Schema.optionalKey(CheckedEventId.annotate({ description: "an event id: the page starts after it" })),
  limit: Schema.optionalKey(QueryInt(Limit))
}
const EVENT_ID_PATTERN = { pattern: "^[0-9a-f]{24}$" }
const documentLimit = documentParameters({
  replace: { limit: integerSchema(Limit) },
  merge: { after: EVENT_ID_PATTERN }
})

export class EventsGroup extends HttpApiGroup.make("events")
  .add(
    HttpApiEndpoint.get("projectEvents", "/v1/projects/:projectId/events", {
      params: { projectId },
      query: {
        ...page,
        types: Schema.optionalKey(
          Schema.String.annotate({ description: "comma-separated event types to keep, e.g. card.created,card.moved" })
        )
      },
      success: EventPage,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "List a project's events",
          "The project's history, oldest first, `limit` at a time: pass `next` as `after` for the next page. `types` keeps only some event types."
        )
      )
      .annotate(OpenApi.Transform, documentLimit)
  )
  .add(
    HttpApiEndpoint.get("cardHistory", "/v1/cards/:id/history", {
      params: {
        id: Schema.String.check(
          Schema.isPattern(CARD_ID_OR_REF, { message: "expected a card id (a UUID) or a ref such as WEB-12" })
        ).annotate({ description: "card id (UUID) or ref such as WEB-12" })
      },
      query: page,
      success: EventPage,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Get a card's history",
          "Every event of one card (by id or ref), oldest first, paged like the project's events."
        )
      )
      .annotate(OpenApi.Transform, documentLimit)
  )
  .add(
    // Server-Sent Events: `id:`, `event:`, `data:` per event, a `:` comment at least every 15 s
    HttpApiEndpoint.get("projectEventStream", "/v1/projects/:projectId/events/stream", {
      params: { projectId },
      headers: {
        "last-event-id": Schema.optionalKey(
          CheckedEventId.annotate({ description: "resume after this event id (wins over `after`)" })
        )
      },
      query: {
        after: Schema.optionalKey(CheckedEventId.annotate({ description: "resume after this event id" }))
      },
      success: HttpApiSchema.StreamUint8Array({ contentType: "text/event-stream" }),
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Stream a project's events",
          "Server-Sent Events: each event as `id:`, `event:` (its type) and `data:` (the Event as JSON), a `:` comment at least every 15 s. Resume with `Last-Event-ID` (or `after`): the events since are replayed first."
        )
      )
      .annotate(
        OpenApi.Transform,
        documentParameters({ merge: { after: EVENT_ID_PATTERN, "last-event-id": EVENT_ID_PATTERN } })
      )
  )
  .middleware(UserAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "History and live events",
      description: "Every change as an event: the history of a project or a card, and the live stream (SSE)."
    })
  ) {}
