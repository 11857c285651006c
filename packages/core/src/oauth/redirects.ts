/**
 * Redirect URI rules (RFC 9700 §2.1, RFC 8252 §7, MCP security): what a client may register,
 * whether a requested URI matches a registered one, and how the consent page names where the
 * code will go.
 *
 * Registrable: https; http on a loopback address; and a native app's private-use scheme
 * (RFC 8252 §7.1) written reverse-domain style, either in the scheme itself (`com.example.app:/cb`)
 * or, as Cursor and VS Code do, in the authority after a one-word scheme
 * (`cursor://anysphere.cursor-mcp/oauth/callback`). The dot is what keeps out every scheme a
 * browser handles itself (javascript:, data:, file:, blob:, about:…); the refused list below
 * catches those schemes when written with a dotted authority (`javascript://a.b/%0Aalert(1)`).
 * Absolute, without fragment, credentials or wildcards. A request matches a registered URI
 * exactly, except that a loopback URI may use any port (RFC 8252 §7.3).
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"])

/** Schemes a browser (or the OS shell) acts on itself: never a native app's callback. */
const BROWSER_SCHEMES = new Set([
  "javascript",
  "vbscript",
  "data",
  "blob",
  "file",
  "filesystem",
  "about",
  "view-source",
  "http",
  "https",
  "ws",
  "wss",
  "ftp",
  "chrome",
  "chrome-extension",
  "moz-extension",
  "resource",
  "jar",
  "intent",
  "mailto",
  "tel",
  "sms"
])

export const isLoopback = (url: URL): boolean => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)

const schemeOf = (url: URL) => url.protocol.slice(0, -1)

/** A native app's private-use scheme in reverse-domain style (RFC 8252 §7.1). */
export const isPrivateUse = (url: URL): boolean => {
  const scheme = schemeOf(url)
  if (BROWSER_SCHEMES.has(scheme)) return false
  if (scheme.includes(".")) return true
  // `cursor://anysphere.cursor-mcp/…`: the vendor's reverse-domain name is the authority
  return url.host.includes(".") && !url.host.startsWith(".") && !url.host.endsWith(".")
}

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
  if (url.protocol === "https:") return url.host === "" ? `redirect URI ${JSON.stringify(uri)} has no host` : undefined
  if (isLoopback(url) || isPrivateUse(url)) return undefined
  return `redirect URI ${JSON.stringify(uri)} must use https, http on a loopback address (127.0.0.1, [::1], localhost), or an app's private-use scheme in reverse-domain style (com.example.app:/callback, cursor://anysphere.cursor-mcp/callback)`
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

/**
 * Where the code goes, for the person deciding (MCP security: the consent page MUST name it):
 * a web site by its host; this computer for loopback; an app on this device by the link it
 * answers to (`cursor://anysphere.cursor-mcp`), since any app may claim a scheme.
 */
export type RedirectTarget =
  | { readonly kind: "web"; readonly label: string }
  | { readonly kind: "loopback"; readonly label: string }
  | { readonly kind: "app"; readonly label: string }

export const redirectTarget = (uri: string): RedirectTarget => {
  const url = new URL(uri)
  if (isLoopback(url)) return { kind: "loopback", label: url.host }
  if (url.protocol === "https:" || url.protocol === "http:") return { kind: "web", label: url.host }
  return { kind: "app", label: url.host === "" ? `${url.protocol}` : `${url.protocol}//${url.host}` }
}
