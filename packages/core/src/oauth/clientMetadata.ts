/**
 * Dynamic client registration (RFC 7591) validation: what a client may register here, with the
 * error codes of §3.2.2. Pure: the service stores what this returns.
 */
import type { ApiKeyScope } from "../domain/keyLimits.ts"
import { redirectUriProblem } from "./redirects.ts"

export interface ClientRegistration {
  readonly client_name: string | undefined
  readonly redirect_uris: ReadonlyArray<string>
  readonly grant_types: ReadonlyArray<string>
  readonly response_types: ReadonlyArray<string>
  readonly token_endpoint_auth_method: "none" | "client_secret_basic" | "client_secret_post"
  readonly application_type: string | undefined
  readonly scope: string
  /** Other registered members, echoed back (never fetched: logo_uri, client_uri stay text). */
  readonly extra: Record<string, unknown>
}

export type RegistrationResult =
  | { readonly ok: true; readonly client: ClientRegistration }
  | {
      readonly ok: false
      readonly error: "invalid_redirect_uri" | "invalid_client_metadata"
      readonly error_description: string
    }

const bad = (error_description: string): RegistrationResult => ({
  ok: false,
  error: "invalid_client_metadata",
  error_description
})
const isStringArray = (v: unknown): v is Array<string> => Array.isArray(v) && v.every((x) => typeof x === "string")

export const MAX_REDIRECT_URIS = 10
const unique = (xs: ReadonlyArray<string>) => [...new Set(xs)]

/**
 * The scope granted for a requested one: `mcp` (read and write) when it is among the values,
 * else `mcp:read` (read only, issue 33) when that is (others, such as `offline_access`, are
 * dropped: RFC 6749 §3.3 lets the server grant less), undefined when neither is. Registration
 * and the authorization request read scopes through this; a refresh may not name more than its
 * grant (RFC 6749 §6), so it stays strict.
 */
export const supportedScope = (requested: string): OAuthScope | undefined => {
  const values = requested.split(" ")
  return values.includes("mcp") ? "mcp" : values.includes("mcp:read") ? "mcp:read" : undefined
}

/** The scopes an authorization server grants: `mcp` reads and writes (as before issue 33), `mcp:read` reads. */
export const oauthScopes = ["mcp", "mcp:read"] as const
export type OAuthScope = (typeof oauthScopes)[number]

/**
 * What a grant's scope lets its tokens do, in the access rule's scopes: `mcp:read` reads; `mcp`
 * reads, creates, changes and deletes (what an OAuth token always could; admin operations never
 * take OAuth tokens).
 */
export const grantScopes = (scope: string): ReadonlySet<ApiKeyScope> =>
  new Set<ApiKeyScope>(scope === "mcp:read" ? ["read"] : ["read", "write", "delete", "admin"])
const KNOWN = new Set([
  "client_name",
  "redirect_uris",
  "grant_types",
  "response_types",
  "token_endpoint_auth_method",
  "application_type",
  "scope",
  "client_secret",
  "client_id"
])

/**
 * The first member path whose key or string value holds a NUL, or undefined. PostgreSQL's text
 * and jsonb cannot hold U+0000, so a NUL anywhere in the metadata (extra members included, which
 * are stored as jsonb) would fail the INSERT; it is refused here as bad metadata instead.
 */
const nulPath = (value: unknown, path: string, depth = 0): string | undefined => {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined
  if (value === null || typeof value !== "object" || depth > 64) return undefined
  for (const [k, v] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${k}]` : path === "" ? k : `${path}.${k}`
    if (k.includes("\u0000")) return at
    const found = nulPath(v, at, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

export const validateRegistration = (body: unknown): RegistrationResult => {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return bad("the body must be a JSON object of client metadata")
  const m = body as Record<string, unknown>
  const nul = nulPath(m, "")
  if (nul !== undefined) return bad(`${JSON.stringify(nul)}: must not contain a NUL character (U+0000)`)
  if (!isStringArray(m.redirect_uris) || m.redirect_uris.length === 0) {
    return {
      ok: false,
      error: "invalid_redirect_uri",
      error_description: "redirect_uris: a non-empty array of URIs is required"
    }
  }
  if (m.redirect_uris.length > MAX_REDIRECT_URIS) {
    return {
      ok: false,
      error: "invalid_redirect_uri",
      error_description: `redirect_uris: at most ${MAX_REDIRECT_URIS}`
    }
  }
  for (const uri of m.redirect_uris) {
    const problem = redirectUriProblem(uri)
    if (problem !== undefined) return { ok: false, error: "invalid_redirect_uri", error_description: problem }
  }
  // RFC 7591 §3.2.1: the server may drop values it does not support and answer with what it
  // registered; only a registration left with nothing usable is refused
  const requestedGrants = m.grant_types === undefined ? ["authorization_code", "refresh_token"] : m.grant_types
  if (!isStringArray(requestedGrants)) return bad("grant_types: an array of strings")
  if (!requestedGrants.includes("authorization_code")) return bad("grant_types: authorization_code is required")
  // every code grant gets rotating refresh tokens here, so the registration says so (the
  // server may substitute values, §3.2.1) rather than list less than the token endpoint does
  const grantTypes = ["authorization_code", "refresh_token"]
  const requestedResponses = m.response_types === undefined ? ["code"] : m.response_types
  if (!isStringArray(requestedResponses)) return bad("response_types: an array of strings")
  const responseTypes = unique(requestedResponses.filter((r) => r === "code"))
  if (responseTypes.length === 0) return bad("response_types: code is required")
  const method = m.token_endpoint_auth_method === undefined ? "client_secret_basic" : m.token_endpoint_auth_method
  if (method !== "none" && method !== "client_secret_basic" && method !== "client_secret_post") {
    return bad("token_endpoint_auth_method: one of none, client_secret_basic, client_secret_post")
  }
  if (m.scope !== undefined && typeof m.scope !== "string") return bad("scope: a space-separated string")
  const scope = m.scope === undefined ? "mcp" : supportedScope(m.scope)
  if (scope === undefined) return bad("scope: name mcp (read and write) or mcp:read (read only)")
  if (m.client_name !== undefined && (typeof m.client_name !== "string" || m.client_name.length > 200)) {
    return bad("client_name: a string of at most 200 characters")
  }
  if (m.application_type !== undefined && m.application_type !== "native" && m.application_type !== "web") {
    return bad("application_type: native or web")
  }
  const extra: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(m)) if (!KNOWN.has(k)) extra[k] = v
  return {
    ok: true,
    client: {
      client_name: m.client_name as string | undefined,
      redirect_uris: m.redirect_uris,
      grant_types: grantTypes,
      response_types: responseTypes,
      token_endpoint_auth_method: method,
      application_type: m.application_type as string | undefined,
      scope,
      extra
    }
  }
}
