/**
 * Cross-origin reads for the exact origins of CORS_ORIGINS only: the one matching origin is
 * echoed with `Vary: Origin`, never `*` and never `null`. The intake endpoint gets no CORS at
 * all (an intake token must not live in browser code), nor does the OAuth authorization page.
 * Effect's own `cors` middleware answers `*` for an empty list and the configured origin to any
 * requester, so this small rule is written out here.
 */
const NO_CORS = [/^\/api\/v1\/intake\/?$/, /^\/oauth\/authorize/]

const ALLOWED_METHODS = "GET, POST, PATCH, DELETE"
const ALLOWED_HEADERS = "Content-Type, X-API-Key, Authorization, Idempotency-Key, MCP-Protocol-Version, Mcp-Session-Id"
const EXPOSED_HEADERS = "RateLimit, RateLimit-Policy, Retry-After, WWW-Authenticate, Location, Mcp-Session-Id"

export interface CorsDecision {
  /** Headers to add to the response (possibly only `Vary`). */
  readonly headers: Record<string, string>
  /** A preflight to answer at once, without routing. */
  readonly preflight: boolean
}

export const corsFor = (
  allowed: ReadonlyArray<string>,
  method: string,
  path: string,
  origin: string | undefined,
  requestsMethod: string | undefined
): CorsDecision => {
  if (allowed.length === 0 || NO_CORS.some((r) => r.test(path))) {
    return { headers: {}, preflight: false }
  }
  const preflight = method === "OPTIONS" && origin !== undefined && requestsMethod !== undefined
  if (origin === undefined || !allowed.includes(origin)) {
    return { headers: { vary: "Origin" }, preflight }
  }
  const base = { "access-control-allow-origin": origin, vary: "Origin" }
  return preflight
    ? {
        headers: {
          ...base,
          "access-control-allow-methods": ALLOWED_METHODS,
          "access-control-allow-headers": ALLOWED_HEADERS,
          "access-control-max-age": "600"
        },
        preflight
      }
    : { headers: { ...base, "access-control-expose-headers": EXPOSED_HEADERS }, preflight }
}
