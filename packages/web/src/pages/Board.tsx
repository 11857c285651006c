/**
 * `/p/:projectId`: the board. Reads the project's board, then follows its event stream from the
 * board's own cursor (so no change falls between the snapshot and the stream, or is lost while
 * the server restarts: lib/liveEvents.ts), applies every event to it, and lets people
 * move cards by drag and drop, keyboard drag, Alt+Arrow keys or a card's menu. A move shows at
 * once and is sent to `POST /v1/cards/{id}/move`; when the server refuses, the card goes back and
 * a message says why. `?card=<id>` opens the card panel.
 */
import {
  type Active,
  type Announcements,
  type CollisionDetection,
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragMoveEvent,
  DragOverlay,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  type UniqueIdentifier,
  useSensor,
  useSensors
} from "@dnd-kit/core"
import { type FormEvent, useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react"
import { useLocation, useSearch } from "wouter"
import { ApiError, api } from "../api.ts"
import { type CardActions, CardFace, type Direction } from "../components/BoardCard.tsx"
import { BoardColumn, type ColumnActions, type DropHint } from "../components/BoardColumn.tsx"
import { BoardSearch } from "../components/BoardSearch.tsx"
import { CardPanel } from "../components/CardPanel.tsx"
import { actionOfEvent, type BoardAction, type BoardState, boardReducer, locate } from "../lib/boardState.ts"
import { type LiveStatus, type StreamEvent, useProjectEvents } from "../lib/liveEvents.ts"
import type { AgentSession, Board, Card, Column, Member } from "../types.ts"
import "../board.css"

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** After a keyboard move the card may be in another column (a new element): focus it again. */
const focusCard = (cardId: string) =>
  requestAnimationFrame(() =>
    document.querySelector<HTMLElement>(`[data-card-handle="${CSS.escape(cardId)}"]`)?.focus()
  )

/** Where one step in a direction takes a card, or undefined at the board's edge. */
const stepTarget = (s: BoardState, cardId: string, direction: Direction) => {
  const at = locate(s, cardId)
  if (at === undefined) return undefined
  const length = s.order[at.columnId]?.length ?? 0
  if (direction === "up") return at.index > 0 ? { ...at, to: at.columnId, toIndex: at.index - 1 } : undefined
  if (direction === "down") return at.index < length - 1 ? { ...at, to: at.columnId, toIndex: at.index + 1 } : undefined
  const c = s.columns.findIndex((col) => col.id === at.columnId)
  const next = s.columns[direction === "left" ? c - 1 : c + 1]
  if (c < 0 || next === undefined) return undefined
  // the same row in the next column, or its end
  return { ...at, to: next.id, toIndex: Math.min(at.index, s.order[next.id]?.length ?? 0) }
}

/**
 * Where a dragged card would land: the column under it and its place among that column's
 * other cards (its final position), from the card's centre and the cards' boxes on screen.
 * Cards are not drop targets themselves: with 1,000 of them, every target the pointer crossed
 * made every card render again, and a drag crawled.
 */
const landing = (columnId: string, activeId: string, centerY: number) => {
  const list = document.querySelector(`[data-column-id="${CSS.escape(columnId)}"] ul.cards`)
  const others = Array.from(list?.children ?? []).filter(
    (el): el is HTMLElement => el instanceof HTMLElement && el.dataset.cardId !== activeId
  )
  let index = 0
  for (const el of others) {
    const r = el.getBoundingClientRect()
    if (r.top + r.height / 2 < centerY) index++
    else break
  }
  return { columnId, index, others }
}

const hintOf = (l: ReturnType<typeof landing>): (DropHint & { columnId: string }) | null => {
  const next = l.others[l.index]
  const last = l.others[l.others.length - 1]
  if (next?.dataset.cardId !== undefined) return { columnId: l.columnId, cardId: next.dataset.cardId, side: "before" }
  if (last?.dataset.cardId !== undefined) return { columnId: l.columnId, cardId: last.dataset.cardId, side: "after" }
  return null
}

/** The column under the pointer; for the keyboard (no pointer), the column nearest the card. */
const columnUnder: CollisionDetection = (args) => {
  const under = pointerWithin(args)
  return under.length > 0 ? under : closestCorners(args)
}

/** Keeps the page's one board-interactive mark (pnpm bench reads it) to the first full render. */
let markedInteractive = false

export function BoardPage({ projectId }: { projectId: string }) {
  const [state, dispatch] = useReducer(boardReducer, null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [notice, setNotice] = useState<{ id: number; text: string } | null>(null)
  const [members, setMembers] = useState<ReadonlyMap<string, string>>(new Map())
  const [activeId, setActiveId] = useState<string | null>(null)
  const [hint, setHint] = useState<(DropHint & { columnId: string }) | null>(null)
  const [, navigate] = useLocation()
  const search = useSearch()
  const openCardId = new URLSearchParams(search).get("card")

  // handlers read the newest state without being re-created on every change
  const stateRef = useRef<BoardState | null>(state)
  stateRef.current = state
  /** The newest move request per card: an older request's answer must not undo a newer move. */
  const moveSeq = useRef(new Map<string, number>())
  const dragFrom = useRef<{ columnId: string; index: number; card: Card } | null>(null)

  const say = useCallback((text: string) => setNotice({ id: Date.now(), text }), [])
  useEffect(() => {
    if (notice === null) return
    const timer = setTimeout(() => setNotice(null), 8000)
    return () => clearTimeout(timer)
  }, [notice])

  const onEvent = useCallback((event: StreamEvent) => {
    const action = actionOfEvent(event.type, event.data.object)
    if (action !== undefined) dispatch(action)
  }, [])

  /**
   * Reads the board (first, and again when a stream was refused) and answers its snapshot's
   * event cursor, where the stream starts; undefined when it could not be read (tried again),
   * null when it never will be (the project is gone or not the person's).
   */
  const load = useCallback(async (): Promise<string | undefined | null> => {
    let board: Board
    try {
      board = await api<Board>("GET", `/v1/board/${encodeURIComponent(projectId)}`)
    } catch (e) {
      // gone or not yours: nothing to retry; anything else (the server restarting, the network) is tried again
      const final = e instanceof ApiError && (e.status === 403 || e.status === 404)
      if (final) setLoadError(errorText(e))
      else if (stateRef.current === null) setLoadError(`${errorText(e)} Trying again…`)
      else say(`Could not read the board again: ${errorText(e)} Trying again…`)
      return final ? null : undefined
    }
    setLoadError(null)
    dispatch({ type: "load", board })
    try {
      const [memberList, ...sessionLists] = await Promise.all([
        api<Array<Member>>("GET", `/v1/workspaces/${board.project.workspaceId}/members`),
        ...(["active", "awaitingInput", "error"] as const).map((status) =>
          api<Array<AgentSession>>("GET", `/v1/projects/${projectId}/agent-sessions?status=${status}`)
        )
      ])
      setMembers(new Map(memberList.map((m) => [m.userId, m.fullName || m.email])))
      dispatch({ type: "sessions", sessions: sessionLists.flat() })
    } catch (e) {
      say(`Could not load the whole board: ${errorText(e)}`)
    }
    return board.eventCursor
  }, [projectId, say])

  const live = useProjectEvents(projectId, onEvent, load)

  useEffect(() => {
    if (state === null || markedInteractive) return
    markedInteractive = true
    // after the commit that shows the columns and cards, with the sensors in place
    performance.mark("board-interactive")
  }, [state])

  const projectName = state?.project.name
  useEffect(() => {
    if (projectName !== undefined) document.title = `${projectName} · Board`
  }, [projectName])

  /** Sends a move the page already shows; puts the card back when the server refuses it. */
  const commitMove = useCallback(
    async (card: Card, from: { columnId: string; index: number }, columnId: string, index: number) => {
      const seq = (moveSeq.current.get(card.id) ?? 0) + 1
      moveSeq.current.set(card.id, seq)
      try {
        await api<Card>("POST", `/v1/cards/${card.id}/move`, { columnId, position: index })
        // the stream's card.moved places it where the server put it
      } catch (e) {
        if (moveSeq.current.get(card.id) !== seq) return
        dispatch({ type: "placeCard", card, columnId: from.columnId, index: from.index })
        say(`Could not move “${card.title}”: ${errorText(e)}`)
      }
    },
    [say]
  )

  const cardActions = useMemo<CardActions>(
    () => ({
      open: (cardId) => navigate(`/p/${projectId}?card=${encodeURIComponent(cardId)}`),
      canMove: (cardId) => {
        const s = stateRef.current
        const can = (d: Direction) => s !== null && stepTarget(s, cardId, d) !== undefined
        return { left: can("left"), right: can("right"), up: can("up"), down: can("down") }
      },
      move: (cardId, direction) => {
        const s = stateRef.current
        const card = s?.cards[cardId]
        const t = s === null ? undefined : stepTarget(s, cardId, direction)
        if (s === null || card === undefined || t === undefined) return
        dispatch({ type: "placeCard", card, columnId: t.to, index: t.toIndex })
        const column = s.columns.find((c) => c.id === t.to)
        say(`Moved “${card.title}” to ${column?.name ?? "its column"}, position ${t.toIndex + 1}.`)
        focusCard(cardId)
        void commitMove(card, t, t.to, t.toIndex)
      }
    }),
    [navigate, projectId, commitMove, say]
  )

  const columnActions = useMemo<ColumnActions>(
    () => ({
      addCard: async (columnId, title) => {
        try {
          const card = await api<Card>("POST", "/v1/cards", { projectId, columnId, title })
          dispatch({ type: "upsertCard", card, moved: true })
          return true
        } catch (e) {
          say(`Could not add the card: ${errorText(e)}`)
          return false
        }
      },
      rename: async (columnId, name) => {
        try {
          dispatch({ type: "upsertColumn", column: await api<Column>("PATCH", `/v1/columns/${columnId}`, { name }) })
          return true
        } catch (e) {
          say(`Could not rename the column: ${errorText(e)}`)
          return false
        }
      },
      setKind: (columnId, kind) => {
        api<Column>("PATCH", `/v1/columns/${columnId}`, { kind })
          .then((column) => dispatch({ type: "upsertColumn", column }))
          .catch((e: unknown) => say(`Could not set the column's kind: ${errorText(e)}`))
      },
      shift: (columnId, by) => {
        const s = stateRef.current
        const index = s?.columns.findIndex((c) => c.id === columnId) ?? -1
        const column = s?.columns[index]
        if (column === undefined) return
        const position = index + by
        dispatch({ type: "upsertColumn", column: { ...column, position } })
        api<Column>("PATCH", `/v1/columns/${columnId}`, { position }).catch((e: unknown) => {
          dispatch({ type: "upsertColumn", column: { ...column, position: index } })
          say(`Could not move the column: ${errorText(e)}`)
        })
      },
      remove: (columnId) => {
        const column = stateRef.current?.columns.find((c) => c.id === columnId)
        if (column === undefined || !window.confirm(`Delete the column “${column.name}”?`)) return
        api("DELETE", `/v1/columns/${columnId}`)
          .then(() => dispatch({ type: "removeColumn", columnId }))
          .catch((e: unknown) => say(`Could not delete “${column.name}”: ${errorText(e)}`))
      }
    }),
    [projectId, say]
  )

  const target = useRef<{ columnId: string; index: number } | null>(null)
  const track = (columnId: string | undefined, activeId: string, centerY: number | undefined) => {
    if (columnId === undefined || centerY === undefined) return
    const l = landing(columnId, activeId, centerY)
    const previous = target.current
    if (previous?.columnId === l.columnId && previous.index === l.index) return
    target.current = { columnId: l.columnId, index: l.index }
    setHint(hintOf(l))
  }

  // Keyboard dragging moves the card one place: up and down within the column, left and right
  // to the same place in the next column. The coordinates put the card's centre just above the
  // card it will land before (or below the last one), where `landing` finds it.
  const keyboardCoordinates = useCallback<KeyboardCoordinateGetter>((event, { context, currentCoordinates }) => {
    const s = stateRef.current
    const active = context.active
    const rect = context.collisionRect
    const now = target.current
    const step: Record<string, [number, number]> = {
      ArrowRight: [1, 0],
      ArrowLeft: [-1, 0],
      ArrowDown: [0, 1],
      ArrowUp: [0, -1]
    }
    const [dx, dy] = step[event.code] ?? [0, 0]
    if ((dx === 0 && dy === 0) || s === null || active === null || rect === null || now === null) return undefined
    event.preventDefault()
    const c = s.columns.findIndex((col) => col.id === now.columnId)
    const column = s.columns[c + dx]
    if (column === undefined) return currentCoordinates
    const l = landing(column.id, String(active.id), Number.NEGATIVE_INFINITY)
    const index = Math.max(0, Math.min(l.others.length, now.index + dy))
    const listRect = document
      .querySelector(`[data-column-id="${CSS.escape(column.id)}"] ul.cards`)
      ?.getBoundingClientRect()
    if (listRect === undefined) return currentCoordinates
    const next = l.others[index]?.getBoundingClientRect()
    const last = l.others[l.others.length - 1]?.getBoundingClientRect()
    const centerY = next !== undefined ? next.top : last !== undefined ? last.bottom + 1 : listRect.top + 1
    return { x: listRect.left, y: centerY - rect.height / 2 }
  }, [])

  // drag and drop: mouse and touch after 5 px (so a click still opens the card), keyboard with Space
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ["Space"], cancel: ["Escape"], end: ["Space", "Enter"] }
    })
  )

  const centerOf = (active: Active) => {
    const r = active.rect.current.translated
    return r === null ? undefined : r.top + r.height / 2
  }

  const onDragStart = ({ active }: DragStartEvent) => {
    const s = stateRef.current
    const at = s === null ? undefined : locate(s, String(active.id))
    const card = s?.cards[String(active.id)]
    dragFrom.current = at === undefined || card === undefined ? null : { ...at, card }
    target.current = at === undefined ? null : { columnId: at.columnId, index: at.index }
    setActiveId(String(active.id))
  }

  const onDragMove = ({ active, over }: DragMoveEvent) =>
    track(over?.id as string | undefined, String(active.id), centerOf(active))

  const finish = () => {
    setActiveId(null)
    setHint(null)
    const from = dragFrom.current
    dragFrom.current = null
    const to = target.current
    target.current = null
    return { from, to }
  }

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    track(over?.id as string | undefined, String(active.id), centerOf(active))
    const { from, to } = finish()
    if (from === null || to === null || over === null) return
    if (to.columnId === from.columnId && to.index === from.index) return
    dispatch({ type: "placeCard", card: from.card, columnId: to.columnId, index: to.index })
    void commitMove(from.card, from, to.columnId, to.index)
  }

  const onDragCancel = () => void finish()

  // what a screen reader hears while a card is dragged: the card's title, the column and the place
  const announcements = useMemo<Announcements>(() => {
    const title = (id: UniqueIdentifier) => {
      const card = stateRef.current?.cards[String(id)]
      return card === undefined ? "the card" : `“${card.title}”`
    }
    const place = () => {
      const s = stateRef.current
      const t = target.current
      const column = t === null ? undefined : s?.columns.find((c) => c.id === t.columnId)
      return column === undefined || t === null ? "its column" : `${column.name}, position ${t.index + 1}`
    }
    let last = ""
    const once = (text: string) => {
      if (text === last) return undefined
      last = text
      return text
    }
    return {
      onDragStart: ({ active }) =>
        once(`Picked up ${title(active.id)} in ${place()}. Arrow keys move it, Space drops it, Escape cancels.`),
      onDragMove: ({ active }) => once(`${title(active.id)} is over ${place()}.`),
      onDragOver: ({ active }) => once(`${title(active.id)} is over ${place()}.`),
      onDragEnd: ({ active }) => once(`Dropped ${title(active.id)} in ${place()}.`),
      onDragCancel: ({ active }) => once(`Moving ${title(active.id)} was cancelled; it is back where it was.`)
    }
  }, [])

  if (loadError !== null)
    return (
      <>
        <h1>Board unavailable</h1>
        <p role="alert" className="error">
          {loadError}
        </p>
      </>
    )
  if (state === null)
    return (
      <>
        <h1 className="visually-hidden">Board</h1>
        <p className="muted" aria-busy="true">
          Loading the board…
        </p>
      </>
    )

  const activeCard = activeId === null ? undefined : state.cards[activeId]
  return (
    <div className="board-page">
      <div className="board-toolbar">
        <h1 className="board-title">{state.project.name}</h1>
        <LiveIndicator status={live} />
        <BoardSearch projectId={projectId} />
      </div>
      <p className="notice" role="status" aria-live="polite">
        {notice?.text}
        {notice !== null && (
          <button type="button" className="icon-button" aria-label="Dismiss message" onClick={() => setNotice(null)}>
            ×
          </button>
        )}
      </p>
      <DndContext
        sensors={sensors}
        collisionDetection={columnUnder}
        onDragStart={onDragStart}
        onDragMove={onDragMove}
        onDragEnd={onDragEnd}
        onDragCancel={onDragCancel}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              "Press Space to pick the card up, arrow keys to move it, Space to drop it, Escape to cancel. Alt with an arrow key moves it one step. Enter opens it."
          }
        }}
      >
        <div className="board">
          {state.columns.map((column, index) => (
            <BoardColumn
              key={column.id}
              column={column}
              index={index}
              columnCount={state.columns.length}
              cardIds={state.order[column.id] ?? []}
              cards={state.cards}
              sessions={state.sessions}
              memberNames={members}
              cardActions={cardActions}
              columnActions={columnActions}
              dropHint={hint?.columnId === column.id ? hint : undefined}
            />
          ))}
          <AddColumn projectId={projectId} position={state.columns.length} dispatch={dispatch} say={say} />
        </div>
        <DragOverlay>
          {activeCard === undefined ? null : (
            <div className="card overlay">
              <div className="card-handle">
                <CardFace
                  card={activeCard}
                  sessionStatus={activeCard.claim === null ? undefined : state.sessions[activeCard.claim.sessionId]}
                  memberNames={members}
                  columnKind={state.columns.find((c) => c.id === activeCard.columnId)?.kind}
                />
              </div>
            </div>
          )}
        </DragOverlay>
      </DndContext>
      {openCardId !== null && (
        <CardPanel cardId={openCardId} projectId={projectId} onClose={() => navigate(`/p/${projectId}`)} />
      )}
    </div>
  )
}

function LiveIndicator({ status }: { status: LiveStatus }) {
  const text = {
    live: "Live",
    connecting: "Connecting…",
    catchingUp: "Catching up…",
    reconnecting: "Reconnecting…"
  }[status]
  return (
    <span className={`live live-${status}`} role="status" title="Changes by others appear here as they happen">
      <span aria-hidden="true" className="live-dot" />
      {text}
    </span>
  )
}

function AddColumn({
  projectId,
  position,
  dispatch,
  say
}: {
  projectId: string
  position: number
  dispatch: (a: BoardAction) => void
  say: (text: string) => void
}) {
  const [open, setOpen] = useState(false)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const name = String(new FormData(form).get("name") ?? "").trim()
    if (name === "") return
    try {
      const column = await api<Column>("POST", "/v1/columns", { projectId, name, position })
      dispatch({ type: "upsertColumn", column })
      form.reset()
      setOpen(false)
    } catch (err) {
      say(`Could not add the column: ${errorText(err)}`)
    }
  }
  if (!open)
    return (
      <button type="button" className="add-column-button" onClick={() => setOpen(true)}>
        + Add a column
      </button>
    )
  return (
    <form className="add-column" onSubmit={(e) => void submit(e)}>
      <input
        name="name"
        aria-label="Name of the new column"
        placeholder="Column name"
        required
        maxLength={200}
        // biome-ignore lint/a11y/noAutofocus: the person just asked to add a column
        autoFocus
        onKeyDown={(e) => e.key === "Escape" && setOpen(false)}
      />
      <div className="row">
        <button type="submit" className="button primary small">
          Add column
        </button>
        <button type="button" className="button small ghost" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}
