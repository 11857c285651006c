import { type BoardEvent, EventFeed, History, Lookups } from "@board/core"
import { Deferred, Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AppConfig } from "@board/core"
import { Api } from "../Api.ts"
import { ServerClosing } from "../events/ServerClosing.ts"
import { asPrincipal } from "./withPrincipal.ts"

const encoder = new TextEncoder()
// EventSource waits this long before it reconnects (with Last-Event-ID) after a drop
const RETRY = encoder.encode("retry: 1000\n\n")
const KEEPALIVE = encoder.encode(": keepalive\n\n")

// One event's frame is encoded once however many streams of this process send it.
const frames = new WeakMap<BoardEvent, Uint8Array>()
const frameOf = (e: BoardEvent): Uint8Array => {
  let frame = frames.get(e)
  if (frame === undefined) {
    frame = encoder.encode(`id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
    frames.set(e, frame)
  }
  return frame
}

/** `types=a,b` as the core reads it. */
const typeList = (types: string | undefined) => (types === undefined ? undefined : types.split(","))

export const EventsHandlers = HttpApiBuilder.group(Api, "events", (handlers) =>
  Effect.gen(function* () {
    const history = yield* History
    const feed = yield* EventFeed
    const lookups = yield* Lookups
    const config = yield* AppConfig
    const closing = yield* ServerClosing

    /** The SSE body: `retry`, then the events (replayed, then live) with keep-alive comments between. */
    const sse = (projectId: string, after: string) => {
      let last = after
      const events = feed.subscribe(projectId, after).pipe(
        Stream.map((e) => {
          last = e.id
          return frameOf(e)
        }),
        // too slow: the last words say where to resume (EventSource does so by itself)
        Stream.catchTag("StreamBehind", () =>
          Stream.sync(() =>
            encoder.encode(
              `: closed: this stream fell more than ${config.eventStreamBuffer} events behind; reconnect with Last-Event-ID: ${last ?? ""}\n\n`
            )
          )
        )
      )
      const keepalive = Stream.tick(config.eventStreamKeepaliveMs).pipe(
        Stream.drop(1),
        Stream.map(() => KEEPALIVE)
      )
      return Stream.concat(Stream.succeed(RETRY), Stream.merge(events, keepalive, { haltStrategy: "left" })).pipe(
        Stream.interruptWhen(Deferred.await(closing))
      )
    }

    return handlers
      .handle("projectEvents", ({ params, query }) =>
        asPrincipal((p) =>
          history.project(p, params.projectId, { after: query.after, limit: query.limit, types: typeList(query.types) })
        )
      )
      .handle("cardHistory", ({ params, query }) =>
        asPrincipal((p) => Effect.flatMap(lookups.cardId(p, params.id), (id) => history.card(p, id, query)))
      )
      .handle("projectEventStream", ({ params, query, headers }) =>
        asPrincipal((p) => {
          // a reconnecting EventSource sends Last-Event-ID with its first URL: the header wins
          const cursor = headers["last-event-id"] ?? query.after
          return Effect.gen(function* () {
            yield* history.checkStream(p, params.projectId, cursor)
            // without a cursor: from the newest event now, not from when the body starts
            const after = cursor ?? (yield* feed.position(params.projectId))
            return HttpServerResponse.stream(sse(params.projectId, after), {
              contentType: "text/event-stream",
              headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
            })
          })
        })
      )
  })
)
