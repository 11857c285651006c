/**
 * Validates an authorization request before anyone is asked to sign in, in RFC 6749 §4.1.2.1's
 * order: an unknown client or a redirect URI that does not match is shown as an error page and
 * NEVER redirected; anything else wrong is a `redirect` check: the error for the client's
 * registered redirect, with `error`, `state` and `iss`. Whether it is sent at once or shown as a
 * page with a link is the route's call (OAuthRoutes.ts): at once only to a client the signed-in
 * person has granted (RFC 9700 §4.11.2: no open redirector through errors).
 */
import { namesResource, type OAuthScope, PKCE_CHALLENGE, redirectMatches, supportedScope } from "@board/core"

export interface AuthorizeParams {
  readonly clientId: string
  readonly redirectUri: string
  readonly state: string | undefined
  readonly codeChallenge: string
  readonly scope: OAuthScope
  readonly resource: string
}

export type AuthorizeCheck =
  | { readonly kind: "page"; readonly message: string }
  | {
      readonly kind: "redirect"
      readonly redirectUri: string
      readonly state: string | undefined
      readonly error: string
      readonly description: string
    }
  | { readonly kind: "ok"; readonly params: AuthorizeParams }

export const checkAuthorizeRequest = (
  q: Readonly<Record<string, string | undefined>>,
  client: { readonly redirect_uris: ReadonlyArray<string>; readonly scope: string } | undefined,
  resource: string
): AuthorizeCheck => {
  if (q.client_id === undefined || client === undefined)
    return { kind: "page", message: "Unknown client: this application is not registered here." }
  if (q.redirect_uri === undefined) {
    if (client.redirect_uris.length !== 1) return { kind: "page", message: "redirect_uri is required for this client." }
  } else if (!redirectMatches(client.redirect_uris, q.redirect_uri)) {
    return { kind: "page", message: "The redirect_uri does not match any URI registered for this client." }
  }
  const redirectUri = q.redirect_uri ?? client.redirect_uris[0]!
  const back = (error: string, description: string): AuthorizeCheck => ({
    kind: "redirect",
    redirectUri,
    state: q.state,
    error,
    description
  })
  if (q.response_type === undefined) return back("invalid_request", "response_type is required (code)")
  if (q.response_type !== "code") return back("unsupported_response_type", "response_type must be code")
  if (q.code_challenge === undefined) return back("invalid_request", "code_challenge is required (PKCE)")
  if (q.code_challenge_method !== "S256") return back("invalid_request", "code_challenge_method must be S256")
  if (!PKCE_CHALLENGE.test(q.code_challenge))
    return back("invalid_request", "code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~]")
  // values other than mcp and mcp:read are dropped (the token response says the scope granted);
  // a client registered for mcp:read is granted no more
  const asked = q.scope === undefined ? (client.scope === "mcp:read" ? "mcp:read" : "mcp") : supportedScope(q.scope)
  if (asked === undefined)
    return back("invalid_scope", "the scope must include mcp (read and write) or mcp:read (read only)")
  const scope: OAuthScope = client.scope === "mcp:read" ? "mcp:read" : asked
  // the MCP endpoint's URL names the API as well; the code is bound to the API itself
  if (q.resource !== undefined && !namesResource(q.resource, resource)) {
    return back("invalid_target", `resource must be ${resource} or a URL under it`)
  }
  return {
    kind: "ok",
    params: {
      clientId: q.client_id,
      redirectUri,
      state: q.state,
      codeChallenge: q.code_challenge,
      scope,
      resource
    }
  }
}

/** The client's redirect with the response parameters; `iss` on every one (RFC 9207). */
export const redirectTo = (redirectUri: string, params: Record<string, string | undefined>): string => {
  const url = new URL(redirectUri)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v)
  return url.toString()
}
