/** Issue 6: the OAuth 2.1 authorization server, played by a client and a browser. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import {
  authorizeUrl,
  Browser,
  consent,
  continueLink,
  fullFlow,
  hiddenFields,
  origin,
  pkce,
  registerClient,
  tokenRequest
} from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("OAuth on %s", (backend) => {
  let server: TestServer
  let base: string
  let site: string
  let a: Account
  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    site = origin(base)
    a = await bootstrap(base, "agent-owner")
  })
  afterAll(() => server?.stop())

  describe("discovery", () => {
    it("serves RFC 8414 metadata whose issuer is PUBLIC_URL", async () => {
      const res = await fetch(`${site}/.well-known/oauth-authorization-server`)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toContain("application/json")
      const m = (await res.json()) as any
      expect(m).toMatchObject({
        issuer: server.config.publicUrl,
        authorization_endpoint: `${site}/oauth/authorize`,
        token_endpoint: `${site}/oauth/token`,
        registration_endpoint: `${site}/oauth/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        scopes_supported: ["mcp", "mcp:read"],
        authorization_response_iss_parameter_supported: true
      })
      expect(m.token_endpoint_auth_methods_supported).toContain("none")
      // issue 33: a client_id may be the https URL of its metadata (test/oauth-metadata-document.test.ts)
      expect(m.client_id_metadata_document_supported).toBe(true)
      expect(Object.values(m).some((v) => Array.isArray(v) && v.length === 0)).toBe(false)
    })

    it("serves RFC 9728 protected-resource metadata for /api, and nothing at the root or openid path", async () => {
      const prm = (await (await fetch(`${site}/.well-known/oauth-protected-resource/api`)).json()) as any
      expect(prm).toMatchObject({
        resource: `${server.config.publicUrl}/api`,
        authorization_servers: [server.config.publicUrl],
        scopes_supported: ["mcp", "mcp:read"],
        bearer_methods_supported: ["header"]
      })
      for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/openid-configuration"]) {
        const r = await fetch(`${site}${path}`)
        expect(r.status).toBe(404)
        expect(await r.json()).toEqual({ error: expect.any(String) })
      }
    })

    it("every 401 under /api points at the resource metadata", async () => {
      const r = await call(base, "GET", "/v1/workspaces", { headers: bearer(`svc_at_${"a".repeat(36)}`) })
      expect(r.status).toBe(401)
      expect(r.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${server.config.publicUrl}/.well-known/oauth-protected-resource/api", scope="mcp", error="invalid_token"`
      )
    })
  })

  describe("dynamic client registration", () => {
    it("registers a public client: 201, no secret, no-store", async () => {
      const r = await registerClient(base, { application_type: "native", software_id: "x" })
      expect(r.status).toBe(201)
      expect(r.headers.get("cache-control")).toBe("no-store")
      expect(r.body).toMatchObject({
        client_id: expect.any(String),
        client_id_issued_at: expect.any(Number),
        redirect_uris: ["http://127.0.0.1/callback"],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        software_id: "x"
      })
      expect(r.body.client_secret).toBeUndefined()
    })

    it("gives a confidential client a secret, stored only as a digest", async () => {
      const r = await registerClient(base, {
        token_endpoint_auth_method: "client_secret_post",
        redirect_uris: ["https://agent.example/cb"]
      })
      expect(r.status).toBe(201)
      expect(r.body.client_secret).toEqual(expect.any(String))
      const rows = await server.query(`SELECT * FROM oauth_clients WHERE id = $1`, [r.body.client_id])
      expect(JSON.stringify(rows)).not.toContain(r.body.client_secret)
    })

    it.each([
      [{ redirect_uris: ["http://example.com/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example/cb#x"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ grant_types: ["implicit"] }, "invalid_client_metadata"],
      [{ grant_types: ["password"] }, "invalid_client_metadata"],
      [{ scope: "admin" }, "invalid_client_metadata"]
    ])("refuses %j with 400 %s", async (metadata, error) => {
      const r = await registerClient(base, metadata)
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ error, error_description: expect.any(String) })
    })
  })

  it("limits registrations per client address (default 20 an hour)", async () => {
    const limited = await startServer(backend, { REGISTRATION_LIMIT: "20/1h" })
    try {
      const statuses: Array<number> = []
      for (let i = 0; i < 21; i++) statuses.push((await registerClient(limited.baseUrl)).status)
      expect(statuses.slice(0, 20).every((s) => s === 201)).toBe(true)
      expect(statuses[20]).toBe(429)
    } finally {
      await limited.stop()
    }
  })

  describe("authorization endpoint", () => {
    it("an unknown client or a mismatched redirect is an error page, never a redirect", async () => {
      const client = (await registerClient(base, { redirect_uris: ["https://app.example/cb"] })).body
      for (const url of [
        authorizeUrl(base, { clientId: "nobody", challenge: pkce().challenge }),
        authorizeUrl(base, {
          clientId: client.client_id,
          redirectUri: "https://app.example/cb/",
          challenge: pkce().challenge
        }),
        authorizeUrl(base, {
          clientId: client.client_id,
          redirectUri: "https://evil.example/cb",
          challenge: pkce().challenge
        })
      ]) {
        const r = await new Browser().get(url)
        expect(r.status).toBe(400)
        expect(r.headers.get("location")).toBeNull()
      }
    })

    it("the page works without JavaScript, is not framable or cached, escapes the client name and shows the redirect host", async () => {
      const client = (await registerClient(base, { client_name: `<script>alert("x")</script>` })).body
      const r = await new Browser().get(authorizeUrl(base, { clientId: client.client_id, challenge: pkce().challenge }))
      expect(r.status).toBe(200)
      expect(r.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
      expect(r.headers.get("x-frame-options")).toBe("DENY")
      expect(r.headers.get("cache-control")).toBe("no-store")
      expect(r.html).not.toContain(`<script>alert`)
      expect(r.html).toContain("&#60;script&#62;")
      expect(r.html).toContain("127.0.0.1:47001")
      expect(r.html).toMatch(/<form method="post"/)
      expect(r.html).toContain(`name="email"`)
      expect(r.html).toContain(`name="password"`)
      expect(r.html).toContain(`value="allow"`)
      expect(r.html).toContain(`value="deny"`)
      expect(r.html).not.toMatch(/<script/i)
    })

    it("allow redirects (303) with code, state and iss; deny with access_denied", async () => {
      const client = (await registerClient(base)).body
      const ok = await consent(base, {
        clientId: client.client_id,
        challenge: pkce().challenge,
        state: "s-1&2",
        email: a.email,
        password: "correct horse battery",
        workspaces: [a.workspaceId]
      })
      expect(ok.res.status).toBe(303)
      const loc = new URL(ok.location!)
      expect(`${loc.origin}${loc.pathname}`).toBe("http://127.0.0.1:47001/callback")
      expect(loc.searchParams.get("code")).toMatch(/^svc_ac_/)
      expect(loc.searchParams.get("state")).toBe("s-1&2")
      expect(loc.searchParams.get("iss")).toBe(server.config.publicUrl)
      const denied = await consent(base, {
        clientId: client.client_id,
        challenge: pkce().challenge,
        email: a.email,
        password: "correct horse battery",
        workspaces: [],
        decision: "deny"
      })
      const d = new URL(denied.location!)
      expect(d.searchParams.get("error")).toBe("access_denied")
      expect(d.searchParams.get("state")).toBe("xyz-state")
      expect(d.searchParams.get("iss")).toBe(server.config.publicUrl)
      expect(d.searchParams.get("code")).toBeNull()
    })

    it("signs in first, then shows one checkbox per workspace; ticking none is an error on the page", async () => {
      const client = (await registerClient(base)).body
      const browser = new Browser()
      const page = await browser.get(authorizeUrl(base, { clientId: client.client_id, challenge: pkce().challenge }))
      const signedIn = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(page.html),
        ["email", a.email],
        ["password", "correct horse battery"]
      ])
      expect(signedIn.status).toBe(200)
      expect(signedIn.html).toContain(`name="workspace" value="${a.workspaceId}"`)
      expect(signedIn.html).not.toContain(`name="password"`)
      const none = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(signedIn.html),
        ["decision", "allow"]
      ])
      expect(none.status).toBe(400)
      expect(none.headers.get("location")).toBeNull()
      expect(none.html).toMatch(/at least one workspace/)
      const allowed = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(signedIn.html),
        ["workspace", a.workspaceId],
        ["decision", "allow"]
      ])
      expect(allowed.status).toBe(303)
    })

    it("Deny works before signing in (no email or password needed), and the form lets a browser submit it", async () => {
      const client = (await registerClient(base)).body
      const browser = new Browser()
      const page = await browser.get(
        authorizeUrl(base, { clientId: client.client_id, challenge: pkce().challenge, state: "st" })
      )
      expect(page.html).toMatch(/value="deny" formnovalidate/)
      const denied = await browser.post(`${site}/oauth/authorize`, [...hiddenFields(page.html), ["decision", "deny"]])
      expect(denied.status).toBe(303)
      const d = new URL(denied.headers.get("location")!)
      expect(`${d.origin}${d.pathname}`).toBe("http://127.0.0.1:47001/callback")
      expect(d.searchParams.get("error")).toBe("access_denied")
      expect(d.searchParams.get("state")).toBe("st")
      expect(d.searchParams.get("iss")).toBe(server.config.publicUrl)
      // without the form's CSRF token it is not a decision
      const forged = await new Browser().post(`${site}/oauth/authorize`, [
        ...hiddenFields(page.html),
        ["decision", "deny"]
      ])
      expect(forged.status).toBe(400)
      expect(forged.headers.get("location")).toBeNull()
    })

    it("signing in with Allow on the first page shows the workspaces to tick, not an error", async () => {
      const client = (await registerClient(base)).body
      const browser = new Browser()
      const page = await browser.get(authorizeUrl(base, { clientId: client.client_id, challenge: pkce().challenge }))
      const signedIn = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(page.html),
        ["email", a.email],
        ["password", "correct horse battery"],
        ["decision", "allow"]
      ])
      expect(signedIn.status).toBe(200)
      expect(signedIn.html).toContain(`name="workspace" value="${a.workspaceId}"`)
      expect(signedIn.html).not.toMatch(/at least one workspace/)
    })

    it("wrong password stays on the page; a tampered workspace id is refused", async () => {
      const client = (await registerClient(base)).body
      const wrong = await consent(base, {
        clientId: client.client_id,
        challenge: pkce().challenge,
        email: a.email,
        password: "nope nope",
        workspaces: [a.workspaceId]
      })
      expect(wrong.location).toBeNull()
      expect(wrong.res.html).toMatch(/Wrong email or password/)
      const b = await bootstrap(base, "not-mine")
      const forged = await consent(base, {
        clientId: client.client_id,
        challenge: pkce().challenge,
        email: a.email,
        password: "correct horse battery",
        workspaces: [a.workspaceId, b.workspaceId]
      })
      expect(forged.res.status).toBe(400)
      expect(forged.location).toBeNull()
    })

    it("refuses a post without the browser's CSRF cookie or with a foreign token", async () => {
      const client = (await registerClient(base)).body
      const page = await new Browser().get(
        authorizeUrl(base, { clientId: client.client_id, challenge: pkce().challenge })
      )
      const stranger = new Browser()
      const r = await stranger.post(`${site}/oauth/authorize`, [
        ...hiddenFields(page.html),
        ["email", a.email],
        ["password", "correct horse battery"],
        ["workspace", a.workspaceId],
        ["decision", "allow"]
      ])
      expect(r.status).toBe(400)
      expect(r.headers.get("location")).toBeNull()
    })

    it.each([
      [{ challenge: undefined }, "invalid_request"],
      [{ extra: { code_challenge_method: "plain" } }, "invalid_request"],
      [{ extra: { scope: "admin" } }, "invalid_scope"],
      [{ extra: { response_type: "token" } }, "unsupported_response_type"],
      [{ extra: { resource: "https://other.example/mcp" } }, "invalid_target"]
    ])(
      "before any sign-in, %j shows a page linking back with error %s, state and iss (no redirect: RFC 9700 §4.11.2)",
      async (override, error) => {
        const client = (await registerClient(base)).body
        const url = authorizeUrl(base, {
          clientId: client.client_id,
          challenge: "challenge" in override ? undefined : pkce().challenge,
          extra: (override as any).extra
        })
        const r = await new Browser().get(url)
        expect(r.status).toBe(400)
        expect(r.headers.get("location")).toBeNull()
        expect(r.html).not.toContain(`type="password"`)
        expect(r.html).toContain("Test Agent")
        const loc = continueLink(r.html)!
        expect(`${loc.origin}${loc.pathname}`).toBe("http://127.0.0.1:47001/callback")
        expect(loc.searchParams.get("error")).toBe(error)
        expect(loc.searchParams.get("error_description")).toEqual(expect.any(String))
        expect(loc.searchParams.get("state")).toBe("xyz-state")
        expect(loc.searchParams.get("iss")).toBe(server.config.publicUrl)
        expect(loc.searchParams.get("code")).toBeNull()
      }
    )

    it("accepts any port for a loopback redirect, and the resource parameter naming this API", async () => {
      const client = (await registerClient(base)).body
      const r = await consent(base, {
        clientId: client.client_id,
        redirectUri: "http://127.0.0.1:61234/callback",
        challenge: pkce().challenge,
        email: a.email,
        password: "correct horse battery",
        workspaces: [a.workspaceId],
        extra: { resource: `${server.config.publicUrl}/api` }
      })
      expect(new URL(r.location!).port).toBe("61234")
      expect(new URL(r.location!).searchParams.get("code")).not.toBeNull()
      const other = await new Browser().get(
        authorizeUrl(base, {
          clientId: client.client_id,
          redirectUri: "http://localhost:61234/callback",
          challenge: pkce().challenge
        })
      )
      expect(other.status).toBe(400)
    })
  })

  describe("token endpoint", () => {
    it("redeems a code once for a bearer access token and a refresh token, no-store", async () => {
      const client = (await registerClient(base)).body
      const { verifier, challenge } = pkce()
      const { location } = await consent(base, {
        clientId: client.client_id,
        challenge,
        email: a.email,
        password: "correct horse battery",
        workspaces: [a.workspaceId]
      })
      const code = new URL(location!).searchParams.get("code")!
      const form = {
        grant_type: "authorization_code",
        code,
        client_id: client.client_id,
        redirect_uri: "http://127.0.0.1:47001/callback",
        code_verifier: verifier
      }
      const t = await tokenRequest(base, form)
      expect(t.status).toBe(200)
      expect(t.headers.get("cache-control")).toBe("no-store")
      expect(t.body).toMatchObject({
        access_token: expect.stringMatching(/^svc_at_/),
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^svc_rt_/),
        scope: "mcp"
      })
      const works = await call(base, "GET", "/v1/workspaces", { headers: bearer(t.body.access_token) })
      expect(works.status).toBe(200)
      // a second redemption fails and revokes what the first issued
      const again = await tokenRequest(base, form)
      expect(again.status).toBe(400)
      expect(again.body.error).toBe("invalid_grant")
      expect((await call(base, "GET", "/v1/workspaces", { headers: bearer(t.body.access_token) })).status).toBe(401)
      const stored = await server.query(`SELECT digest FROM oauth_tokens`)
      expect(JSON.stringify(stored)).not.toContain(t.body.access_token)
    })

    it.each([
      ["a wrong verifier", { code_verifier: "x".repeat(43) }],
      ["no verifier", { code_verifier: undefined }],
      ["another client's id", { client_id: "other" }],
      ["a different redirect_uri", { redirect_uri: "http://127.0.0.1:47001/other" }],
      ["a resource for another API", { resource: "https://other.example/api" }]
    ])("refuses %s", async (_label, override) => {
      const client = (await registerClient(base)).body
      const { verifier, challenge } = pkce()
      const { location } = await consent(base, {
        clientId: client.client_id,
        challenge,
        email: a.email,
        password: "correct horse battery",
        workspaces: [a.workspaceId]
      })
      const form: Record<string, string> = {
        grant_type: "authorization_code",
        code: new URL(location!).searchParams.get("code")!,
        client_id: client.client_id,
        code_verifier: verifier
      }
      for (const [k, v] of Object.entries(override)) {
        if (v === undefined) delete form[k]
        else form[k] = v
      }
      const other = await registerClient(base)
      if (form.client_id === "other") form.client_id = other.body.client_id
      const r = await tokenRequest(base, form)
      expect(r.status).toBeGreaterThanOrEqual(400)
      expect(["invalid_grant", "invalid_target", "invalid_request"]).toContain(r.body.error)
      expect(r.body.access_token).toBeUndefined()
    })

    it("rotates refresh tokens; replaying a rotated one revokes the grant", async () => {
      const { client, tokens } = await fullFlow(base, a, [a.workspaceId])
      const r1 = await tokenRequest(base, {
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: client.client_id
      })
      expect(r1.status).toBe(200)
      expect(r1.body.refresh_token).not.toBe(tokens.refresh_token)
      const replay = await tokenRequest(base, {
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: client.client_id
      })
      expect(replay.body.error).toBe("invalid_grant")
      const r2 = await tokenRequest(base, {
        grant_type: "refresh_token",
        refresh_token: r1.body.refresh_token,
        client_id: client.client_id
      })
      expect(r2.body.error).toBe("invalid_grant")
      expect((await call(base, "GET", "/v1/workspaces", { headers: bearer(r1.body.access_token) })).status).toBe(401)
    })

    it("parallel refreshes with one token: exactly one succeeds", async () => {
      const { client, tokens } = await fullFlow(base, a, [a.workspaceId])
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          tokenRequest(base, {
            grant_type: "refresh_token",
            refresh_token: tokens.refresh_token,
            client_id: client.client_id
          })
        )
      )
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    })

    it("refuses a wider scope on refresh, another client's refresh token, and unknown grant types", async () => {
      const { client, tokens } = await fullFlow(base, a, [a.workspaceId])
      const wider = await tokenRequest(base, {
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: client.client_id,
        scope: "mcp offline_access"
      })
      expect(wider.body.error).toBe("invalid_scope")
      const other = (await registerClient(base)).body
      const stolen = await tokenRequest(base, {
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: other.client_id
      })
      expect(stolen.body.error).toBe("invalid_grant")
      const pw = await tokenRequest(base, {
        grant_type: "password",
        username: a.email,
        password: "correct horse battery",
        client_id: client.client_id
      })
      expect(pw.body.error).toBe("unsupported_grant_type")
    })
  })

  describe("tokens at the API", () => {
    it("are bound to the workspaces ticked at consent: 403 outside, later workspaces not added, search scoped", async () => {
      const w2 = (await call(base, "POST", "/v1/workspaces", { body: { name: "Second" }, headers: bearer(a.session) }))
        .body.workspace.id
      const p2 = (
        await call(base, "POST", "/v1/projects", {
          body: { workspaceId: w2, name: "Hidden", template: "kanban" },
          headers: bearer(a.session)
        })
      ).body
      const word = `oauthscope${Date.now()}`
      await call(base, "POST", "/v1/cards", {
        body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: `${word} visible` },
        headers: key(a.apiKey)
      })
      await call(base, "POST", "/v1/cards", {
        body: { projectId: p2.project.id, columnId: p2.columns[0].id, title: `${word} hidden` },
        headers: key(a.apiKey)
      })
      const { tokens } = await fullFlow(base, a, [a.workspaceId])
      const h = bearer(tokens.access_token)
      const list = await call(base, "GET", "/v1/workspaces", { headers: h })
      expect(list.body.map((w: any) => w.id)).toEqual([a.workspaceId])
      const outside = await call(base, "GET", `/v1/board/${p2.project.id}`, { headers: h })
      expect(outside.status).toBe(403)
      expect(outside.headers.get("www-authenticate") ?? "").not.toContain("insufficient_scope")
      expect((await call(base, "GET", `/v1/board/${a.projectId}`, { headers: h })).status).toBe(200)
      const found = await call(base, "GET", `/v1/search?q=${word}`, { headers: h })
      expect(found.body.map((c: any) => c.title)).toEqual([`${word} visible`])
      await call(base, "POST", "/v1/workspaces", { body: { name: "Third" }, headers: bearer(a.session) })
      expect((await call(base, "GET", "/v1/workspaces", { headers: h })).body).toHaveLength(1)
      const created = await call(base, "POST", "/v1/cards", {
        body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "by agent" },
        headers: h
      })
      expect(created.status).toBe(201)
    })

    it("cannot mint API keys; manages intake tokens inside its grant only (CONTRACT.md lists OAuth tokens for them)", async () => {
      const { tokens } = await fullFlow(base, a, [a.workspaceId])
      const h = bearer(tokens.access_token)
      expect((await call(base, "POST", "/v1/api-keys", { body: { name: "x" }, headers: h })).status).toBe(401)
      const minted = await call(base, "POST", "/v1/intake-tokens", {
        body: { columnId: a.columns[0]!.id, name: "agent's form" },
        headers: h
      })
      expect(minted.status).toBe(201)
      expect(minted.body.token).toMatch(/^svc_in_/)
      const listed = await call(base, "GET", `/v1/projects/${a.projectId}/intake-tokens`, { headers: h })
      expect(listed.body.map((t: any) => t.id)).toContain(minted.body.id)
      expect(
        (
          await call(base, "POST", "/v1/intake", {
            body: { title: "via the agent's token" },
            headers: { "x-intake-key": minted.body.token }
          })
        ).status
      ).toBe(201)
      expect((await call(base, "DELETE", `/v1/intake-tokens/${minted.body.id}`, { headers: h })).status).toBe(204)
      expect(
        (
          await call(base, "POST", "/v1/intake", {
            body: { title: "after revoking" },
            headers: { "x-intake-key": minted.body.token }
          })
        ).status
      ).toBe(401)
      // outside the grant: 403, as everywhere else
      const w2 = (
        await call(base, "POST", "/v1/workspaces", { body: { name: "Not granted" }, headers: bearer(a.session) })
      ).body.workspace.id
      const p2 = (
        await call(base, "POST", "/v1/projects", {
          body: { workspaceId: w2, name: "Elsewhere", template: "kanban" },
          headers: bearer(a.session)
        })
      ).body
      expect(
        (await call(base, "POST", "/v1/intake-tokens", { body: { columnId: p2.columns[0].id }, headers: h })).status
      ).toBe(403)
      expect((await call(base, "GET", `/v1/projects/${p2.project.id}/intake-tokens`, { headers: h })).status).toBe(403)
    })

    it("grants are listed and revoked by their user, effective at once", async () => {
      const { client, tokens } = await fullFlow(base, a, [a.workspaceId])
      const grants = await call(base, "GET", "/v1/oauth/grants", { headers: key(a.apiKey) })
      expect(grants.status).toBe(200)
      const grant = grants.body.find((g: any) => g.clientId === client.client_id)
      expect(grant).toMatchObject({ clientName: "Test Agent", workspaces: [a.workspaceId], scope: "mcp" })
      const b = await bootstrap(base, "grant-thief")
      expect((await call(base, "DELETE", `/v1/oauth/grants/${grant.id}`, { headers: key(b.apiKey) })).status).toBe(404)
      expect((await call(base, "DELETE", `/v1/oauth/grants/${grant.id}`, { headers: bearer(a.session) })).status).toBe(
        204
      )
      expect((await call(base, "GET", "/v1/workspaces", { headers: bearer(tokens.access_token) })).status).toBe(401)
      const refresh = await tokenRequest(base, {
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: client.client_id
      })
      expect(refresh.body.error).toBe("invalid_grant")
    })

    it("an access token in the query string is not a credential", async () => {
      const { tokens } = await fullFlow(base, a, [a.workspaceId])
      expect((await call(base, "GET", `/v1/workspaces?access_token=${tokens.access_token}`)).status).toBe(401)
    })
  })
})
