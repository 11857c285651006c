/**
 * This instance's copies of MCP sessions. A session of the revisions before 2026-07-28 lives in
 * the database (core/mcp/McpSessionStore.ts), which decides whether it is live; Effect's MCP
 * server, though, keeps its own session state in memory, under an id of its own. So each
 * instance keeps, for the sessions it has served, the id of its MCP server's copy (`local`),
 * made when the session opened here or rebuilt from the stored initialize when a request of a
 * session opened elsewhere first came here.
 *
 * It is a cache: it decides only which copies to end so memory follows the live clients (idle
 * for longer than `idleMs`, the least recently used beyond `total`); the caller ends them in
 * the MCP server. A copy ended here is rebuilt on the session's next request if the database
 * still says the session is live.
 */
export interface SessionLimits {
  readonly idleMs: number
  readonly total: number
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 60 * 60_000, total: 10_000 }

export interface LocalSession {
  /** The session's id in this instance's MCP server. */
  readonly local: string
  readonly userId: string
  /** Releases the session's hold on the credential that opened it (CredentialWatch). */
  readonly release: () => void
}

interface Entry extends LocalSession {
  lastUsed: number
}

export interface LocalSessions {
  /** The copy of `sessionId` for `userId`, counted as used now. */
  readonly get: (sessionId: string, userId: string, now: number) => LocalSession | undefined
  /** Records a copy; answers the copies to end to stay within `total`. */
  readonly add: (sessionId: string, session: LocalSession, now: number) => ReadonlyArray<LocalSession>
  /** Forgets a copy (its session ended); answers it, for the caller to end. */
  readonly remove: (sessionId: string) => LocalSession | undefined
  /** The copies idle for longer than the limit, forgotten here: the caller ends them. */
  readonly expire: (now: number) => ReadonlyArray<LocalSession>
  readonly size: () => number
}

export const makeLocalSessions = (limits: SessionLimits = DEFAULT_SESSION_LIMITS): LocalSessions => {
  // iterates least recently used first: a use moves the session to the end
  const sessions = new Map<string, Entry>()

  const remove = (sessionId: string) => {
    const entry = sessions.get(sessionId)
    if (entry !== undefined) sessions.delete(sessionId)
    return entry
  }

  const expire = (now: number) => {
    const ended: Array<string> = []
    for (const [sessionId, entry] of sessions) {
      if (now - entry.lastUsed <= limits.idleMs) break
      ended.push(sessionId)
    }
    return ended.map((id) => remove(id)!)
  }

  const add = (sessionId: string, session: LocalSession, now: number) => {
    const ended: Array<LocalSession> = []
    const previous = remove(sessionId)
    if (previous !== undefined && previous.local !== session.local) ended.push(previous)
    sessions.set(sessionId, { ...session, lastUsed: now })
    while (sessions.size > limits.total) ended.push(remove(sessions.keys().next().value!)!)
    return ended
  }

  const get = (sessionId: string, userId: string, now: number) => {
    const entry = sessions.get(sessionId)
    if (entry === undefined || entry.userId !== userId) return undefined
    entry.lastUsed = now
    sessions.delete(sessionId)
    sessions.set(sessionId, entry)
    return entry
  }

  return { get, add, remove, expire, size: () => sessions.size }
}
