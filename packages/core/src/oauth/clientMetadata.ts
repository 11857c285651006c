/**
 * Dynamic client registration (RFC 7591) validation: what a client may register here, with the
 * error codes of §3.2.2. Pure: the service stores what this returns.
 */
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

export const validateRegistration = (body: unknown): RegistrationResult => {
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return bad("the body must be a JSON object of client metadata")
  const m = body as Record<string, unknown>
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
  const grantTypes = m.grant_types === undefined ? ["authorization_code", "refresh_token"] : m.grant_types
  if (
    !isStringArray(grantTypes) ||
    grantTypes.length === 0 ||
    grantTypes.some((g) => g !== "authorization_code" && g !== "refresh_token")
  ) {
    return bad("grant_types: only authorization_code and refresh_token are supported")
  }
  if (!grantTypes.includes("authorization_code")) return bad("grant_types: authorization_code is required")
  const responseTypes = m.response_types === undefined ? ["code"] : m.response_types
  if (!isStringArray(responseTypes) || responseTypes.length === 0 || responseTypes.some((r) => r !== "code")) {
    return bad("response_types: only code is supported")
  }
  const method = m.token_endpoint_auth_method === undefined ? "client_secret_basic" : m.token_endpoint_auth_method
  if (method !== "none" && method !== "client_secret_basic" && method !== "client_secret_post") {
    return bad("token_endpoint_auth_method: one of none, client_secret_basic, client_secret_post")
  }
  const scope = m.scope === undefined ? "mcp" : m.scope
  if (typeof scope !== "string" || scope.split(" ").some((s) => s !== "mcp")) return bad("scope: only mcp is supported")
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
