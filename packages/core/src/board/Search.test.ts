import { describe, expect, it } from "vitest"
import { searchPatterns } from "./Search.ts"

describe("searchPatterns", () => {
  it.each([
    ["Login Bug", ["%login%", "%bug%"]],
    ["  spaced   out ", ["%spaced%", "%out%"]],
    ["100% done_ok \\x", ["%100\\%%", "%done\\_ok%", "%\\\\x%"]],
    ["dup dup", ["%dup%"]]
  ])("%j → %j", (q, expected) => {
    expect(searchPatterns(q)).toEqual(expected)
  })
})
