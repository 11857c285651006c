/**
 * What a person does to the board: move a card (shown at once, sent to
 * `POST /v1/cards/{id}/move`, put back with a message when the server refuses), add a card, and
 * add, rename, set the kind of, reorder and delete columns. Each change goes through the board's
 * reducer, so it shows the same way as the stream's events.
 */
import { type RefObject, useCallback, useMemo, useRef } from "react"
import { api } from "../api.ts"
import type { CardActions, Direction } from "../components/BoardCard.tsx"
import type { ColumnActions } from "../components/BoardColumn.tsx"
import { type BoardAction, type BoardState, stepTarget } from "../lib/boardState.ts"
import type { paths } from "../lib/api-types.ts"
import type { Card } from "../types.ts"

type ColumnPatch = NonNullable<paths["/v1/columns/{id}"]["patch"]["requestBody"]>["content"]["application/json"]

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** After a keyboard move the card may be in another column (a new element): focus it again. */
const focusCard = (cardId: string) =>
  requestAnimationFrame(() =>
    document.querySelector<HTMLElement>(`[data-card-handle="${CSS.escape(cardId)}"]`)?.focus()
  )

export interface BoardActions {
  readonly cardActions: CardActions
  readonly columnActions: ColumnActions
  /** Sends a move the page already shows; puts the card back when the server refuses it. */
  readonly commitMove: (card: Card, from: { columnId: string; index: number }, columnId: string, index: number) => void
  /** Adds a column at `position`; resolves whether it was added. */
  readonly addColumn: (name: string, position: number) => Promise<boolean>
}

export const useBoardActions = ({
  projectId,
  stateRef,
  dispatch,
  say,
  openCard
}: {
  projectId: string
  stateRef: RefObject<BoardState | null>
  dispatch: (action: BoardAction) => void
  say: (text: string) => void
  openCard: (cardId: string) => void
}): BoardActions => {
  /** The newest move request per card: an older request's answer must not undo a newer move. */
  const moveSeq = useRef(new Map<string, number>())

  const commitMove = useCallback(
    (card: Card, from: { columnId: string; index: number }, columnId: string, index: number) => {
      const seq = (moveSeq.current.get(card.id) ?? 0) + 1
      moveSeq.current.set(card.id, seq)
      // the stream's card.moved places it where the server put it
      api
        .POST("/v1/cards/{id}/move", { params: { path: { id: card.id } }, body: { columnId, position: index } })
        .catch((e: unknown) => {
          if (moveSeq.current.get(card.id) !== seq) return
          dispatch({ type: "placeCard", card, columnId: from.columnId, index: from.index })
          say(`Could not move “${card.title}”: ${errorText(e)}`)
        })
    },
    [dispatch, say]
  )

  const cardActions = useMemo<CardActions>(
    () => ({
      open: openCard,
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
        commitMove(card, t, t.to, t.toIndex)
      }
    }),
    [openCard, stateRef, dispatch, commitMove, say]
  )

  const columnActions = useMemo<ColumnActions>(() => {
    const patch = (id: string, body: ColumnPatch) => api.PATCH("/v1/columns/{id}", { params: { path: { id } }, body })
    return {
      addCard: async (columnId, title) => {
        try {
          const card = await api.POST("/v1/cards", { body: { projectId, columnId, title } })
          dispatch({ type: "upsertCard", card, moved: true })
          return true
        } catch (e) {
          say(`Could not add the card: ${errorText(e)}`)
          return false
        }
      },
      rename: async (columnId, name) => {
        try {
          dispatch({ type: "upsertColumn", column: await patch(columnId, { name }) })
          return true
        } catch (e) {
          say(`Could not rename the column: ${errorText(e)}`)
          return false
        }
      },
      setKind: (columnId, kind) => {
        patch(columnId, { kind })
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
        patch(columnId, { position }).catch((e: unknown) => {
          dispatch({ type: "upsertColumn", column: { ...column, position: index } })
          say(`Could not move the column: ${errorText(e)}`)
        })
      },
      remove: (columnId) => {
        const column = stateRef.current?.columns.find((c) => c.id === columnId)
        if (column === undefined || !window.confirm(`Delete the column “${column.name}”?`)) return
        api
          .DELETE("/v1/columns/{id}", { params: { path: { id: columnId } } })
          .then(() => dispatch({ type: "removeColumn", columnId }))
          .catch((e: unknown) => say(`Could not delete “${column.name}”: ${errorText(e)}`))
      }
    }
  }, [projectId, stateRef, dispatch, say])

  const addColumn = useCallback(
    async (name: string, position: number) => {
      try {
        const column = await api.POST("/v1/columns", { body: { projectId, name, position } })
        dispatch({ type: "upsertColumn", column })
        return true
      } catch (e) {
        say(`Could not add the column: ${errorText(e)}`)
        return false
      }
    },
    [projectId, dispatch, say]
  )

  return { cardActions, columnActions, commitMove, addColumn }
}
