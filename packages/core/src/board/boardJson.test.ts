/**
 * boardJson.ts's `boardParts`: the board statement leaves its rows unordered (ordering them in
 * PostgreSQL sorted the cards' text), so the server must put the runs in column and run order,
 * put a comma between two runs and none elsewhere, and say when no row carries the head.
 */
import { describe, expect, it } from "vitest"
import { type BoardJsonRow, boardParts } from "./boardJson.ts"

const run = (col: number, chunk: number, card: string): BoardJsonRow => ({
  col,
  chunk,
  workspace_id: null,
  role: null,
  head: null,
  card,
  tail: null
})
const ends: BoardJsonRow = { col: 0, chunk: 0, workspace_id: "w", role: "member", head: "{H[", card: null, tail: "]T}" }

describe("boardParts", () => {
  it("orders the runs by column, then by run, whatever order the rows came in", () => {
    const rows = [run(2, 10, "c"), run(1, 1, "b"), ends, run(2, 2, "d"), run(1, 0, "a"), run(3, 0, "e")]
    // numeric order: run 10 after run 2 (a string sort would put it first)
    expect(boardParts(rows)?.join("")).toBe("{H[a,b,d,c,e]T}")
  })

  it("a board without cards is its head and tail", () => {
    expect(boardParts([ends])).toEqual(["{H[", "]T}"])
  })

  it("no head row: the project is gone", () => {
    expect(boardParts([run(1, 0, "a")])).toBeUndefined()
    expect(boardParts([])).toBeUndefined()
  })
})
