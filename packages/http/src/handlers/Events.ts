import { type BoardEvent, CredentialWatch, EventFeed, History, Lookups, type Principal } from "@board/core"
import { type Cause, Deferred, Effect, Queue, Schedule, Stream } from "effect"
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
    const watch = yield* CredentialWatch

    // What each open stream needs beyond its queue: one keep-alive timer and one shutdown
    // watcher for all of them (not a timer and fibers per stream: 1,000 streams must stay small)
    const open = new Set<Queue.Queue<Uint8Array, Cause.Done>>()
    yield* Effect.sync(() => {
      for (const queue of open) Queue.offerUnsafe(queue, KEEPALIVE)
    }).pipe(
      Effect.repeat(Schedule.spaced(config.eventStreamKeepaliveMs)),
      Effect.delay(config.eventStreamKeepaliveMs),
      Effect.forkScoped
    )
    yield* Deferred.await(closing).pipe(
      Effect.andThen(
        Effect.sync(() => {
          for (const queue of open) Queue.endUnsafe(queue)
        })
      ),
      Effect.forkScoped
    )

    /** The SSE body: `retry`, then the events (replayed, then live) with keep-alive comments between. */
    const sse = (principal: Principal, workspaceId: string, projectId: string, after: string) =>
      Stream.callback<Uint8Array>((queue) =>
        Effect.gen(function* () {
          let last = after
          Queue.offerUnsafe(queue, RETRY)
          if (Deferred.isDoneUnsafe(closing)) return Queue.endUnsafe(queue)
          open.add(queue)
          yield* Effect.addFinalizer(() => Effect.sync(() => open.delete(queue)))
          // issue 28: the stream lasts only while its credential and its access do; ended, it
          // takes nothing more (an ended queue refuses offers) and the client's reconnect
          // meets the refusal a new request would
          yield* watch.watch({
            principal,
            workspaceId,
            projectId,
            endsAtExpiry: true,
            end: (reason) => {
              Queue.offerUnsafe(queue, encoder.encode(`: closed: ${reason}\n\n`))
              Queue.endUnsafe(queue)
            }
          })
          yield* feed.attach(projectId, after, {
            push: (e) => {
              last = e.id
              Queue.offerUnsafe(queue, frameOf(e))
            },
            pending: () => Queue.sizeUnsafe(queue),
            // too slow: what is queued still goes out, then these last words say where to resume
            // (the last id queued, so the last the client receives; EventSource resumes by itself)
            behind: () => {
              Queue.offerUnsafe(
                queue,
                encoder.encode(
                  `: closed: this stream fell more than ${config.eventStreamBuffer} events behind; reconnect with Last-Event-ID: ${last}\n\n`
                )
              )
              Queue.endUnsafe(queue)
            }
          })
        })
      )

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
            const { workspaceId } = yield* history.checkStream(p, params.projectId, cursor)
            // without a cursor: from the newest event now, not from when the body starts
            const after = cursor ?? (yield* feed.position(params.projectId))
            return HttpServerResponse.stream(sse(p, workspaceId, params.projectId, after), {
              contentType: "text/event-stream",
              headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
            })
          })
        })
      )
  })
)
