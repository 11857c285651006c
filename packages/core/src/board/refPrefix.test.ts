import { describe, expect, it } from "vitest"
import { refPrefixFor } from "./refPrefix.ts"

describe("refPrefixFor", () => {
  it.each([
    ["Website", "WEB"],
    ["Web App", "WA"],
    ["the big mobile redesign project", "TBMR"],
    ["2024 roadmap", "R"],
    ["Öffentlich", "OFF"],
    ["!!!", "CARD"],
    ["", "CARD"],
    ["x", "X"]
  ])("%j → %s", (name, prefix) => {
    expect(refPrefixFor(name)).toBe(prefix)
  })
})
