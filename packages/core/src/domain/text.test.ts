import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { MaxString, NonBlank, textFailure } from "./text.ts"

// the contract (the schemas) and the core (textFailure) run one set of rules: they must agree
describe("text rules", () => {
  const samples = ["", " ", "\t\n", "a", "abc", "abcd", "😀😀😀", "😀😀😀😀", "a\u0000", "\u0000", "  x  ", "\u00a0"]

  it.each(samples)("NonBlank(3) and the core agree on %j", (value) => {
    const core = textFailure(value, "f", { max: 3, nonBlank: true })
    expect(core === undefined).toBe(Schema.is(NonBlank(3))(value))
  })

  it.each(samples)("MaxString(3) and the core agree on %j", (value) => {
    const core = textFailure(value, "f", { max: 3, nonBlank: false })
    expect(core === undefined).toBe(Schema.is(MaxString(3))(value))
  })

  it("answers with the field first, NUL before blank before length, counting code points", () => {
    expect(textFailure("\u0000", "title", { max: 3, nonBlank: true })).toBe(
      "title: must not contain NUL (\\u0000) characters"
    )
    expect(textFailure("  ", "title", { max: 3, nonBlank: true })).toBe("title: must not be blank")
    expect(textFailure("😀😀😀😀", "title", { max: 3, nonBlank: true, counted: true })).toBe(
      "title: must be at most 3 characters (got 4)"
    )
    expect(textFailure("😀😀😀", "title", { max: 3, nonBlank: true })).toBeUndefined()
  })
})
