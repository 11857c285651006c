import { describe, expect, it } from "vitest"
import { isOverdue, kindText } from "./columnKind.ts"

const now = Date.parse("2026-05-01T12:00:00.000Z")
const past = "2026-04-30T00:00:00.000Z"
const future = "2026-05-02T00:00:00.000Z"

describe("overdue goes by the column's kind", () => {
  it("a past due date is overdue in a todo or in_progress column", () => {
    expect(isOverdue(past, "todo", now)).toBe(true)
    expect(isOverdue(past, "in_progress", now)).toBe(true)
  })

  it("a card in a done column is never overdue, whatever its due date", () => {
    expect(isOverdue(past, "done", now)).toBe(false)
    expect(isOverdue(future, "done", now)).toBe(false)
  })

  it("a future due date or none is not overdue", () => {
    expect(isOverdue(future, "todo", now)).toBe(false)
    expect(isOverdue(null, "todo", now)).toBe(false)
  })

  it("names each kind in words", () => {
    expect([kindText("todo"), kindText("in_progress"), kindText("done")]).toEqual(["To do", "In progress", "Done"])
  })
})
