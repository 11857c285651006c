import { describe, expect, it } from "vitest"
import { collectList, describeLimits, expiryOf } from "./keyLimits.ts"

describe("key limits on the command line", () => {
  const now = Date.parse("2026-03-01T12:00:00.000Z")
  it("reads --expires as days, hours or a date", () => {
    expect(expiryOf("30d", now)).toBe("2026-03-31T12:00:00.000Z")
    expect(expiryOf("12h", now)).toBe("2026-03-02T00:00:00.000Z")
    expect(expiryOf("2026-12-31", now)).toBe("2026-12-31T00:00:00.000Z")
    for (const bad of ["0d", "soon", "30", "-1d", ""]) expect(expiryOf(bad, now), bad).toBeUndefined()
  })
  it("collects repeated and comma-separated values", () => {
    expect(collectList("write", collectList("read, ", undefined))).toEqual(["read", "write"])
  })
  it("says a key's limits in words", () => {
    expect(describeLimits({ scopes: ["read"], projectIds: ["p1"], expiresAt: null }, () => "Website")).toBe(
      "scopes read; project Website; never expires"
    )
  })
})
