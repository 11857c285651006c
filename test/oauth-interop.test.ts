/**
 * Issue 20: OAuth that every agent client can use. Desktop apps with a private-use scheme
 * (Cursor) or a loopback redirect on a random port (VS Code, Claude Code), registrations
 * carrying values the server does not support (RFC 7591), `resource` naming the MCP endpoint
 * (RFC 8707), and authorization requests judged before anyone types a password.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, SUITE_PASSWORD } from "./support/client.ts"
import {
  authorizeUrl,
  Browser,
  consent,
  continueLink,
  hiddenFields,
  origin,
  pkce,
  registerClient,
  tokenRequest
} from "./support/oauthFlow.ts"
import { freePort, startServer, type TestServer } from "./support/server.ts"

const MCP_INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "interop", version: "1" } }
})
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" }

describe.each(backends)("OAuth interoperability on %s", (backend) => {
  let server: TestServer
  let base: string
  let site: string
  let a: Account
  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    site = origin(base)
    a = await bootstrap(base, "interop")
  })
  afterAll(() => server?.stop())

  const exchange = (clientId: string, code: string, verifier: string, redirectUri: string, extra = {}) =>
    tokenRequest(base, {
      grant_type: "authorization_code",
      code,
      client_id: clientId,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      ...extra
    })
  const refresh = (clientId: string, refreshToken: string, extra: Record<string, string> = {}) =>
    tokenRequest(base, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, ...extra })
  const works = async (accessToken: string) =>
    (await call(base, "GET", "/v1/workspaces", { headers: bearer(accessToken) })).status

  describe("a desktop app with a private-use scheme (RFC 8252 §7.1)", () => {
    it.each([
      ["cursor://anysphere.cursor-mcp/oauth/callback", "cursor://anysphere.cursor-mcp"],
      ["com.example.agent:/oauth2redirect", "com.example.agent:"]
    ])("%s registers, signs in, allows, exchanges and refreshes", async (redirectUri, shown) => {
      const reg = await registerClient(base, {
        client_name: "Desktop Agent",
        application_type: "native",
        redirect_uris: [redirectUri]
      })
      expect(reg.status).toBe(201)
      expect(reg.body.redirect_uris).toEqual([redirectUri])
      const clientId = reg.body.client_id
      const { verifier, challenge } = pkce()
      const browser = new Browser()

      // step 1: sign in, and nothing else; the page says which app gets the answer
      const signIn = await browser.get(authorizeUrl(base, { clientId, redirectUri, challenge, state: "desk-1" }))
      expect(signIn.status).toBe(200)
      expect(signIn.html).toContain(`<b>${shown}</b> links`)
      expect(signIn.html).toMatch(/Any app on this device can claim a link type/)
      expect(signIn.html).toContain(`type="password" name="password"`)
      expect(signIn.html).toMatch(
        /<button type="submit" class="primary" name="decision" value="allow">Sign in<\/button>/
      )
      expect(signIn.html).not.toContain(`name="workspace"`)
      expect(signIn.html).not.toMatch(/>Allow</)
      // the form may end at the app's scheme: CSP form-action governs the redirect after a post
      expect(signIn.headers.get("content-security-policy")).toContain(
        `form-action 'self' ${new URL(redirectUri).protocol};`
      )

      // step 2: the workspaces, each checkbox inside its label, and Allow / Deny
      const choose = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(signIn.html),
        ["email", a.email],
        ["password", SUITE_PASSWORD],
        ["decision", "allow"]
      ])
      expect(choose.status).toBe(200)
      expect(choose.html).not.toContain(`name="password"`)
      expect(choose.html).toContain(
        `<label class="ws"><input type="checkbox" name="workspace" value="${a.workspaceId}"> `
      )
      expect(choose.html).toMatch(/value="allow">Allow<\/button>/)
      expect(choose.html).toMatch(/value="deny">Deny<\/button>/)

      const allowed = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(choose.html),
        ["workspace", a.workspaceId],
        ["decision", "allow"]
      ])
      expect(allowed.status).toBe(303)
      const location = allowed.headers.get("location")!
      expect(location.startsWith(`${redirectUri}?`)).toBe(true)
      const back = new URL(location)
      expect(back.searchParams.get("state")).toBe("desk-1")
      expect(back.searchParams.get("iss")).toBe(server.config.publicUrl)
      const code = back.searchParams.get("code")!
      expect(code).toMatch(/^svc_ac_/)

      const tokens = await exchange(clientId, code, verifier, redirectUri)
      expect(tokens.status).toBe(200)
      expect(await works(tokens.body.access_token)).toBe(200)
      const refreshed = await refresh(clientId, tokens.body.refresh_token)
      expect(refreshed.status).toBe(200)
      expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token)
      expect(await works(refreshed.body.access_token)).toBe(200)
    })

    it.each([
      "myapp://callback",
      "cursor:callback",
      "javascript://a.example/%0Aalert(1)",
      "data://a.example/x",
      "file://host.example/etc/passwd",
      "http://app.example/cb"
    ])("refuses %s (no reverse-domain name, or a scheme browsers act on)", async (uri) => {
      const r = await registerClient(base, { redirect_uris: [uri] })
      expect(r.status).toBe(400)
      expect(r.body).toEqual({ error: "invalid_redirect_uri", error_description: expect.stringContaining(uri) })
    })
  })

  describe("a loopback redirect on whatever port the app got (RFC 8252 §7.3)", () => {
    it.each(["127.0.0.1", "[::1]"])("http://%s: any port matches, the path must not differ", async (host) => {
      const registeredPort = await freePort()
      const port = await freePort()
      const reg = await registerClient(base, { redirect_uris: [`http://${host}:${registeredPort}/callback`] })
      expect(reg.status).toBe(201)
      const clientId = reg.body.client_id
      const redirectUri = `http://${host}:${port}/callback`
      const { verifier, challenge } = pkce()
      // the contract's one post: email, password, workspace and decision=allow together
      const { page, res, location } = await consent(base, {
        clientId,
        redirectUri,
        challenge,
        email: a.email,
        password: SUITE_PASSWORD,
        workspaces: [a.workspaceId]
      })
      expect(page.html).toContain(`a program on this computer (<b>${host}:${port}</b>)`)
      expect(page.headers.get("content-security-policy")).toContain(
        host === "[::1]" ? `form-action 'self' http:;` : `form-action 'self' http://${host}:${port};`
      )
      expect(res.status).toBe(303)
      const back = new URL(location!)
      expect(`${back.origin}${back.pathname}`).toBe(redirectUri)
      const tokens = await exchange(clientId, back.searchParams.get("code")!, verifier, redirectUri)
      expect(tokens.status).toBe(200)
      const refreshed = await refresh(clientId, tokens.body.refresh_token)
      expect(refreshed.status).toBe(200)
      expect(await works(refreshed.body.access_token)).toBe(200)

      const otherPath = await new Browser().get(
        authorizeUrl(base, { clientId, redirectUri: `http://${host}:${port}/callback2`, challenge })
      )
      expect(otherPath.status).toBe(400)
      expect(otherPath.headers.get("location")).toBeNull()
    })
  })

  describe("registration drops what it does not support (RFC 7591 §3.2.1)", () => {
    it("an extra device_code grant, a token response type and an unknown scope are dropped, and the answer says so", async () => {
      const r = await registerClient(base, {
        client_name: "Older VS Code",
        redirect_uris: ["http://127.0.0.1:33418/"],
        grant_types: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
        response_types: ["code", "token"],
        scope: "mcp offline_access"
      })
      expect(r.status).toBe(201)
      expect(r.body).toMatchObject({
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        scope: "mcp",
        redirect_uris: ["http://127.0.0.1:33418/"]
      })
      const [row] = await server.query(`SELECT grant_types, response_types, scope FROM oauth_clients WHERE id = $1`, [
        r.body.client_id
      ])
      expect(row).toMatchObject({
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        scope: "mcp"
      })
    })

    it.each([
      [{ grant_types: ["urn:ietf:params:oauth:grant-type:device_code"] }, /authorization_code/],
      [{ grant_types: ["refresh_token", "implicit"] }, /authorization_code/],
      [{ response_types: ["token"] }, /code/],
      [{ scope: "openid profile" }, /mcp/]
    ])("still refuses %j: nothing usable is left", async (metadata, says) => {
      const r = await registerClient(base, metadata)
      expect(r.status).toBe(400)
      expect(r.body).toEqual({ error: "invalid_client_metadata", error_description: expect.stringMatching(says) })
    })
  })

  describe("resource (RFC 8707)", () => {
    const flow = async (resource: string) => {
      const client = (await registerClient(base)).body
      const { verifier, challenge } = pkce()
      const { location } = await consent(base, {
        clientId: client.client_id,
        challenge,
        email: a.email,
        password: SUITE_PASSWORD,
        workspaces: [a.workspaceId],
        extra: { resource }
      })
      const code = new URL(location!).searchParams.get("code")!
      return { client, code, verifier }
    }

    it("the MCP endpoint's URL is accepted; the token is bound to the API and works on MCP and REST", async () => {
      const mcpUrl = `${server.config.publicUrl}/api/mcp`
      const { client, code, verifier } = await flow(mcpUrl)
      expect(code).toMatch(/^svc_ac_/)
      const tokens = await exchange(client.client_id, code, verifier, "http://127.0.0.1:47001/callback", {
        resource: mcpUrl
      })
      expect(tokens.status).toBe(200)
      const [grant] = await server.query(`SELECT resource FROM oauth_grants WHERE client_id = $1`, [client.client_id])
      expect(grant).toEqual({ resource: `${server.config.publicUrl}/api` })
      expect(await works(tokens.body.access_token)).toBe(200)
      const mcp = await call(base, "POST", "/mcp", {
        raw: MCP_INIT,
        headers: { ...MCP_HEADERS, ...bearer(tokens.body.access_token) }
      })
      expect(mcp.status).toBe(200)
      const refreshed = await refresh(client.client_id, tokens.body.refresh_token, { resource: mcpUrl })
      expect(refreshed.status).toBe(200)
    })

    it("a wrong resource on refresh is refused without spending the refresh token", async () => {
      const { client, code, verifier } = await flow(`${server.config.publicUrl}/api`)
      const tokens = (await exchange(client.client_id, code, verifier, "http://127.0.0.1:47001/callback")).body
      for (const resource of ["https://other.example/api", `${server.config.publicUrl}/apix`, `${site}/`]) {
        const wrong = await refresh(client.client_id, tokens.refresh_token, { resource })
        expect(wrong.status).toBe(400)
        expect(wrong.body).toEqual({ error: "invalid_target", error_description: expect.any(String) })
      }
      // the grant lives on: the access token works and the same refresh token still rotates
      expect(await works(tokens.access_token)).toBe(200)
      const right = await refresh(client.client_id, tokens.refresh_token, {
        resource: `${server.config.publicUrl}/api`
      })
      expect(right.status).toBe(200)
      expect(await works(right.body.access_token)).toBe(200)
    })

    it("a wrong resource at the token endpoint leaves the code redeemable", async () => {
      const { client, code, verifier } = await flow(`${server.config.publicUrl}/api/mcp`)
      const wrong = await exchange(client.client_id, code, verifier, "http://127.0.0.1:47001/callback", {
        resource: "https://other.example/api/mcp"
      })
      expect(wrong.body.error).toBe("invalid_target")
      const right = await exchange(client.client_id, code, verifier, "http://127.0.0.1:47001/callback")
      expect(right.status).toBe(200)
    })
  })

  describe("the authorization request is judged before any sign-in", () => {
    it("an unknown client or an unregistered redirect is an error on the page: never a redirect, never a password field", async () => {
      const client = (await registerClient(base, { redirect_uris: ["cursor://anysphere.cursor-mcp/cb"] })).body
      for (const url of [
        authorizeUrl(base, { clientId: "board_client_nobody", challenge: pkce().challenge }),
        authorizeUrl(base, {
          clientId: client.client_id,
          redirectUri: "cursor://anysphere.cursor-mcp/other",
          challenge: pkce().challenge
        }),
        authorizeUrl(base, {
          clientId: client.client_id,
          redirectUri: "https://evil.example/cb",
          challenge: pkce().challenge,
          extra: { response_type: "token" }
        })
      ]) {
        const r = await new Browser().get(url)
        expect(r.status).toBe(400)
        expect(r.headers.get("location")).toBeNull()
        expect(r.headers.get("cache-control")).toBe("no-store")
        expect(r.html).toMatch(/<p class="error" role="alert">/)
        expect(r.html).toContain(`<meta name="viewport"`)
        expect(r.html).not.toContain(`type="password"`)
      }
    })

    it.each([
      [{ challenge: undefined }, "invalid_request"],
      [{ extra: { code_challenge_method: "plain" } }, "invalid_request"],
      [{ extra: { code_challenge: "short" } }, "invalid_request"],
      [{ extra: { scope: "admin" } }, "invalid_scope"],
      [{ extra: { response_type: "token" } }, "unsupported_response_type"],
      [{ extra: { resource: "https://other.example/api/mcp" } }, "invalid_target"]
    ])(
      "%j links back to the private-use redirect with %s, state and iss (shown, not redirected)",
      async (override, error) => {
        const redirectUri = "cursor://anysphere.cursor-mcp/oauth/callback"
        const client = (await registerClient(base, { redirect_uris: [redirectUri] })).body
        const r = await new Browser().get(
          authorizeUrl(base, {
            clientId: client.client_id,
            redirectUri,
            challenge: "challenge" in override ? undefined : pkce().challenge,
            state: "st-9",
            extra: (override as { extra?: Record<string, string> }).extra
          })
        )
        // nobody is signed in, so nobody has granted this client: a page, never a redirect
        expect(r.status).toBe(400)
        expect(r.headers.get("location")).toBeNull()
        expect(r.html).not.toContain(`type="password"`)
        expect(r.html).toContain("anysphere.cursor-mcp")
        const back = continueLink(r.html)!
        expect(`${back.protocol}//${back.host}${back.pathname}`).toBe(redirectUri)
        expect(back.searchParams.get("error")).toBe(error)
        expect(back.searchParams.get("state")).toBe("st-9")
        expect(back.searchParams.get("iss")).toBe(server.config.publicUrl)
      }
    )

    it("a scope with mcp among others is granted as mcp", async () => {
      const client = (await registerClient(base)).body
      const { verifier, challenge } = pkce()
      const { location } = await consent(base, {
        clientId: client.client_id,
        challenge,
        email: a.email,
        password: SUITE_PASSWORD,
        workspaces: [a.workspaceId],
        extra: { scope: "mcp offline_access" }
      })
      const code = new URL(location!).searchParams.get("code")!
      const tokens = await exchange(client.client_id, code, verifier, "http://127.0.0.1:47001/callback")
      expect(tokens.body.scope).toBe("mcp")
    })
  })

  describe("the consent page", () => {
    it("reads on a phone and with a screen reader; a wrong password is announced; another account can sign in", async () => {
      const client = (await registerClient(base, { redirect_uris: ["https://agent.example/cb"] })).body
      const browser = new Browser()
      const url = authorizeUrl(base, {
        clientId: client.client_id,
        redirectUri: "https://agent.example/cb",
        challenge: pkce().challenge
      })
      const page = await browser.get(url)
      expect(page.html).toContain(`<meta name="viewport" content="width=device-width,initial-scale=1">`)
      expect(page.html).toContain(`<html lang="en">`)
      expect(page.html).toMatch(/<h1>Authorize Test Agent<\/h1>/)
      expect(page.html).toMatch(/<h2>Sign in<\/h2>/)
      expect(page.html).toContain(`you will be sent to <b>agent.example</b>`)
      expect(page.html).toMatch(/<label class="field">Email <input type="email" name="email"/)
      const wrong = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(page.html),
        ["email", a.email],
        ["password", "not the password"],
        ["decision", "allow"]
      ])
      expect(wrong.html).toMatch(/<p class="error" role="alert">Wrong email or password.<\/p>/)
      const signedIn = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(page.html),
        ["email", a.email],
        ["password", SUITE_PASSWORD],
        ["decision", "allow"]
      ])
      expect(signedIn.html).toMatch(/<h2>Allow access<\/h2>/)
      expect(signedIn.html).toContain(`signed in as <b>${a.email}</b>`)
      // the session cookie now signs the browser in: a fresh load shows the consent step
      expect((await browser.get(url)).html).toMatch(/<h2>Allow access<\/h2>/)
      const switched = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(signedIn.html),
        ["account", "switch"]
      ])
      expect(switched.status).toBe(200)
      expect(switched.html).toMatch(/<h2>Sign in<\/h2>/)
      expect((await browser.get(url)).html).toContain(`name="password"`)
    })
  })

  describe("small things", () => {
    it("MCP without text/event-stream in Accept: 406 naming the header it needs", async () => {
      const { access_token } = (
        await (async () => {
          const client = (await registerClient(base)).body
          const { verifier, challenge } = pkce()
          const { location } = await consent(base, {
            clientId: client.client_id,
            challenge,
            email: a.email,
            password: SUITE_PASSWORD,
            workspaces: [a.workspaceId]
          })
          return exchange(
            client.client_id,
            new URL(location!).searchParams.get("code")!,
            verifier,
            "http://127.0.0.1:47001/callback"
          )
        })()
      ).body
      for (const accept of ["application/json", "text/event-stream", undefined]) {
        const headers: Record<string, string> = { "content-type": "application/json", ...bearer(access_token) }
        if (accept !== undefined) headers.accept = accept
        const r = await call(base, "POST", "/mcp", { raw: MCP_INIT, headers })
        expect(r.status).toBe(406)
        expect(r.body).toEqual({ error: expect.stringContaining("Accept: application/json, text/event-stream") })
      }
    })

    it("the discovery documents are cacheable for 5 minutes, without pragma: no-cache", async () => {
      for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource/api"]) {
        const r = await fetch(`${site}${path}`)
        expect(r.status).toBe(200)
        expect(r.headers.get("cache-control")).toBe("public, max-age=300")
        expect(r.headers.get("pragma")).toBeNull()
      }
    })
  })
})
