import { describe, expect, it } from "vitest"
import { type LocalSession, makeLocalSessions } from "./McpSessions.ts"

const copy = (local: string, userId: string): LocalSession => ({ local, userId, release: () => undefined })

describe("this instance's copies of MCP sessions", () => {
  it("finds a copy only for the user whose session it is", () => {
    const s = makeLocalSessions({ idleMs: 1000, total: 100 })
    expect(s.add("s1", copy("l1", "ada"), 0)).toEqual([])
    expect(s.get("s1", "ada", 10)?.local).toBe("l1")
    expect(s.get("s1", "bob", 10)).toBeUndefined()
    expect(s.get("nope", "ada", 10)).toBeUndefined()
    expect(s.remove("s1")?.local).toBe("l1")
    expect(s.get("s1", "ada", 20)).toBeUndefined()
    expect(s.size()).toBe(0)
  })

  it("ends the least recently used copy beyond the total", () => {
    const s = makeLocalSessions({ idleMs: 10_000, total: 2 })
    s.add("a", copy("la", "ada"), 0)
    s.add("b", copy("lb", "bob"), 1)
    s.get("a", "ada", 2) // b is now the least recently used
    expect(s.add("c", copy("lc", "ada"), 3).map((e) => e.local)).toEqual(["lb"])
    expect(s.get("b", "bob", 4)).toBeUndefined()
    expect(s.size()).toBe(2)
  })

  it("ends copies idle for longer than the limit, and only those", () => {
    const s = makeLocalSessions({ idleMs: 100, total: 10 })
    s.add("old", copy("lo", "ada"), 0)
    s.add("used", copy("lu", "ada"), 0)
    s.get("used", "ada", 90)
    expect(s.expire(150).map((e) => e.local)).toEqual(["lo"])
    expect(s.get("used", "ada", 160)?.local).toBe("lu")
  })

  it("a rebuilt copy replaces the one it supersedes, which the caller ends", () => {
    const s = makeLocalSessions({ idleMs: 100, total: 10 })
    s.add("s", copy("l1", "ada"), 0)
    expect(s.add("s", copy("l2", "ada"), 1).map((e) => e.local)).toEqual(["l1"])
    expect(s.get("s", "ada", 2)?.local).toBe("l2")
  })
})
