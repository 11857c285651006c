import { describe, expect, it } from "vitest"
import { makeMcpSessions } from "./McpSessions.ts"

describe("MCP session table", () => {
  it("knows a session only for the user who opened it", () => {
    const s = makeMcpSessions({ idleMs: 1000, perUser: 5, total: 100 })
    expect(s.open("s1", "ada", 0)).toEqual([])
    expect(s.use("s1", "ada", 10)).toBe(true)
    expect(s.use("s1", "bob", 10)).toBe(false)
    expect(s.use("nope", "ada", 10)).toBe(false)
    s.close("s1")
    expect(s.use("s1", "ada", 20)).toBe(false)
    expect(s.size()).toBe(0)
  })

  it("ends a user's least recently used session beyond their limit, and no one else's", () => {
    const s = makeMcpSessions({ idleMs: 10_000, perUser: 2, total: 100 })
    s.open("a1", "ada", 0)
    s.open("b1", "bob", 1)
    s.open("a2", "ada", 2)
    s.use("a1", "ada", 3) // a2 is now ada's least recently used
    expect(s.open("a3", "ada", 4)).toEqual(["a2"])
    expect(s.use("a2", "ada", 5)).toBe(false)
    expect(s.use("a1", "ada", 5)).toBe(true)
    expect(s.use("a3", "ada", 5)).toBe(true)
    expect(s.use("b1", "bob", 5)).toBe(true)
  })

  it("ends the least recently used session overall beyond the total", () => {
    const s = makeMcpSessions({ idleMs: 10_000, perUser: 10, total: 3 })
    s.open("a1", "ada", 0)
    s.open("b1", "bob", 1)
    s.open("c1", "cy", 2)
    s.use("a1", "ada", 3)
    expect(s.open("d1", "dee", 4)).toEqual(["b1"])
    expect(s.size()).toBe(3)
  })

  it("expires sessions idle for longer than the limit, and keeps those in use", () => {
    const s = makeMcpSessions({ idleMs: 1000, perUser: 10, total: 100 })
    s.open("old", "ada", 0)
    s.open("busy", "ada", 0)
    s.open("new", "bob", 900)
    expect(s.use("busy", "ada", 950)).toBe(true)
    expect(s.expire(1000)).toEqual([])
    expect(s.expire(1001)).toEqual(["old"])
    // an idle session is refused even before a sweep has ended it
    expect(s.use("new", "bob", 1950)).toBe(false)
    expect(s.expire(1950)).toEqual(["new"])
    expect(s.use("busy", "ada", 1950)).toBe(true)
    expect(s.size()).toBe(1)
  })

  it("ends idle sessions when a new one opens", () => {
    const s = makeMcpSessions({ idleMs: 1000, perUser: 10, total: 100 })
    s.open("old", "ada", 0)
    expect(s.open("next", "bob", 5000)).toEqual(["old"])
  })
})
