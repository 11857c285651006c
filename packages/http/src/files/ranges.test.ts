import { describe, expect, it } from "vitest"
import { parseRange } from "./ranges.ts"

describe("parseRange", () => {
  it.each([
    [undefined, 100, { kind: "none" }],
    ["bytes=0-9", 100, { kind: "range", start: 0, end: 9 }],
    ["bytes=90-", 100, { kind: "range", start: 90, end: 99 }],
    ["bytes=90-500", 100, { kind: "range", start: 90, end: 99 }],
    ["bytes=-10", 100, { kind: "range", start: 90, end: 99 }],
    ["bytes=-500", 100, { kind: "range", start: 0, end: 99 }],
    ["bytes=100-", 100, { kind: "unsatisfiable" }],
    ["bytes=-0", 100, { kind: "unsatisfiable" }],
    ["bytes=0-0", 0, { kind: "unsatisfiable" }],
    ["bytes=5-2", 100, { kind: "none" }],
    ["bytes=0-1,5-6", 100, { kind: "none" }],
    ["items=0-1", 100, { kind: "none" }],
    ["bytes=-", 100, { kind: "none" }],
    ["bytes=x-1", 100, { kind: "none" }]
  ] as const)("%s of %i bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected)
  })
})
