/**
 * Which user opened each MCP session, and when it was last used. Effect's MCP server keeps a
 * session until a client ends it with DELETE, and most clients never do, so without a bound
 * every `initialize` (a few KiB of server state) would stay for the life of the process. This
 * table decides which sessions to end: the ones idle for longer than `idleMs`, a user's least
 * recently used beyond `perUser`, and the least recently used overall beyond `total`. It only
 * decides; the caller ends the sessions it is told to (so the MCP server frees them) and a
 * request naming an ended session is answered 404, on which MCP clients open a new session.
 */
export interface SessionLimits {
  readonly idleMs: number
  readonly perUser: number
  readonly total: number
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 60 * 60_000, perUser: 32, total: 10_000 }

interface Entry {
  readonly userId: string
  lastUsed: number
}

export interface McpSessions {
  /** Records a session `userId` just opened; answers the sessions to end to stay within limits. */
  readonly open: (sessionId: string, userId: string, now: number) => ReadonlyArray<string>
  /** Whether `sessionId` is a live session of `userId`; when it is, it counts as used now. */
  readonly use: (sessionId: string, userId: string, now: number) => boolean
  /** Forgets a session its client ended. */
  readonly close: (sessionId: string) => void
  /** The sessions idle for longer than the limit, forgotten here: the caller ends them. */
  readonly expire: (now: number) => ReadonlyArray<string>
  readonly size: () => number
}

export const makeMcpSessions = (limits: SessionLimits = DEFAULT_SESSION_LIMITS): McpSessions => {
  // both maps iterate least recently used first: a use moves the session to the end
  const sessions = new Map<string, Entry>()
  const byUser = new Map<string, Set<string>>()

  const close = (sessionId: string) => {
    const entry = sessions.get(sessionId)
    if (entry === undefined) return
    sessions.delete(sessionId)
    const own = byUser.get(entry.userId)
    own?.delete(sessionId)
    if (own?.size === 0) byUser.delete(entry.userId)
  }

  const expire = (now: number) => {
    const ended: Array<string> = []
    for (const [sessionId, entry] of sessions) {
      if (now - entry.lastUsed <= limits.idleMs) break
      ended.push(sessionId)
    }
    ended.forEach(close)
    return ended
  }

  const open = (sessionId: string, userId: string, now: number) => {
    const ended = [...expire(now)]
    sessions.set(sessionId, { userId, lastUsed: now })
    const own = byUser.get(userId) ?? new Set<string>()
    own.add(sessionId)
    byUser.set(userId, own)
    while (own.size > limits.perUser) {
      const oldest = own.values().next().value!
      close(oldest)
      ended.push(oldest)
    }
    while (sessions.size > limits.total) {
      const oldest = sessions.keys().next().value!
      close(oldest)
      ended.push(oldest)
    }
    return ended
  }

  const use = (sessionId: string, userId: string, now: number) => {
    const entry = sessions.get(sessionId)
    if (entry === undefined || entry.userId !== userId) return false
    if (now - entry.lastUsed > limits.idleMs) return false
    entry.lastUsed = now
    sessions.delete(sessionId)
    sessions.set(sessionId, entry)
    const own = byUser.get(userId)!
    own.delete(sessionId)
    own.add(sessionId)
    return true
  }

  return { open, use, close, expire, size: () => sessions.size }
}
