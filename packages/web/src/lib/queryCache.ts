/**
 * A small cache of the API's answers, keyed by what was asked (a path), shared by every
 * component that asks the same: the card panel shows the card it already has at once and
 * re-reads it in the background, and a change the board's live stream reports replaces the
 * answers it touches (`setQueryData`) or makes them stale (`invalidate`), so whoever shows them
 * reads them again. An answer nobody shows is kept (the next panel opens at once) until the cache
 * holds too many. The store is plain (lib/queryCache.test.ts); `useQuery` is its React side.
 */
import { useCallback, useEffect, useSyncExternalStore } from "react"

export interface Query<T> {
  readonly data: T | undefined
  /** The last read's failure, cleared by the next success (the data shown stays). */
  readonly error: unknown
}

export interface Entry {
  query: Query<unknown>
  read: () => Promise<unknown>
  reading: boolean
  /** Asked again while a read was on its way: that answer may predate a change, so read once more. */
  stale: boolean
  readonly listeners: Set<() => void>
}

type Matches = (key: string, data: unknown) => boolean

export const createQueryCache = (keep = 200) => {
  const entries = new Map<string, Entry>()

  const publish = (entry: Entry, query: Query<unknown>) => {
    entry.query = query
    for (const listener of entry.listeners) listener()
  }

  /** Reads the answer again: one read at a time; asked meanwhile, once more after it. */
  const refresh = (entry: Entry): void => {
    if (entry.reading) {
      entry.stale = true
      return
    }
    entry.reading = true
    entry.stale = false
    const settle = (query: Query<unknown>) => {
      entry.reading = false
      publish(entry, query)
      if (entry.stale && entry.listeners.size > 0) refresh(entry)
    }
    entry.read().then(
      (data) => settle({ data, error: undefined }),
      (error: unknown) => settle({ data: entry.query.data, error })
    )
  }

  return {
    /** The entry of `key` (made on first use), to be read with `read` from now on. */
    entry: (key: string, read: () => Promise<unknown>): Entry => {
      let entry = entries.get(key)
      if (entry === undefined) {
        if (entries.size >= keep)
          for (const [k, e] of entries) if (e.listeners.size === 0 && !e.reading) entries.delete(k)
        entry = {
          query: { data: undefined, error: undefined },
          read,
          reading: false,
          stale: false,
          listeners: new Set()
        }
        entries.set(key, entry)
      }
      entry.read = read
      return entry
    },
    refresh,
    /** Answers nobody shows are dropped (read afresh on their next use); shown ones are read again. */
    invalidate: (matches: Matches) => {
      for (const [key, entry] of entries) {
        if (!matches(key, entry.query.data)) continue
        if (entry.listeners.size > 0) refresh(entry)
        else entries.delete(key)
      }
    },
    /** Replaces the answers `matches` picks with one the page got otherwise (a stream event's object). */
    setQueryData: (matches: Matches, data: unknown) => {
      for (const [key, entry] of entries) if (matches(key, entry.query.data)) publish(entry, { data, error: undefined })
    }
  }
}

/** The key of a card as the panel reads it (`GET /v1/cards/{id}`, by id or by ref). */
export const cardKey = (idOrRef: string) => `/v1/cards/${idOrRef}`

/** The app's one cache. */
export const queryCache = createQueryCache()
export const { invalidate, setQueryData } = queryCache

/**
 * The answer to `key` (null: nothing to ask yet), read by `read` when a component first shows it
 * and again on `reload`. `initial`, when the cache has nothing yet, is shown until the answer
 * comes (the board's copy of a card, for the panel).
 */
export const useQuery = <T>(key: string | null, read: () => Promise<T>, initial?: T) => {
  const entry = key === null ? undefined : queryCache.entry(key, read)
  if (entry !== undefined && entry.query.data === undefined && initial !== undefined)
    entry.query = { data: initial, error: undefined }
  const subscribe = useCallback(
    (listener: () => void) => {
      entry?.listeners.add(listener)
      return () => void entry?.listeners.delete(listener)
    },
    [entry]
  )
  const query = useSyncExternalStore(subscribe, () => entry?.query) as Query<T> | undefined
  // whoever shows an answer asks for today's once; the cached one shows meanwhile
  useEffect(() => {
    if (entry !== undefined) queryCache.refresh(entry)
  }, [entry])
  const reload = useCallback(() => {
    if (entry !== undefined) queryCache.refresh(entry)
  }, [entry])
  return { data: query?.data, error: query?.error, reload }
}
