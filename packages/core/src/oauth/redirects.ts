/**
 * Redirect URI rules (RFC 9700 §2.1, RFC 8252 §7.3, MCP security): registered URIs are https
 * or loopback http, absolute, without fragment or wildcard; a request matches a registered URI
 * exactly, except that a loopback URI may use any port.
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"])

export const isLoopback = (url: URL): boolean => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)

/** Why a redirect URI may not be registered, or undefined when it may. */
export const redirectUriProblem = (uri: string): string | undefined => {
  if (uri.length > 2048) return "a redirect URI is longer than 2048 characters"
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return `redirect URI ${JSON.stringify(uri)} is not an absolute URI`
  }
  if (url.hash !== "" || uri.includes("#")) return `redirect URI ${JSON.stringify(uri)} must not have a fragment`
  if (url.username !== "" || url.password !== "")
    return `redirect URI ${JSON.stringify(uri)} must not carry credentials`
  if (url.hostname.includes("*") || uri.includes("*"))
    return `redirect URI ${JSON.stringify(uri)} must not use wildcards`
  if (url.protocol === "https:") return undefined
  if (isLoopback(url)) return undefined
  return `redirect URI ${JSON.stringify(uri)} must use https, or http on a loopback address (127.0.0.1, [::1], localhost)`
}

/** Exact string match, or the loopback any-port rule (scheme, host, path and query still exact). */
export const redirectMatches = (registered: ReadonlyArray<string>, requested: string): boolean => {
  if (registered.includes(requested)) return true
  let port: string
  try {
    const req = new URL(requested)
    if (!isLoopback(req)) return false
    port = req.port
  } catch {
    return false
  }
  return registered.some((r) => {
    let candidate: URL
    try {
      candidate = new URL(r)
    } catch {
      return false
    }
    if (!isLoopback(candidate)) return false
    candidate.port = port
    // compared as strings: any other difference (path, query, encoding, host spelling) fails
    return candidate.toString() === requested
  })
}
