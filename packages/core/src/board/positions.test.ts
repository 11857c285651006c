import { describe, expect, it } from "vitest"
import { clampPosition, isContiguous } from "./positions.ts"

describe("positions", () => {
  it.each([
    [undefined, 3, 3],
    [0, 3, 0],
    [2, 3, 2],
    [3, 3, 3],
    [99, 3, 3],
    [-5, 3, 0],
    [1.7, 3, 1],
    [undefined, 0, 0]
  ])("clampPosition(%j, %i) = %i", (requested, length, expected) => {
    expect(clampPosition(requested, length)).toBe(expected)
  })

  it("recognises contiguous positions", () => {
    expect(isContiguous([2, 0, 1])).toBe(true)
    expect(isContiguous([])).toBe(true)
    expect(isContiguous([0, 2])).toBe(false)
    expect(isContiguous([0, 0, 1])).toBe(false)
  })
})
