/**
 * Following a project's event stream (docs/events.md). The browser's EventSource reconnects by
 * itself after a network drop and sends `Last-Event-ID`, so the server replays what was missed.
 * When the stream is closed for good (the server closed a slow stream, refused it, or the
 * browser gave up), this opens a new one from the last event seen with `?after=`, backing off.
 */
import type { EventType } from "@board/core/contract"
import { useEffect, useRef, useState } from "react"

export type LiveStatus = "connecting" | "live" | "reconnecting"

export interface StreamEvent {
  readonly id: string
  readonly type: string
  readonly data: { readonly object: unknown }
}

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
 * Opens the stream and hands each event to `onEvent` once, in order. `onOpen` runs on the first
 * open: the board loads its snapshot after the stream is open, so no change falls between. When
 * the first stream cannot open, `onOpen` runs anyway (the board is shown) and again once a
 * stream opens.
 */
export const useProjectEvents = (
  projectId: string,
  onEvent: (event: StreamEvent) => void,
  onOpen: () => void
): LiveStatus => {
  const [status, setStatus] = useState<LiveStatus>("connecting")
  const handlers = useRef({ onEvent, onOpen })
  handlers.current = { onEvent, onOpen }

  useEffect(() => {
    let source: EventSource | undefined
    let lastId: string | undefined
    let opened = false
    /** Whether a stream has been open since the board was read. */
    let streamed = false
    let retryTimer: ReturnType<typeof setTimeout> | undefined
    let failures = 0
    let stopped = false

    const receive = (message: MessageEvent<string>) => {
      // ids increase within a project: a replay after a reconnect never repeats, but be sure
      if (lastId !== undefined && message.lastEventId <= lastId) return
      let event: StreamEvent
      try {
        event = JSON.parse(message.data) as StreamEvent
      } catch {
        return
      }
      lastId = message.lastEventId || event.id
      handlers.current.onEvent(event)
    }

    const open = () => {
      const query = lastId === undefined ? "" : `?after=${encodeURIComponent(lastId)}`
      const es = new EventSource(`/api/v1/projects/${encodeURIComponent(projectId)}/events/stream${query}`)
      source = es
      for (const type of boardEventTypes) es.addEventListener(type, receive)
      es.onopen = () => {
        failures = 0
        setStatus("live")
        // the first open, or the first after a start without a stream (the board was read
        // without one, so it is read again now that nothing can fall between)
        if (!opened || !streamed) handlers.current.onOpen()
        opened = true
        streamed = true
      }
      es.onerror = () => {
        if (stopped) return
        setStatus("reconnecting")
        if (es.readyState !== EventSource.CLOSED) return // the browser reconnects with Last-Event-ID
        es.close()
        // closed for good: a fresh stream from the last event, sooner at first, then at most every 30 s
        failures++
        const delay = Math.min(30_000, 500 * 2 ** Math.min(failures, 6))
        retryTimer = setTimeout(open, delay)
        // the board must still load when the stream cannot open at all
        if (!opened) {
          opened = true
          handlers.current.onOpen()
        }
      }
    }
    open()
    return () => {
      stopped = true
      if (retryTimer !== undefined) clearTimeout(retryTimer)
      source?.close()
    }
  }, [projectId])

  return status
}
