/**
 * Dragging cards with dnd-kit: mouse and touch after 5 px (so a click still opens the card), the
 * keyboard with Space (arrows move the card one place, Space or Enter drops it, Escape cancels),
 * where a dragged card would land, the hint line that shows it, and what a screen reader hears.
 * A drop is shown at once and sent by `commitMove` (hooks/useBoardActions.ts).
 */
import {
  type Active,
  type Announcements,
  type CollisionDetection,
  closestCorners,
  type DragEndEvent,
  type DragMoveEvent,
  type DragStartEvent,
  type KeyboardCoordinateGetter,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  type UniqueIdentifier,
  useSensor,
  useSensors
} from "@dnd-kit/core"
import { type RefObject, useCallback, useMemo, useRef, useState } from "react"
import type { DropHint } from "../components/BoardColumn.tsx"
import { type BoardAction, type BoardState, locate } from "../lib/boardState.ts"
import type { Card } from "../types.ts"

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
export const columnUnder: CollisionDetection = (args) => {
  const under = pointerWithin(args)
  return under.length > 0 ? under : closestCorners(args)
}

const centerOf = (active: Active) => {
  const r = active.rect.current.translated
  return r === null ? undefined : r.top + r.height / 2
}

export const useBoardDrag = ({
  stateRef,
  dispatch,
  commitMove
}: {
  stateRef: RefObject<BoardState | null>
  dispatch: (action: BoardAction) => void
  commitMove: (card: Card, from: { columnId: string; index: number }, columnId: string, index: number) => void
}) => {
  const [activeId, setActiveId] = useState<string | null>(null)
  const [hint, setHint] = useState<(DropHint & { columnId: string }) | null>(null)
  const dragFrom = useRef<{ columnId: string; index: number; card: Card } | null>(null)
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
  const keyboardCoordinates = useCallback<KeyboardCoordinateGetter>(
    (event, { context, currentCoordinates }) => {
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
    },
    [stateRef]
  )

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: keyboardCoordinates,
      keyboardCodes: { start: ["Space"], cancel: ["Escape"], end: ["Space", "Enter"] }
    })
  )

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
    commitMove(from.card, from, to.columnId, to.index)
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
  }, [stateRef])

  return { activeId, hint, sensors, onDragStart, onDragMove, onDragEnd, onDragCancel, announcements }
}
