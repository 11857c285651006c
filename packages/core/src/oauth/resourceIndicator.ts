/**
 * RFC 8707 resource indicators: which `resource` values name this server's protected resource.
 * The protected resource is `PUBLIC_URL/api`; clients also send the URL they were given, the
 * MCP endpoint (`…/api/mcp`), so any URL under it names it as well. The token is always bound
 * to the protected resource itself, whatever the client named.
 */

/** True when `given` is the protected resource or a URL under it (origin and path prefix). */
export const namesResource = (given: string, protectedResource: string): boolean => {
  let url: URL
  let own: URL
  try {
    url = new URL(given)
    own = new URL(protectedResource)
  } catch {
    return false
  }
  // RFC 8707 §2: an absolute URI without a fragment; a query would make it some other resource
  if (given.includes("#") || url.search !== "" || url.username !== "" || url.password !== "") return false
  if (url.origin !== own.origin) return false
  const base = own.pathname.replace(/\/$/, "")
  // WHATWG parsing has removed dot segments (also %2e%2e), so a prefix test cannot be escaped
  return url.pathname === base || url.pathname.startsWith(`${base}/`)
}
