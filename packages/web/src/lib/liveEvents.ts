/**
 * Following a project's event stream (docs/events.md, docs/web-board.md "Live"). The board is
 * read first; its `eventCursor` is the cursor of that very snapshot, and the stream opens from
 * it (`?after=`), so a change made between the read and the stream's start, or while the
 * server was down, still arrives. After that the stream resumes from the last event applied:
 * the browser's own reconnect sends `Last-Event-ID` (or the URL's `after` when no event came
 * yet); a stream closed for good (the server refused it: a restart's 503, a cursor it no longer
 * keeps, a session that ended) is never reopened "from now": the board is read again and the
 * stream opens from that snapshot's cursor, backing off.
 */
import { useEffect, useRef, useState } from "react"
import { api } from "../api.ts"
import type { BoardEvent, EventPage, EventType } from "../types.ts"

/** `catchingUp`: the stream is open and replaying; `live` only once it reached the log's head. */
export type LiveStatus = "connecting" | "catchingUp" | "live" | "reconnecting"
/** A frame's data: the event as the API documents it (the same as history's). */
export type StreamEvent = BoardEvent

/**
 * The event types the board applies. EventSource dispatches each frame under its `event:` name,
 * so the page listens to the names it understands: a subset of the core's `eventTypes`, checked
 * against them by type (a runtime import would bring Effect into the bundle).
 */
export const boardEventTypes = [
  "card.created",
  "card.updated",
  "card.moved",
  "card.deleted",
  "card.label_added",
  "card.label_removed",
  "card.assigned",
  "column.created",
  "column.updated",
  "column.deleted",
  "label.created",
  "subtask.created",
  "subtask.toggled",
  "subtask.deleted",
  "agent_session.created",
  "agent_session.updated",
  "agent_session.stale",
  "agent_session.completed"
] as const satisfies ReadonlyArray<EventType>

/**
 * Reads the board and answers where to start: the snapshot's cursor; undefined when the board
 * could not be read (asked again later); null when it never will be (the page says why).
 */
export type Loader = () => Promise<string | undefined | null>

/**
 * The id of the project's newest event after `after` of the types the page listens to (history,
 * page by page; a comment's event never reaches the page, so it cannot be waited for), or
 * `after` when none.
 */
const headAfter = async (projectId: string, after: string): Promise<string> => {
  let head = after
  for (let cursor: string | null = after; cursor !== null; ) {
    const page: EventPage = await api.GET("/v1/projects/{projectId}/events", {
      params: { path: { projectId }, query: { limit: 500, types: boardEventTypes.join(","), after: cursor } }
    })
    head = page.events.at(-1)?.id ?? head
    cursor = page.next
  }
  return head
}

/**
 * Reads the board (`load`, which answers its snapshot's cursor), opens the stream from that
 * cursor and hands each later event to `onEvent` once, in order. The status is "live" only
 * while a stream is open and has delivered every event the log held when it opened.
 */
export const useProjectEvents = (
  projectId: string,
  onEvent: (event: StreamEvent) => void,
  load: Loader
): LiveStatus => {
  const [status, setStatus] = useState<LiveStatus>("connecting")
  const handlers = useRef({ onEvent, load })
  handlers.current = { onEvent, load }

  useEffect(() => {
    let source: EventSource | undefined
    /** The last event applied, or the snapshot's cursor: where the stream resumes. */
    let lastId = ""
    /** The log's head when the current stream opened: caught up once `lastId` reaches it. */
    let target: string | undefined
    let retryTimer: ReturnType<typeof setTimeout> | undefined
    let failures = 0
    let stopped = false

    const settle = () => {
      if (!stopped && source?.readyState === EventSource.OPEN && target !== undefined && lastId >= target)
        setStatus("live")
    }

    const receive = (message: MessageEvent<string>) => {
      // a replay may start at or before what this page applied (the URL's cursor after an
      // event came): apply each id once
      if (message.lastEventId !== "" && message.lastEventId <= lastId) return
      let event: StreamEvent
      try {
        event = JSON.parse(message.data) as StreamEvent
      } catch {
        return
      }
      lastId = message.lastEventId || event.id
      handlers.current.onEvent(event)
      settle()
    }

    const later = (f: () => void) => {
      // sooner at first, then at most every 30 s
      failures++
      retryTimer = setTimeout(f, Math.min(30_000, 500 * 2 ** Math.min(failures, 6)))
    }

    /** Reads the board (again) and follows the stream from its snapshot. */
    const start = async () => {
      source?.close()
      source = undefined
      const cursor = await handlers.current.load()
      if (stopped || cursor === null) return
      if (cursor === undefined) return later(() => void start())
      lastId = cursor
      open()
    }

    const open = () => {
      target = undefined
      const es = new EventSource(
        `/api/v1/projects/${encodeURIComponent(projectId)}/events/stream?after=${encodeURIComponent(lastId)}`
      )
      source = es
      for (const type of boardEventTypes) es.addEventListener(type, receive)
      es.onopen = () => {
        failures = 0
        setStatus("catchingUp")
        target = undefined
        // what the log holds now: the replay ends there (asked again while this stream is open
        // and the question fails; never "live" on a guess)
        const ask = (from: string) =>
          headAfter(projectId, from).then(
            (head) => {
              if (source !== es) return
              target = head
              settle()
            },
            () => {
              if (source === es && !stopped) retryTimer = setTimeout(() => void ask(lastId), 2000)
            }
          )
        void ask(lastId)
      }
      es.onerror = () => {
        if (stopped || source !== es) return
        setStatus("reconnecting")
        // the browser reconnects by itself (Last-Event-ID, or the URL's cursor): it resumes
        if (es.readyState !== EventSource.CLOSED) return
        // refused for good: read the board again and take its cursor
        es.close()
        later(() => void start())
      }
    }

    void start()
    return () => {
      stopped = true
      if (retryTimer !== undefined) clearTimeout(retryTimer)
      source?.close()
    }
  }, [projectId])

  return status
}
