/** Who is signed in, for every page: `GET /api/v1/me` decides (401: nobody). */
import { createContext, useContext } from "react"

export interface Me {
  readonly id: string
  readonly email: string
  readonly full_name: string
  readonly credential: "apiKey" | "oauth" | "session" | "intake"
}

export interface Session {
  readonly me: Me
  readonly signOut: () => Promise<void>
}

export const SessionContext = createContext<Session | null>(null)

export const useSession = (): Session => {
  const session = useContext(SessionContext)
  if (session === null) throw new Error("useSession outside a signed-in page")
  return session
}

/** "Ada Lovelace" → "AL"; an e-mail address or a single name → its first two letters. */
export const initials = (name: string): string => {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0)
  if (words.length === 0) return "?"
  if (words.length === 1) return words[0]!.slice(0, 2).toUpperCase()
  return (words[0]![0]! + words[words.length - 1]![0]!).toUpperCase()
}

/**
 * Where to go after signing in: only a path of this app, never another origin. The URL parser
 * decides (a browser reads `/\evil.example` as `//evil.example`), not a prefix check alone.
 */
export const safeNext = (next: string | null, origin: string = window.location.origin): string => {
  if (next === null || !next.startsWith("/")) return "/"
  const url = new URL(next, origin)
  if (url.origin !== origin) return "/"
  const path = url.pathname + url.search + url.hash
  return path.startsWith("/signin") || path.startsWith("/signup") ? "/" : path
}
