/** Plays an OAuth client and its user's browser against the authorization server. */
import * as crypto from "node:crypto"
import { call, SUITE_PASSWORD } from "./client.ts"

export const origin = (baseUrl: string) => baseUrl.replace(/\/api$/, "")

export const pkce = () => {
  const verifier = crypto.randomBytes(32).toString("base64url")
  return { verifier, challenge: crypto.createHash("sha256").update(verifier).digest("base64url") }
}

export const registerClient = async (baseUrl: string, metadata: Record<string, unknown> = {}) => {
  const res = await fetch(`${origin(baseUrl)}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Test Agent",
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
      ...metadata
    })
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

/** A tiny cookie jar: what a browser would send back. */
export class Browser {
  readonly cookies = new Map<string, string>()
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  }
  absorb(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";")
      const i = pair!.indexOf("=")
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
  }
  async get(url: string) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: this.header() } })
    this.absorb(res)
    return { status: res.status, headers: res.headers, html: await res.text() }
  }
  async post(url: string, form: Array<[string, string]>) {
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: this.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString()
    })
    this.absorb(res)
    return { status: res.status, headers: res.headers, html: await res.text() }
  }
}

/**
 * The "Continue to …" link of an authorization error page (an error for a client the person has
 * not granted is shown, not redirected: RFC 9700 §4.11.2), as a URL.
 */
export const continueLink = (html: string): URL | undefined => {
  const href = /<a href="([^"]+)"[^>]*>Continue to [^<]+<\/a>/.exec(html)?.[1]
  return href === undefined ? undefined : new URL(decode(href.replaceAll("&amp;", "&")))
}

/** The form's hidden fields (the authorization request and the CSRF token). */
export const hiddenFields = (html: string): Array<[string, string]> =>
  [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, decode(m[2]!)])
const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))

export interface FlowOptions {
  readonly clientId: string
  readonly redirectUri?: string
  readonly challenge: string
  readonly state?: string
  readonly email: string
  readonly password: string
  readonly workspaces: ReadonlyArray<string>
  readonly decision?: "allow" | "deny"
  readonly extra?: Record<string, string>
}

export const authorizeUrl = (
  baseUrl: string,
  o: { clientId: string; redirectUri?: string; challenge?: string; state?: string; extra?: Record<string, string> }
) => {
  const u = new URL(`${origin(baseUrl)}/oauth/authorize`)
  u.searchParams.set("response_type", "code")
  u.searchParams.set("client_id", o.clientId)
  u.searchParams.set("redirect_uri", o.redirectUri ?? "http://127.0.0.1:47001/callback")
  if (o.challenge !== undefined) {
    u.searchParams.set("code_challenge", o.challenge)
    u.searchParams.set("code_challenge_method", "S256")
  }
  u.searchParams.set("scope", "mcp")
  u.searchParams.set("state", o.state ?? "xyz-state")
  for (const [k, v] of Object.entries(o.extra ?? {})) u.searchParams.set(k, v)
  return u.toString()
}

/** Sign-in and consent in one post, as a person filling the form would. Returns the redirect. */
export const consent = async (baseUrl: string, o: FlowOptions, browser = new Browser()) => {
  const page = await browser.get(authorizeUrl(baseUrl, o))
  const form: Array<[string, string]> = [...hiddenFields(page.html), ["email", o.email], ["password", o.password]]
  for (const w of o.workspaces) form.push(["workspace", w])
  form.push(["decision", o.decision ?? "allow"])
  const res = await browser.post(`${origin(baseUrl)}/oauth/authorize`, form)
  return { page, res, location: res.headers.get("location"), browser }
}

export const tokenRequest = async (baseUrl: string, form: Record<string, string>) => {
  const res = await fetch(`${origin(baseUrl)}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString()
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

/** Register, consent, redeem: an access and refresh token for these workspaces (scope `mcp` unless said). */
export const fullFlow = async (
  baseUrl: string,
  account: { email: string },
  workspaces: ReadonlyArray<string>,
  scope = "mcp"
) => {
  const client = (await registerClient(baseUrl)).body
  const { verifier, challenge } = pkce()
  const { location, page } = await consent(baseUrl, {
    clientId: client.client_id,
    challenge,
    email: account.email,
    password: SUITE_PASSWORD,
    workspaces,
    extra: { scope }
  })
  const code = new URL(location!).searchParams.get("code")!
  const tokens = await tokenRequest(baseUrl, {
    grant_type: "authorization_code",
    code,
    client_id: client.client_id,
    redirect_uri: "http://127.0.0.1:47001/callback",
    code_verifier: verifier
  })
  return {
    client,
    tokens: tokens.body as { access_token: string; refresh_token: string; scope: string },
    code,
    verifier,
    consentPage: page.html as string
  }
}

export { call }
