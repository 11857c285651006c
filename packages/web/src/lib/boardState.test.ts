/**
 * The board's reducer (boardState.ts): the one rule that places a card whether the person moved
 * it or an event from the stream did, and what each event does to the board.
 */
import { describe, expect, it } from "vitest"
import type { AgentSession, Board, Card, Column, Label, Subtask } from "../types.ts"
import {
  type BoardState,
  actionOfEvent,
  boardReducer,
  cardOfEvent,
  fromBoard,
  isLive,
  locate,
  stepTarget
} from "./boardState.ts"

const at = "2026-05-01T12:00:00.000Z"
const column = (id: string, position: number, kind: Column["kind"] = "todo"): Column => ({
  id,
  projectId: "p",
  name: id.toUpperCase(),
  position,
  kind,
  createdAt: at,
  updatedAt: at
})
const card = (id: string, columnId: string, position: number, more: Partial<Card> = {}): Card => ({
  id,
  projectId: "p",
  columnId,
  position,
  ref: `WEB-${id}`,
  title: `Card ${id}`,
  description: null,
  priority: "medium",
  labels: [],
  subtasks: [],
  assigneeIds: [],
  dueAt: null,
  source: "api",
  intakeTokenId: null,
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
  claim: null,
  shippedAt: null,
  shippedTo: null,
  pullRequestMark: null,
  ...more
})
const label = (id: string, name: string): Label => ({
  id,
  projectId: "p",
  name,
  color: null,
  createdAt: at,
  updatedAt: at
})
const subtask = (id: string, cardId: string, position: number, completed = false): Subtask => ({
  id,
  cardId,
  title: `Subtask ${id}`,
  completed,
  position,
  createdAt: at,
  updatedAt: at
})
const session = (id: string, cardId: string, status: AgentSession["status"]): AgentSession => ({
  id,
  cardId,
  projectId: "p",
  actor: { type: "agent", userId: "u", name: "Claude" },
  status,
  leaseExpiresAt: at,
  createdAt: at,
  updatedAt: at
})

/** To Do: a, b, c; Doing: d; Done: empty. The board lists columns out of order on purpose. */
const board: Board = {
  project: {
    id: "p",
    workspaceId: "w",
    name: "Web",
    refPrefix: "WEB",
    archivedAt: null,
    automation: { pullRequestOpened: true, pullRequestMerged: true },
    createdAt: at,
    updatedAt: at
  },
  columns: [column("done", 2, "done"), column("todo", 0), column("doing", 1, "in_progress")],
  cards: [card("a", "todo", 0), card("b", "todo", 1), card("c", "todo", 2), card("d", "doing", 0)],
  labels: [label("l1", "bug")],
  eventCursor: "0".repeat(24)
}

const loaded = (): BoardState => boardReducer(null, { type: "load", board })!
const ids = (s: BoardState | null, columnId: string) => s?.order[columnId]

describe("the board's state", () => {
  it("is the board by column: columns in position order, each column's card ids in order, empty columns too", () => {
    const s = fromBoard(board)
    expect(s.columns.map((c) => c.id)).toEqual(["todo", "doing", "done"])
    expect(s.order).toEqual({ todo: ["a", "b", "c"], doing: ["d"], done: [] })
    expect(Object.keys(s.cards).sort()).toEqual(["a", "b", "c", "d"])
    expect(s.sessions).toEqual({})
    expect(locate(s, "c")).toEqual({ columnId: "todo", index: 2 })
    expect(locate(s, "nope")).toBeUndefined()
  })

  it("ignores every change before the board is read, but a load or a restore", () => {
    expect(boardReducer(null, { type: "removeCard", cardId: "a" })).toBeNull()
    expect(boardReducer(null, { type: "upsertCard", card: card("a", "todo", 0), moved: true })).toBeNull()
    const s = loaded()
    expect(boardReducer(null, { type: "restore", state: s })).toBe(s)
  })

  it("a reload keeps the live sessions it knew (they are read after the board)", () => {
    const s = boardReducer(loaded(), { type: "sessions", sessions: [session("s1", "a", "active")] })
    expect(boardReducer(s, { type: "load", board })?.sessions).toEqual({ s1: "active" })
  })

  it("places a moved card in another column at its index, and keeps every other card's object", () => {
    const s = loaded()
    const next = boardReducer(s, { type: "placeCard", card: s.cards.b!, columnId: "doing", index: 0 })!
    expect(ids(next, "todo")).toEqual(["a", "c"])
    expect(ids(next, "doing")).toEqual(["b", "d"])
    expect(next.cards.b?.columnId).toBe("doing")
    // memoised card components skip cards whose object did not change
    expect(next.cards.a).toBe(s.cards.a)
    expect(next.cards.d).toBe(s.cards.d)
    // and a column the move did not touch keeps its list
    expect(next.order.done).toBe(s.order.done)
  })

  it("reorders within a column, and clamps an index past the end to the end", () => {
    const s = loaded()
    expect(ids(boardReducer(s, { type: "placeCard", card: s.cards.a!, columnId: "todo", index: 2 }), "todo")).toEqual([
      "b",
      "c",
      "a"
    ])
    expect(ids(boardReducer(s, { type: "placeCard", card: s.cards.a!, columnId: "done", index: 9 }), "done")).toEqual([
      "a"
    ])
  })

  it("keeps a card of a column it does not know yet (the column's event is on its way)", () => {
    const next = boardReducer(loaded(), { type: "placeCard", card: card("e", "new", 0), columnId: "new", index: 0 })
    expect(ids(next, "new")).toEqual(["e"])
  })

  it("an edited card keeps its place; a moved or created one goes to its position", () => {
    const s = loaded()
    const edited = boardReducer(s, {
      type: "upsertCard",
      card: card("a", "todo", 2, { title: "Renamed" }),
      moved: false
    })
    expect(ids(edited, "todo")).toEqual(["a", "b", "c"])
    expect(edited?.cards.a?.title).toBe("Renamed")

    const moved = boardReducer(s, { type: "upsertCard", card: card("a", "todo", 2), moved: true })
    expect(ids(moved, "todo")).toEqual(["b", "c", "a"])

    // an edit reported for a card now in another column follows it there
    const elsewhere = boardReducer(s, { type: "upsertCard", card: card("a", "doing", 1), moved: false })
    expect(ids(elsewhere, "todo")).toEqual(["b", "c"])
    expect(ids(elsewhere, "doing")).toEqual(["d", "a"])

    const created = boardReducer(s, { type: "upsertCard", card: card("e", "todo", 1), moved: true })
    expect(ids(created, "todo")).toEqual(["a", "e", "b", "c"])
  })

  it("a move the page already shows, confirmed by the stream, changes nothing but the card", () => {
    const s = boardReducer(loaded(), { type: "placeCard", card: card("a", "todo", 0), columnId: "doing", index: 1 })!
    const confirmed = boardReducer(s, { type: "upsertCard", card: card("a", "doing", 1), moved: true })
    expect(confirmed?.order).toEqual(s.order)
  })

  it("removes a deleted card; an unknown one leaves the state as it was", () => {
    const s = loaded()
    const next = boardReducer(s, { type: "removeCard", cardId: "b" })
    expect(ids(next, "todo")).toEqual(["a", "c"])
    expect(next?.cards.b).toBeUndefined()
    expect(boardReducer(s, { type: "removeCard", cardId: "zzz" })).toBe(s)
  })

  it("drops an archived card, even when an edit of it arrives; a restored one comes back at its position", () => {
    const archived = card("b", "todo", 0, { archivedAt: at })
    const s = boardReducer(loaded(), actionOfEvent("card.archived", archived)!)
    expect(ids(s, "todo")).toEqual(["a", "c"])
    expect(s?.cards.b).toBeUndefined()
    // an archived card may still be edited: the edit's event does not put it back
    const edited = boardReducer(s, actionOfEvent("card.updated", { ...archived, title: "still archived" })!)
    expect(ids(edited, "todo")).toEqual(["a", "c"])
    expect(edited?.cards.b).toBeUndefined()
    // restored at the end of its column
    const back = boardReducer(edited, actionOfEvent("card.restored", card("b", "todo", 2))!)
    expect(ids(back, "todo")).toEqual(["a", "c", "b"])
    expect(back?.cards.b?.archivedAt).toBeNull()
  })

  it("adds, changes and deletes a card's subtasks in position order", () => {
    let s: BoardState | null = loaded()
    s = boardReducer(s, { type: "subtask", subtask: subtask("s2", "a", 1), deleted: false })
    s = boardReducer(s, { type: "subtask", subtask: subtask("s1", "a", 0), deleted: false })
    expect(s?.cards.a?.subtasks.map((x) => x.id)).toEqual(["s1", "s2"])
    s = boardReducer(s, { type: "subtask", subtask: subtask("s1", "a", 0, true), deleted: false })
    expect(s?.cards.a?.subtasks.map((x) => [x.id, x.completed])).toEqual([
      ["s1", true],
      ["s2", false]
    ])
    s = boardReducer(s, { type: "subtask", subtask: subtask("s2", "a", 1), deleted: true })
    expect(s?.cards.a?.subtasks.map((x) => x.id)).toEqual(["s1"])
    // a subtask of a card not on the board changes nothing
    expect(boardReducer(s, { type: "subtask", subtask: subtask("s9", "zzz", 0), deleted: false })).toBe(s)
  })

  it("puts a new or moved column at its position, the others shifting around it", () => {
    const s = loaded()
    const added = boardReducer(s, { type: "upsertColumn", column: column("review", 2) })
    expect(added?.columns.map((c) => c.id)).toEqual(["todo", "doing", "review", "done"])
    expect(ids(added, "review")).toEqual([])
    const moved = boardReducer(s, { type: "upsertColumn", column: { ...column("done", 0, "done"), name: "Shipped" } })
    expect(moved?.columns.map((c) => c.id)).toEqual(["done", "todo", "doing"])
    expect(moved?.columns[0]?.name).toBe("Shipped")
    // renaming keeps the column's cards
    expect(ids(moved, "done")).toEqual([])
    expect(ids(boardReducer(s, { type: "upsertColumn", column: column("todo", 0) }), "todo")).toEqual(["a", "b", "c"])
  })

  it("removes a deleted column", () => {
    const next = boardReducer(loaded(), { type: "removeColumn", columnId: "done" })
    expect(next?.columns.map((c) => c.id)).toEqual(["todo", "doing"])
    expect(next?.order.done).toBeUndefined()
  })

  it("adds a new label and replaces a known one", () => {
    let s = boardReducer(loaded(), { type: "label", label: label("l2", "ux") })
    s = boardReducer(s, { type: "label", label: label("l1", "defect") })
    expect(s?.labels.map((l) => [l.id, l.name])).toEqual([
      ["l1", "defect"],
      ["l2", "ux"]
    ])
  })

  it("a live session claims its card; when it ends, the claim goes (another session's end leaves it)", () => {
    expect(["active", "awaitingInput", "error"].every((x) => isLive(x as AgentSession["status"]))).toBe(true)
    expect(["complete", "released", "stale"].some((x) => isLive(x as AgentSession["status"]))).toBe(false)
    const s = loaded()
    const claimed = boardReducer(s, { type: "session", session: session("s1", "a", "active") })!
    expect(claimed.cards.a?.claim).toEqual({
      sessionId: "s1",
      actor: { type: "agent", userId: "u", name: "Claude" },
      leaseExpiresAt: at
    })
    expect(claimed.sessions).toEqual({ s1: "active" })
    expect(claimed.cards.b).toBe(s.cards.b)

    const other = boardReducer(claimed, { type: "session", session: session("s0", "a", "complete") })!
    expect(other.cards.a?.claim?.sessionId).toBe("s1")
    expect(other.cards.a).toBe(claimed.cards.a)

    const ended = boardReducer(claimed, { type: "session", session: session("s1", "a", "released") })!
    expect(ended.cards.a?.claim).toBeNull()
    expect(ended.sessions).toEqual({ s1: "released" })

    // a session of a card not on the board is still known by its status
    expect(boardReducer(s, { type: "session", session: session("s2", "zzz", "active") })?.sessions).toEqual({
      s2: "active"
    })
  })
})

describe("the stream's events as the reducer's actions", () => {
  const c = card("a", "doing", 0)
  it("a created or moved card goes to its position; any other change to it keeps its place", () => {
    expect(actionOfEvent("card.created", c)).toEqual({ type: "upsertCard", card: c, moved: true })
    expect(actionOfEvent("card.moved", c)).toEqual({ type: "upsertCard", card: c, moved: true })
    for (const type of ["card.updated", "card.label_added", "card.label_removed", "card.assigned"])
      expect(actionOfEvent(type, c)).toEqual({ type: "upsertCard", card: c, moved: false })
    expect(actionOfEvent("card.deleted", c)).toEqual({ type: "removeCard", cardId: "a" })
    expect(actionOfEvent("card.archived", c)).toEqual({ type: "removeCard", cardId: "a" })
    expect(actionOfEvent("card.restored", c)).toEqual({ type: "upsertCard", card: c, moved: true })
    expect(actionOfEvent("card.shipped", c)).toEqual({ type: "upsertCard", card: c, moved: false })
  })

  it("a linked pull request's event sets the card's compact mark, and nothing else (issue 31)", () => {
    const link = { cardId: "a", ref: "WEB-1", repository: "acme/web", pullRequest: { number: 42 } }
    const action = actionOfEvent("card.pull_request_updated", { ...link, pullRequestMark: "checks_failing" })
    expect(action).toEqual({ type: "pullRequestMark", cardId: "a", mark: "checks_failing" })
    const s = boardReducer(loaded(), action!)!
    expect(s.cards.a!.pullRequestMark).toBe("checks_failing")
    expect({ ...s.cards.a!, pullRequestMark: null }).toEqual(loaded()!.cards.a)
    expect(s.order).toEqual(loaded()!.order)
    const cleared = boardReducer(s, actionOfEvent("card.pull_request_linked", { ...link, pullRequestMark: null })!)!
    expect(cleared.cards.a!.pullRequestMark).toBe(null)
    // an older event without the mark changes nothing on the board; the panel reads the card again
    expect(actionOfEvent("card.pull_request_linked", link)).toBeUndefined()
    expect(cardOfEvent("card.pull_request_linked", link)).toEqual({ cardId: "a" })
    expect(cardOfEvent("card.commit_linked", { cardId: "a", commit: {} })).toEqual({ cardId: "a" })
  })

  it("subtasks, columns, labels and agent sessions", () => {
    const s = subtask("s1", "a", 0)
    expect(actionOfEvent("subtask.created", s)).toEqual({ type: "subtask", subtask: s, deleted: false })
    expect(actionOfEvent("subtask.toggled", s)).toEqual({ type: "subtask", subtask: s, deleted: false })
    expect(actionOfEvent("subtask.deleted", s)).toEqual({ type: "subtask", subtask: s, deleted: true })
    const col = column("todo", 0)
    expect(actionOfEvent("column.created", col)).toEqual({ type: "upsertColumn", column: col })
    expect(actionOfEvent("column.updated", col)).toEqual({ type: "upsertColumn", column: col })
    expect(actionOfEvent("column.deleted", col)).toEqual({ type: "removeColumn", columnId: "todo" })
    expect(actionOfEvent("label.created", label("l", "x"))).toEqual({ type: "label", label: label("l", "x") })
    const a = session("s", "a", "stale")
    for (const type of [
      "agent_session.created",
      "agent_session.updated",
      "agent_session.stale",
      "agent_session.completed"
    ])
      expect(actionOfEvent(type, a)).toEqual({ type: "session", session: a })
  })

  it("an event that changes nothing on the board is no action", () => {
    for (const type of ["comment.created", "card_link.created", "agent_activity.created", "no.such"])
      expect(actionOfEvent(type, { id: "x" })).toBeUndefined()
  })

  it("names the card an event changes, with the card itself when the event carries it whole", () => {
    expect(cardOfEvent("card.updated", c)).toEqual({ cardId: "a", card: c })
    expect(cardOfEvent("card.deleted", c)).toEqual({ cardId: "a" })
    // the panel of an archived card shows it archived (its copy is the event's card)
    expect(cardOfEvent("card.archived", c)).toEqual({ cardId: "a", card: c })
    expect(cardOfEvent("subtask.toggled", subtask("s1", "a", 0))).toEqual({ cardId: "a" })
    expect(cardOfEvent("agent_session.updated", session("s", "a", "active"))).toEqual({ cardId: "a" })
    expect(cardOfEvent("column.updated", column("todo", 0))).toBeUndefined()
    expect(cardOfEvent("card.updated", null)).toBeUndefined()
  })
})

describe("one step of a card (Alt+Arrow, the card's menu)", () => {
  const s = fromBoard(board)
  it("moves up and down within the column, not past its ends", () => {
    expect(stepTarget(s, "b", "up")).toMatchObject({ columnId: "todo", index: 1, to: "todo", toIndex: 0 })
    expect(stepTarget(s, "b", "down")).toMatchObject({ to: "todo", toIndex: 2 })
    expect(stepTarget(s, "a", "up")).toBeUndefined()
    expect(stepTarget(s, "c", "down")).toBeUndefined()
  })

  it("moves to the same row of the next column, or its end; not past the first or last column", () => {
    expect(stepTarget(s, "c", "right")).toMatchObject({ to: "doing", toIndex: 1 })
    expect(stepTarget(s, "a", "right")).toMatchObject({ to: "doing", toIndex: 0 })
    expect(stepTarget(s, "d", "right")).toMatchObject({ to: "done", toIndex: 0 })
    expect(stepTarget(s, "a", "left")).toBeUndefined()
    expect(stepTarget(fromBoard({ ...board, cards: [card("z", "done", 0)] }), "z", "right")).toBeUndefined()
    expect(stepTarget(s, "nope", "left")).toBeUndefined()
  })
})
