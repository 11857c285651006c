/**
 * The query cache's store (queryCache.ts; `useQuery` is its React side): one read at a time, a
 * change reported during a read is read again after it, an answer nobody shows is dropped when
 * it goes stale, and an event's object replaces an answer without a read.
 */
import { describe, expect, it } from "vitest"
import { createQueryCache } from "./queryCache.ts"

/** A read the test settles by hand, counting how often it was asked. */
const manual = () => {
  const pending: Array<{ resolve: (v: unknown) => void; reject: (e: unknown) => void }> = []
  const read = () =>
    new Promise<unknown>((resolve, reject) => {
      pending.push({ resolve, reject })
    })
  return { read, pending }
}
const tick = () => new Promise((r) => setTimeout(r, 0))

describe("the query cache", () => {
  it("reads once at a time and tells whoever shows the answer", async () => {
    const cache = createQueryCache()
    const { read, pending } = manual()
    const entry = cache.entry("/v1/cards/a", read)
    let told = 0
    entry.listeners.add(() => told++)
    cache.refresh(entry)
    expect(entry.reading).toBe(true)
    expect(pending).toHaveLength(1)
    pending[0]!.resolve({ id: "a", title: "One" })
    await tick()
    expect(entry.query).toEqual({ data: { id: "a", title: "One" }, error: undefined })
    expect(told).toBe(1)
    expect(entry.reading).toBe(false)
  })

  it("a change reported while a read is on its way is read again after it (that answer may predate it)", async () => {
    const cache = createQueryCache()
    const { read, pending } = manual()
    const entry = cache.entry("/v1/cards/a", read)
    entry.listeners.add(() => {})
    cache.refresh(entry)
    cache.invalidate((key) => key === "/v1/cards/a")
    cache.invalidate((key) => key === "/v1/cards/a")
    // still one read on the wire
    expect(pending).toHaveLength(1)
    pending[0]!.resolve({ id: "a", title: "Old" })
    await tick()
    // then exactly one more
    expect(pending).toHaveLength(2)
    pending[1]!.resolve({ id: "a", title: "New" })
    await tick()
    expect(entry.query.data).toEqual({ id: "a", title: "New" })
    expect(pending).toHaveLength(2)
  })

  it("a failed read keeps the answer shown, with the error, until a read succeeds", async () => {
    const cache = createQueryCache()
    const { read, pending } = manual()
    const entry = cache.entry("/v1/cards/a", read)
    entry.listeners.add(() => {})
    cache.refresh(entry)
    pending[0]!.resolve({ id: "a" })
    await tick()
    cache.refresh(entry)
    const gone = new Error("This card was deleted.")
    pending[1]!.reject(gone)
    await tick()
    expect(entry.query).toEqual({ data: { id: "a" }, error: gone })
    cache.refresh(entry)
    pending[2]!.resolve({ id: "a", title: "Back" })
    await tick()
    expect(entry.query).toEqual({ data: { id: "a", title: "Back" }, error: undefined })
  })

  it("picks answers by key or by what they hold (a card asked for by its ref); unshown stale ones are dropped", async () => {
    const cache = createQueryCache()
    const byRef = manual()
    const shown = cache.entry("/v1/cards/WEB-1", byRef.read)
    shown.listeners.add(() => {})
    cache.refresh(shown)
    byRef.pending[0]!.resolve({ id: "a", ref: "WEB-1" })
    await tick()
    const other = cache.entry("/v1/cards/b", async () => ({ id: "b" }))
    other.query = { data: { id: "b" }, error: undefined }
    const unshown = cache.entry("/v1/cards/a", async () => ({ id: "a" }))
    unshown.query = { data: { id: "a" }, error: undefined }

    cache.invalidate((key, data) => key === "/v1/cards/a" || (data as { id?: string }).id === "a")
    // the shown one is read again, the unshown one is gone (a later use reads it afresh), b is untouched
    expect(byRef.pending).toHaveLength(2)
    expect(cache.entry("/v1/cards/a", async () => null).query.data).toBeUndefined()
    expect(cache.entry("/v1/cards/b", async () => null).query.data).toEqual({ id: "b" })
  })

  it("an event's object replaces the answers it is, without a read", () => {
    const cache = createQueryCache()
    const { read, pending } = manual()
    const entry = cache.entry("/v1/cards/WEB-1", read)
    entry.query = { data: { id: "a", title: "Old" }, error: new Error("offline") }
    let told = 0
    entry.listeners.add(() => told++)
    cache.setQueryData((_key, data) => (data as { id?: string } | undefined)?.id === "a", { id: "a", title: "New" })
    expect(entry.query).toEqual({ data: { id: "a", title: "New" }, error: undefined })
    expect(told).toBe(1)
    expect(pending).toHaveLength(0)
  })

  it("holds at most `keep` answers: the unshown ones go first", () => {
    const cache = createQueryCache(3)
    const read = async () => null
    const shown = cache.entry("k0", read)
    shown.listeners.add(() => {})
    shown.query = { data: "kept", error: undefined }
    cache.entry("k1", read).query = { data: 1, error: undefined }
    cache.entry("k2", read).query = { data: 2, error: undefined }
    cache.entry("k3", read)
    expect(cache.entry("k0", read).query.data).toBe("kept")
    expect(cache.entry("k1", read).query.data).toBeUndefined()
  })
})
