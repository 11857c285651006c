/** Who is signed in, for every page: `GET /api/v1/me` decides (401: nobody). */
import { createContext, useContext } from "react"
import type { paths } from "./api-types.ts"

/** `GET /v1/me`'s answer, as the API documents it (the web app's credential is `browser`). */
export type Me = paths["/v1/me"]["get"]["responses"][200]["content"]["application/json"]

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
 * decides, as the browser will: `next` is resolved against the app's origin and must stay on
 * it, and so must the path that comes out when it is resolved again (dot segments and `\\` are
 * gone by then: `/.//evil.example`, `/%2e//evil.example` and `/./\\evil.example` all come out as
 * `//evil.example`, another host to the browser). A prefix check alone is not enough.
 */
export const safeNext = (next: string | null, origin: string = window.location.origin): string => {
  if (next === null || !next.startsWith("/")) return "/"
  let path: string
  try {
    const url = new URL(next, origin)
    if (url.origin !== origin) return "/"
    path = url.pathname + url.search + url.hash
    // what the app will navigate to must name this origin too, read the same way again
    const again = new URL(path, origin)
    if (again.origin !== origin || again.pathname + again.search + again.hash !== path) return "/"
  } catch {
    return "/"
  }
  if (!path.startsWith("/") || path.startsWith("//")) return "/"
  return path.startsWith("/signin") || path.startsWith("/signup") ? "/" : path
}
