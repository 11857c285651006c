/**
 * The board as the page holds it, and every change to it (a load, a move the person makes, an
 * event from the live stream) as one pure reducer, so the same rule places a card whether the
 * person dragged it or an agent moved it.
 *
 * Shape for speed with 1,000 cards: cards by id plus, per column, the ordered ids. A change to
 * one card replaces that card's object and the one or two id lists it touches; every other card
 * keeps its identity, so memoised card components skip their render.
 */
import type { AgentSession, Board, Card, Column, Label, Project, Subtask } from "../types.ts"

export type SessionStatus = AgentSession["status"]

export interface BoardState {
  readonly project: Project
  /** In board order. */
  readonly columns: ReadonlyArray<Column>
  readonly cards: Readonly<Record<string, Card>>
  /** Card ids per column id, in position order. */
  readonly order: Readonly<Record<string, ReadonlyArray<string>>>
  readonly labels: ReadonlyArray<Label>
  /** Live agent sessions' statuses by session id (a card's claim names its session). */
  readonly sessions: Readonly<Record<string, SessionStatus>>
}

export type BoardAction =
  | { readonly type: "load"; readonly board: Board }
  | { readonly type: "sessions"; readonly sessions: ReadonlyArray<AgentSession> }
  /** A card placed at `index` of `columnId` (a move, or a card created or changed elsewhere). */
  | { readonly type: "placeCard"; readonly card: Card; readonly columnId: string; readonly index: number }
  /** A card's new state; `moved`: its place is the card's `position` (else it keeps its place). */
  | { readonly type: "upsertCard"; readonly card: Card; readonly moved: boolean }
  | { readonly type: "removeCard"; readonly cardId: string }
  | { readonly type: "subtask"; readonly subtask: Subtask; readonly deleted: boolean }
  | { readonly type: "upsertColumn"; readonly column: Column }
  | { readonly type: "removeColumn"; readonly columnId: string }
  | { readonly type: "label"; readonly label: Label }
  | { readonly type: "session"; readonly session: AgentSession }
  /** A linked pull request changed: the card's compact mark as the event says it is now. */
  | { readonly type: "pullRequestMark"; readonly cardId: string; readonly mark: Card["pullRequestMark"] }
  /** Put back a snapshot (a failed optimistic change). */
  | { readonly type: "restore"; readonly state: BoardState }

const liveStatuses: ReadonlyArray<SessionStatus> = ["active", "awaitingInput", "error"]
export const isLive = (status: SessionStatus) => liveStatuses.includes(status)

export const fromBoard = (board: Board): BoardState => {
  const order: Record<string, Array<string>> = {}
  for (const column of board.columns) order[column.id] = []
  const cards: Record<string, Card> = {}
  // the board lists cards in column order, then position order
  for (const card of board.cards) {
    cards[card.id] = card
    const ids = order[card.columnId] ?? []
    ids.push(card.id)
    order[card.columnId] = ids
  }
  return {
    project: board.project,
    columns: [...board.columns].sort((a, b) => a.position - b.position),
    cards,
    order,
    labels: board.labels,
    sessions: {}
  }
}

const without = (ids: ReadonlyArray<string> | undefined, id: string) => (ids ?? []).filter((x) => x !== id)

const insertAt = <T>(list: ReadonlyArray<T>, index: number, item: T): Array<T> => {
  const at = Math.max(0, Math.min(index, list.length))
  return [...list.slice(0, at), item, ...list.slice(at)]
}

/** Where a card is now: its column and index, or undefined. */
export const locate = (state: BoardState, cardId: string): { columnId: string; index: number } | undefined => {
  const card = state.cards[cardId]
  if (card === undefined) return undefined
  const index = (state.order[card.columnId] ?? []).indexOf(cardId)
  return index < 0 ? undefined : { columnId: card.columnId, index }
}

export type Direction = "left" | "right" | "up" | "down"

/**
 * Where one step in a direction takes a card (`to`, `toIndex`, with where it is now), or
 * undefined at the board's edge: up and down within its column, left and right to the same row
 * of the next column, or that column's end.
 */
export const stepTarget = (s: BoardState, cardId: string, direction: Direction) => {
  const at = locate(s, cardId)
  if (at === undefined) return undefined
  const length = s.order[at.columnId]?.length ?? 0
  if (direction === "up") return at.index > 0 ? { ...at, to: at.columnId, toIndex: at.index - 1 } : undefined
  if (direction === "down") return at.index < length - 1 ? { ...at, to: at.columnId, toIndex: at.index + 1 } : undefined
  const c = s.columns.findIndex((col) => col.id === at.columnId)
  const next = s.columns[direction === "left" ? c - 1 : c + 1]
  if (c < 0 || next === undefined) return undefined
  return { ...at, to: next.id, toIndex: Math.min(at.index, s.order[next.id]?.length ?? 0) }
}

const place = (state: BoardState, card: Card, columnId: string, index: number): BoardState => {
  const previous = state.cards[card.id]
  const order = { ...state.order }
  if (previous !== undefined) order[previous.columnId] = without(order[previous.columnId], card.id)
  // a card of a column this page does not know yet (its column.created is on its way): keep it
  order[columnId] = insertAt(order[columnId] ?? [], index, card.id)
  return { ...state, cards: { ...state.cards, [card.id]: { ...card, columnId } }, order }
}

export const boardReducer = (state: BoardState | null, action: BoardAction): BoardState | null => {
  if (action.type === "load") return { ...fromBoard(action.board), sessions: state?.sessions ?? {} }
  if (action.type === "restore") return action.state
  if (state === null) return state
  switch (action.type) {
    case "sessions": {
      const sessions = { ...state.sessions }
      for (const s of action.sessions) sessions[s.id] = s.status
      return { ...state, sessions }
    }
    case "placeCard":
      return place(state, action.card, action.columnId, action.index)
    case "upsertCard": {
      // an archived card is off the board, whatever event carries it (an edit of one included)
      if (action.card.archivedAt != null) return boardReducer(state, { type: "removeCard", cardId: action.card.id })
      const previous = state.cards[action.card.id]
      if (previous !== undefined && previous.columnId === action.card.columnId) {
        const index = state.order[previous.columnId]?.indexOf(previous.id) ?? -1
        if (!action.moved || index === action.card.position)
          return { ...state, cards: { ...state.cards, [action.card.id]: action.card } }
      }
      return place(state, action.card, action.card.columnId, action.card.position)
    }
    case "removeCard": {
      const previous = state.cards[action.cardId]
      if (previous === undefined) return state
      const { [action.cardId]: _, ...cards } = state.cards
      return {
        ...state,
        cards,
        order: { ...state.order, [previous.columnId]: without(state.order[previous.columnId], action.cardId) }
      }
    }
    case "subtask": {
      const card = state.cards[action.subtask.cardId]
      if (card === undefined) return state
      const others = card.subtasks.filter((s) => s.id !== action.subtask.id)
      const subtasks = action.deleted ? others : [...others, action.subtask].sort((a, b) => a.position - b.position)
      return { ...state, cards: { ...state.cards, [card.id]: { ...card, subtasks } } }
    }
    case "upsertColumn": {
      const others = state.columns.filter((c) => c.id !== action.column.id)
      // the others' dense positions shift around the one that moved: its position is its index
      const columns = insertAt(others, action.column.position, action.column)
      return { ...state, columns, order: { ...state.order, [action.column.id]: state.order[action.column.id] ?? [] } }
    }
    case "removeColumn": {
      const { [action.columnId]: _, ...order } = state.order
      return { ...state, columns: state.columns.filter((c) => c.id !== action.columnId), order }
    }
    case "label":
      return state.labels.some((l) => l.id === action.label.id)
        ? { ...state, labels: state.labels.map((l) => (l.id === action.label.id ? action.label : l)) }
        : { ...state, labels: [...state.labels, action.label] }
    case "pullRequestMark": {
      const card = state.cards[action.cardId]
      if (card === undefined || card.pullRequestMark === action.mark) return state
      return { ...state, cards: { ...state.cards, [card.id]: { ...card, pullRequestMark: action.mark } } }
    }
    case "session": {
      const s = action.session
      const sessions = { ...state.sessions, [s.id]: s.status }
      const card = state.cards[s.cardId]
      if (card === undefined) return { ...state, sessions }
      let claim = card.claim
      if (isLive(s.status)) claim = { sessionId: s.id, actor: s.actor, leaseExpiresAt: s.leaseExpiresAt }
      else if (claim?.sessionId === s.id) claim = null
      return claim === card.claim
        ? { ...state, sessions }
        : { ...state, sessions, cards: { ...state.cards, [card.id]: { ...card, claim } } }
    }
  }
}

/** An event from the project's stream, as the reducer's action (undefined: nothing on the board changes). */
export const actionOfEvent = (type: string, object: unknown): BoardAction | undefined => {
  switch (type) {
    case "card.created":
    case "card.moved":
    case "card.restored":
      return { type: "upsertCard", card: object as Card, moved: true }
    case "card.updated":
    case "card.label_added":
    case "card.label_removed":
    case "card.assigned":
    case "card.shipped":
      return { type: "upsertCard", card: object as Card, moved: false }
    case "card.pull_request_linked":
    case "card.pull_request_updated": {
      // the object is the link, not the card: it carries the card's new compact mark
      const o = object as { cardId?: unknown; pullRequestMark?: Card["pullRequestMark"] }
      return typeof o.cardId === "string" && o.pullRequestMark !== undefined
        ? { type: "pullRequestMark", cardId: o.cardId, mark: o.pullRequestMark }
        : undefined
    }
    case "card.deleted":
    case "card.archived":
      return { type: "removeCard", cardId: (object as Card).id }
    case "subtask.created":
    case "subtask.toggled":
      return { type: "subtask", subtask: object as Subtask, deleted: false }
    case "subtask.deleted":
      return { type: "subtask", subtask: object as Subtask, deleted: true }
    case "column.created":
    case "column.updated":
      return { type: "upsertColumn", column: object as Column }
    case "column.deleted":
      return { type: "removeColumn", columnId: (object as Column).id }
    case "label.created":
      return { type: "label", label: object as Label }
    case "agent_session.created":
    case "agent_session.updated":
    case "agent_session.stale":
    case "agent_session.completed":
      return { type: "session", session: object as AgentSession }
    default:
      return undefined
  }
}

/**
 * The card an event changes (for the card panel's copy of it), and the card itself when the
 * event carries it whole; undefined when the event is not about one card.
 */
export const cardOfEvent = (type: string, object: unknown): { cardId: string; card?: Card } | undefined => {
  const o = object as { id?: unknown; cardId?: unknown } | null
  if (o === null || typeof o !== "object") return undefined
  if (type.startsWith("card.") && typeof o.id === "string")
    return type === "card.deleted" ? { cardId: o.id } : { cardId: o.id, card: object as Card }
  if (
    (type.startsWith("subtask.") ||
      type.startsWith("agent_session.") ||
      type === "card.pull_request_linked" ||
      type === "card.pull_request_updated" ||
      type === "card.commit_linked") &&
    typeof o.cardId === "string"
  )
    return { cardId: o.cardId }
  return undefined
}
