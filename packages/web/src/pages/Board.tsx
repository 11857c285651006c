/**
 * `/p/:projectId`: the board. The live board (hooks/useLiveBoard.ts: read, then the project's
 * event stream from the board's own cursor, every event through one reducer), what a person
 * does to it (hooks/useBoardActions.ts: a move shows at once and is put back, with a message,
 * when the server refuses it) and dragging (hooks/useBoardDrag.ts) are hooks; this page lays
 * them out. `?card=<id>` opens the card panel, which shares the page's board (lib/boardContext.ts).
 */
import { DndContext, DragOverlay } from "@dnd-kit/core"
import { type FormEvent, useCallback, useEffect, useMemo, useState } from "react"
import { useLocation, useSearch } from "wouter"
import { CardFace } from "../components/BoardCard.tsx"
import { BoardColumn } from "../components/BoardColumn.tsx"
import { BoardSearch } from "../components/BoardSearch.tsx"
import { CardPanel } from "../components/CardPanel.tsx"
import { useBoardActions } from "../hooks/useBoardActions.ts"
import { columnUnder, useBoardDrag } from "../hooks/useBoardDrag.ts"
import { useLiveBoard } from "../hooks/useLiveBoard.ts"
import { agentMemberIds, memberNames } from "../lib/actors.ts"
import { BoardContext, type BoardView } from "../lib/boardContext.ts"
import type { LiveStatus } from "../lib/liveEvents.ts"
import "../board.css"

/** Keeps the page's one board-interactive mark (pnpm bench reads it) to the first full render. */
let markedInteractive = false

export function BoardPage({ projectId }: { projectId: string }) {
  const [notice, setNotice] = useState<{ id: number; text: string } | null>(null)
  const [, navigate] = useLocation()
  const search = useSearch()
  const openCardId = new URLSearchParams(search).get("card")

  const say = useCallback((text: string) => setNotice({ id: Date.now(), text }), [])
  useEffect(() => {
    if (notice === null) return
    const timer = setTimeout(() => setNotice(null), 8000)
    return () => clearTimeout(timer)
  }, [notice])

  const { state, stateRef, dispatch, live, loadError, members, role } = useLiveBoard(projectId, say)
  const readOnly = role === "viewer"
  const names = useMemo(() => memberNames(members), [members])
  const agentIds = useMemo(() => agentMemberIds(members), [members])
  const openCard = useCallback(
    (cardId: string) => navigate(`/p/${projectId}?card=${encodeURIComponent(cardId)}`),
    [navigate, projectId]
  )
  const { cardActions, columnActions, commitMove, addColumn } = useBoardActions({
    projectId,
    stateRef,
    dispatch,
    say,
    openCard
  })
  const drag = useBoardDrag({ stateRef, dispatch, commitMove })
  const view = useMemo<BoardView | null>(
    () => (state === null ? null : { state, members, dispatch }),
    [state, members, dispatch]
  )

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

  const activeCard = drag.activeId === null ? undefined : state.cards[drag.activeId]
  return (
    <div className="board-page">
      <div className="board-toolbar">
        <h1 className="board-title">{state.project.name}</h1>
        <LiveIndicator status={live} />
        <BoardSearch projectId={projectId} />
      </div>
      {readOnly && (
        <p className="readonly-note muted" data-read-only="true">
          Read-only: you are a viewer in this workspace. Ask an admin to make you a member to change this board.
        </p>
      )}
      <p className="notice" role="status" aria-live="polite">
        {notice?.text}
        {notice !== null && (
          <button type="button" className="icon-button" aria-label="Dismiss message" onClick={() => setNotice(null)}>
            ×
          </button>
        )}
      </p>
      <DndContext
        sensors={drag.sensors}
        collisionDetection={columnUnder}
        onDragStart={drag.onDragStart}
        onDragMove={drag.onDragMove}
        onDragEnd={drag.onDragEnd}
        onDragCancel={drag.onDragCancel}
        accessibility={{
          announcements: drag.announcements,
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
              memberNames={names}
              agentIds={agentIds}
              cardActions={cardActions}
              columnActions={columnActions}
              dropHint={drag.hint?.columnId === column.id ? drag.hint : undefined}
              readOnly={readOnly}
            />
          ))}
          {!readOnly && <AddColumn position={state.columns.length} addColumn={addColumn} />}
        </div>
        <DragOverlay>
          {activeCard === undefined ? null : (
            <div className="card overlay">
              <div className="card-handle">
                <CardFace
                  card={activeCard}
                  sessionStatus={activeCard.claim === null ? undefined : state.sessions[activeCard.claim.sessionId]}
                  memberNames={names}
                  agentIds={agentIds}
                  columnKind={state.columns.find((c) => c.id === activeCard.columnId)?.kind}
                />
              </div>
            </div>
          )}
        </DragOverlay>
      </DndContext>
      {openCardId !== null && (
        <BoardContext.Provider value={view}>
          <CardPanel cardId={openCardId} onClose={() => navigate(`/p/${projectId}`)} />
        </BoardContext.Provider>
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
  position,
  addColumn
}: {
  position: number
  addColumn: (name: string, position: number) => Promise<boolean>
}) {
  const [open, setOpen] = useState(false)
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const name = String(new FormData(form).get("name") ?? "").trim()
    if (name === "") return
    if (await addColumn(name, position)) {
      form.reset()
      setOpen(false)
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
