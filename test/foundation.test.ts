/** Issue 2: the HTTP shell, accounts and credentials, over real HTTP on each database. */
import { deriveKeys } from "@board/core"
import { Effect } from "effect"
import { HttpRouter } from "effect/http"
import * as jose from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { bearer, bootstrap, call, key, uniqueEmail } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

const SECRET = "test-secret-that-is-long-enough-0123456789"

describe.each(backends)("foundation on %s", (backend) => {
  let server: TestServer
  let base: string
  beforeAll(async () => {
    server = await startServer(
      backend,
      { SECRET },
      HttpRouter.add("GET", "/api/v1/boom", Effect.die(new Error("secret defect text")))
    )
    base = server.baseUrl
  })
  afterAll(() => server?.stop())

  describe("public endpoints", () => {
    it("GET /v1/health answers exactly the health body without a credential", async () => {
      const r = await call(base, "GET", "/v1/health")
      expect(r.status).toBe(200)
      expect(r.text).toBe(`{"status":"ok","service":"service-api"}`)
      expect(r.headers.get("content-type")).toContain("application/json")
    })

    it("GET /v1 is the API index with baseUrl from PUBLIC_URL", async () => {
      const r = await call(base, "GET", "/v1")
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        status: "ok",
        service: "service-api",
        name: "Board Service",
        version: "1.0",
        baseUrl: base
      })
      expect(r.body.documentation.openapi).toBe(`${base}/v1/openapi.json`)
      expect(r.body.authentication.required).toBe(true)
      expect(r.body.authentication.schemes.map((s: any) => s.name ?? s.scheme)).toEqual(
        expect.arrayContaining(["X-API-Key", "bearer"])
      )
    })

    it("serves the OpenAPI 3.1 document with version 1.0 and both credential schemes", async () => {
      const r = await call(base, "GET", "/v1/openapi.json")
      expect(r.status).toBe(200)
      expect(r.body.openapi).toMatch(/^3\.1\./)
      expect(r.body.info.version).toBe("1.0")
      expect(r.body.servers[0].url).toBe(base)
      expect(r.body.components.securitySchemes.apiKey).toMatchObject({
        type: "apiKey",
        in: "header",
        name: "X-API-Key"
      })
      expect(r.body.components.securitySchemes.oauth).toMatchObject({ type: "http", scheme: "bearer" })
      expect(r.body.paths["/v1/workspaces"].get.security).toEqual([{ apiKey: [] }, { oauth: [] }])
      expect(r.body.paths["/v1/health"].get.security).toEqual([])
    })

    it("serves a human-readable docs page rendering the document (docs-browser.test.ts renders it)", async () => {
      const res = await fetch(`${base}/v1/docs`)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toContain("text/html")
      const html = await res.text()
      expect(html).toContain(`data-url="${base}/v1/openapi.json"`)
    })
  })

  describe("error bodies", () => {
    it("unknown routes answer 404 {error}", async () => {
      for (const path of ["/v1/nope", "/../nope"]) {
        const r = await call(base, "GET", path)
        expect(r.status).toBe(404)
        expect(typeof r.body.error).toBe("string")
      }
      const outside = await fetch(base.replace(/\/api$/, "/nowhere"))
      expect(outside.status).toBe(404)
      expect(await outside.json()).toEqual({ error: expect.any(String) })
    })

    it("a wrong method answers 405 with Allow", async () => {
      const r = await call(base, "DELETE", "/v1/health")
      expect(r.status).toBe(405)
      expect(r.headers.get("allow")).toBe("GET")
      expect(r.body.error).toContain("GET")
      const w = await call(base, "PUT", "/v1/workspaces")
      expect(w.status).toBe(405)
      expect(w.headers.get("allow")).toBe("GET, POST")
    })

    it("routes outside the API contract (OAuth, files, docs) answer 405 with Allow too", async () => {
      const origin = base.replace(/\/api$/, "")
      for (const [method, path, allow] of [
        ["PUT", "/oauth/token", "POST"],
        ["DELETE", "/oauth/authorize", "GET, POST"],
        ["POST", "/files/darwin-arm64/1.2.3/Board.zip", "GET"],
        ["POST", "/api/v1/docs", "GET"],
        ["POST", "/api/v1/openapi.json", "GET"]
      ] as const) {
        const r = await fetch(`${origin}${path}`, { method })
        expect(r.status, `${method} ${path}`).toBe(405)
        expect(r.headers.get("allow"), `${method} ${path}`).toBe(allow)
        expect(await r.json()).toEqual({ error: expect.stringContaining(allow) })
      }
    })

    it("malformed JSON answers 400 {error}", async () => {
      const r = await call(base, "POST", "/v1/auth/signup", {
        raw: `{"email":`,
        headers: { "content-type": "application/json" }
      })
      expect(r.status).toBe(400)
      expect(r.body).toEqual({ error: "Invalid body: malformed JSON" })
    })

    it("a body over 1 MiB answers 413 {error}", async () => {
      const r = await call(base, "POST", "/v1/auth/signup", {
        raw: "x".repeat(1024 * 1024 + 1),
        headers: { "content-type": "application/json" }
      })
      expect(r.status).toBe(413)
      expect(r.body.error).toContain("too large")
    })

    it("a schema failure names the field", async () => {
      const r = await call(base, "POST", "/v1/auth/signup", { body: { email: "a@b.co", password: "k8#mQ2vz" } })
      expect(r.status).toBe(400)
      expect(r.body.error).toMatch(/full_name/)
    })

    it("a defect answers 500 with a request id, logs the cause, and never leaks its text", async () => {
      const r = await call(base, "GET", "/v1/boom")
      expect(r.status).toBe(500)
      expect(r.text).not.toContain("secret defect text")
      const id = r.headers.get("x-request-id")!
      expect(r.body.error).toContain(id)
      expect(server.logLines.some((l) => l.includes(id) && l.includes("secret defect text"))).toBe(true)
    })
  })

  describe("signup and login", () => {
    it("signs up with a normalised email and answers a session and the user", async () => {
      const email = uniqueEmail("Norm").replace("norm", "NoRm")
      const r = await call(base, "POST", "/v1/auth/signup", {
        body: { email: `  ${email.toUpperCase()} `, password: "pässwörd!", full_name: "Ada Lovelace" }
      })
      expect(r.status).toBe(201)
      expect(r.body.user.email).toBe(email.toLowerCase())
      expect(r.body.user.full_name).toBe("Ada Lovelace")
      expect(r.body.session.access_token.split(".")).toHaveLength(3)
      expect(r.body.session.expires_in).toBe(3600)
      const rows = await server.query(`SELECT email, password_hash FROM users WHERE email = $1`, [email.toLowerCase()])
      expect(rows).toHaveLength(1)
      expect(rows[0].password_hash).toMatch(/^\$scrypt\$ln=\d+,r=8,p=1\$/)
      expect(rows[0].password_hash).not.toContain("pässwörd")
    })

    it("GET /v1/me names the account and the kind of credential; without one it is 401", async () => {
      const account = await bootstrap(base, "myself")
      const byKey = await call(base, "GET", "/v1/me", { headers: key(account.apiKey) })
      expect(byKey.status).toBe(200)
      expect(byKey.body).toEqual({
        id: account.userId,
        email: account.email,
        full_name: "myself",
        credential: "apiKey"
      })
      const bySession = await call(base, "GET", "/v1/me", { headers: bearer(account.session) })
      expect(bySession.body.credential).toBe("session")
      expect((await call(base, "GET", "/v1/me")).status).toBe(401)
    })

    it.each([
      ["7 characters", "1234567", 400],
      ["8 characters", "k8#mQ2vz", 201],
      ["128 characters", "p".repeat(128), 201],
      ["129 characters", "p".repeat(129), 400],
      ["8 emoji (16 UTF-16 units) count as 8", "😀".repeat(8), 201],
      ["128 emoji count as 128", "😀".repeat(128), 201],
      ["129 emoji count as 129", "😀".repeat(129), 400]
    ])("password of %s → %i", async (_label, password, status) => {
      const r = await call(base, "POST", "/v1/auth/signup", {
        body: { email: uniqueEmail("pw"), password, full_name: "P" }
      })
      expect(r.status).toBe(status)
      if (status === 400) expect(r.body.error).toMatch(/password/)
    })

    it("rejects a malformed email and a blank name with 400", async () => {
      expect(
        (
          await call(base, "POST", "/v1/auth/signup", {
            body: { email: "not-an-email", password: "k8#mQ2vz", full_name: "X" }
          })
        ).status
      ).toBe(400)
      expect(
        (
          await call(base, "POST", "/v1/auth/signup", {
            body: { email: uniqueEmail(), password: "k8#mQ2vz", full_name: "  " }
          })
        ).status
      ).toBe(400)
    })

    it("a second signup for one email within the interval answers 429 with Retry-After", async () => {
      const email = uniqueEmail("twice")
      expect(
        (await call(base, "POST", "/v1/auth/signup", { body: { email, password: "k8#mQ2vz", full_name: "T" } })).status
      ).toBe(201)
      const again = await call(base, "POST", "/v1/auth/signup", {
        body: { email: email.toUpperCase(), password: "k8#mQ2vz", full_name: "T" }
      })
      expect(again.status).toBe(429)
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(again.body.error).toMatch(/try again/)
    })

    it("login answers the signup shape; wrong email and wrong password get one identical 401", async () => {
      const account = await bootstrap(base, "login")
      const ok = await call(base, "POST", "/v1/auth/login", {
        body: { email: account.email.toUpperCase(), password: "correct horse battery" }
      })
      expect(ok.status).toBe(200)
      expect(ok.body.user.email).toBe(account.email)
      expect(typeof ok.body.session.access_token).toBe("string")
      const wrongPassword = await call(base, "POST", "/v1/auth/login", {
        body: { email: account.email, password: "wrong password" }
      })
      const wrongEmail = await call(base, "POST", "/v1/auth/login", {
        body: { email: uniqueEmail("ghost"), password: "wrong password" }
      })
      expect(wrongPassword.status).toBe(401)
      expect(wrongEmail.status).toBe(401)
      expect(wrongPassword.text).toBe(wrongEmail.text)
      expect(wrongPassword.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=/)
    })
  })

  describe("signup rules that need their own server", () => {
    it("answers 403 when signups are closed", async () => {
      const closed = await startServer(backend, { SIGNUPS_OPEN: "false" })
      try {
        const r = await call(closed.baseUrl, "POST", "/v1/auth/signup", {
          body: { email: uniqueEmail(), password: "k8#mQ2vz", full_name: "X" }
        })
        expect(r.status).toBe(403)
        expect(r.body.error).toMatch(/closed/)
      } finally {
        await closed.stop()
      }
    })

    it("answers 409 for an existing account once the interval has passed", async () => {
      const fast = await startServer(backend, { SIGNUP_INTERVAL: "1s" })
      try {
        const email = uniqueEmail("exists")
        expect(
          (
            await call(fast.baseUrl, "POST", "/v1/auth/signup", {
              body: { email, password: "k8#mQ2vz", full_name: "X" }
            })
          ).status
        ).toBe(201)
        await new Promise((r) => setTimeout(r, 1100))
        const again = await call(fast.baseUrl, "POST", "/v1/auth/signup", {
          body: { email, password: "k8#mQ2vz", full_name: "X" }
        })
        expect(again.status).toBe(409)
        expect(again.body.error).toMatch(/already exists/)
      } finally {
        await fast.stop()
      }
    })
  })

  describe("bootstrap sequence", () => {
    it("signup → workspace → kanban project → API key → GET /v1/workspaces answers 200", async () => {
      const a = await bootstrap(base, "boot")
      expect(a.columns.map((c) => c.name)).toEqual(["To Do", "In Progress", "Done"])
      expect(a.apiKey).toMatch(/^svc_[0-9A-Za-z]{36}$/)
      const r = await call(base, "GET", "/v1/workspaces", { headers: key(a.apiKey) })
      expect(r.status).toBe(200)
      expect(r.body).toEqual([expect.objectContaining({ id: a.workspaceId, role: "owner" })])
      const stored = await server.query(`SELECT digest FROM api_keys WHERE user_id = $1`, [a.userId])
      expect(stored[0].digest).toMatch(/^[0-9a-f]{64}$/)
      expect(JSON.stringify(stored)).not.toContain(a.apiKey)
    })

    it("a project without template is blank; an unknown template is 400", async () => {
      const a = await bootstrap(base, "tpl")
      const blank = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: a.workspaceId, name: "Blank" },
        headers: bearer(a.session)
      })
      expect(blank.status).toBe(201)
      expect(blank.body.columns).toEqual([])
      const bad = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: a.workspaceId, name: "X", template: "scrum" },
        headers: bearer(a.session)
      })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/template/)
    })

    it("another user's workspace id is 404 for project creation and listing", async () => {
      const a = await bootstrap(base, "owner")
      const b = await bootstrap(base, "intruder")
      const create = await call(base, "POST", "/v1/projects", {
        body: { workspaceId: a.workspaceId, name: "Mine" },
        headers: bearer(b.session)
      })
      expect(create.status).toBe(404)
      const list = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/projects`, { headers: key(b.apiKey) })
      expect(list.status).toBe(404)
      const own = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/projects`, { headers: key(a.apiKey) })
      expect(own.status).toBe(200)
      expect(own.body).toHaveLength(1)
    })
  })

  describe("credentials", () => {
    it("no credential: 401 with a challenge and no error parameter", async () => {
      const r = await call(base, "GET", "/v1/workspaces")
      expect(r.status).toBe(401)
      expect(r.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${server.config.publicUrl}/.well-known/oauth-protected-resource/api", scope="mcp"`
      )
      expect(r.body.error).toMatch(/X-API-Key/)
    })

    it("an API key sent as Bearer answers 401 saying to use X-API-Key", async () => {
      const a = await bootstrap(base, "bearer")
      const r = await call(base, "GET", "/v1/workspaces", { headers: bearer(a.apiKey) })
      expect(r.status).toBe(401)
      expect(r.body.error).toMatch(/X-API-Key/)
      expect(r.headers.get("www-authenticate")).toContain(`error="invalid_token"`)
    })

    it("a bearer token is refused with a message naming what it looks like", async () => {
      const cases: Array<[string, RegExp]> = [
        ["svc_at_short", /invalid OAuth access token: it is malformed/],
        ["svc_rt_short", /refresh token is not an access token/],
        ["svc_ac_short", /authorization code is not an access token/],
        ["svc_in_short", /intake tokens are accepted only by/],
        ["svc_short", /X-API-Key/],
        ["not-a-token", /not a live session or OAuth access token/]
      ]
      for (const [token, message] of cases) {
        const r = await call(base, "GET", "/v1/workspaces", { headers: bearer(token) })
        expect(r.status, token).toBe(401)
        expect(r.body.error, token).toMatch(message)
      }
    })

    it("a mistyped, unknown or intake-shaped key answers 401", async () => {
      const a = await bootstrap(base, "typo")
      const flipped = a.apiKey.slice(0, 10) + (a.apiKey[10] === "a" ? "b" : "a") + a.apiKey.slice(11)
      for (const k of [flipped, "svc_nope", "svc_in_000000000000000000000000000000000000"]) {
        const r = await call(base, "GET", "/v1/workspaces", { headers: key(k) })
        expect(r.status).toBe(401)
        expect(typeof r.body.error).toBe("string")
      }
    })

    it("a session token works on bootstrap steps only", async () => {
      const a = await bootstrap(base, "session")
      const r = await call(base, "GET", "/v1/workspaces", { headers: bearer(a.session) })
      expect(r.status).toBe(401)
      expect(r.body.error).toMatch(/bootstrap/)
      const ws = await call(base, "POST", "/v1/workspaces", { body: { name: "Second" }, headers: bearer(a.session) })
      expect(ws.status).toBe(201)
      expect(ws.body.workspace.id).toMatch(/^[0-9a-f-]{36}$/)
    })

    it("refuses forged, expired, wrong-audience and alg=none session tokens", async () => {
      const a = await bootstrap(base, "jwt")
      const keyBytes = deriveKeys(SECRET).session
      const issuer = server.config.publicUrl
      const now = Math.floor(Date.now() / 1000)
      const sign = (claims: Record<string, unknown>, k: Uint8Array = keyBytes) =>
        new jose.SignJWT({ typ: "session+jwt", ...claims }).setProtectedHeader({ alg: "HS256" }).sign(k)
      const valid = await sign({ sub: a.userId, iss: issuer, aud: `${issuer}/api`, iat: now, exp: now + 600 })
      expect(
        (await call(base, "POST", "/v1/workspaces", { body: { name: "ok" }, headers: bearer(valid) })).status
      ).toBe(201)
      const forged = [
        await sign({ sub: a.userId, iss: issuer, aud: `${issuer}/api`, iat: now - 7200, exp: now - 3600 }),
        await sign({ sub: a.userId, iss: issuer, aud: "https://elsewhere", iat: now, exp: now + 600 }),
        await sign({ sub: a.userId, iss: issuer, aud: `${issuer}/api`, iat: now }),
        await sign({ sub: a.userId, iss: issuer, aud: `${issuer}/api`, iat: now, exp: now + 600, typ: "access" }),
        await sign(
          { sub: a.userId, iss: issuer, aud: `${issuer}/api`, iat: now, exp: now + 600 },
          new TextEncoder().encode("x".repeat(32))
        ),
        `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${Buffer.from(JSON.stringify({ sub: a.userId, iss: issuer, aud: `${issuer}/api`, iat: now, exp: now + 600, typ: "session+jwt" })).toString("base64url")}.`
      ]
      for (const token of forged) {
        const r = await call(base, "POST", "/v1/workspaces", { body: { name: "no" }, headers: bearer(token) })
        expect(r.status).toBe(401)
      }
    })
  })

  describe("API keys: list and revoke", () => {
    it("lists the caller's live keys without the keys themselves, marking the calling one", async () => {
      const a = await bootstrap(base, "keys")
      const second = await call(base, "POST", "/v1/api-keys", { body: { name: "ci runner" }, headers: key(a.apiKey) })
      expect(second.status).toBe(201)
      const listed = await call(base, "GET", "/v1/api-keys", { headers: key(a.apiKey) })
      expect(listed.status).toBe(200)
      expect(listed.body).toHaveLength(2)
      expect(listed.body[1]).toEqual({
        id: second.body.id,
        name: "ci runner",
        // made without limits: every scope, every project, no expiry (issue 33)
        scopes: ["read", "write", "delete", "admin"],
        projectIds: null,
        expiresAt: null,
        createdAt: second.body.createdAt,
        updatedAt: second.body.updatedAt,
        current: false
      })
      expect(listed.body[0]).toMatchObject({ current: true })
      expect(listed.text).not.toContain("svc_")
      // with the session token no key is the calling one
      const bySession = await call(base, "GET", "/v1/api-keys", { headers: bearer(a.session) })
      expect(bySession.body.map((k: any) => k.current)).toEqual([false, false])
      // another user sees only their own
      const b = await bootstrap(base, "keys-other")
      const theirs = await call(base, "GET", "/v1/api-keys", { headers: key(b.apiKey) })
      expect(theirs.body.map((k: any) => k.id)).not.toContain(second.body.id)
    })

    it("revokes a key at once: 204, then 401 for it, 404 for a second revoke, the other keys unharmed", async () => {
      const a = await bootstrap(base, "revoke")
      const spare = await call(base, "POST", "/v1/api-keys", { body: { name: "spare" }, headers: key(a.apiKey) })
      expect((await call(base, "GET", "/v1/workspaces", { headers: key(spare.body.rawKey) })).status).toBe(200)
      const revoked = await call(base, "DELETE", `/v1/api-keys/${spare.body.id}`, { headers: key(a.apiKey) })
      expect(revoked.status).toBe(204)
      const refused = await call(base, "GET", "/v1/workspaces", { headers: key(spare.body.rawKey) })
      expect(refused.status).toBe(401)
      expect(refused.body.error).toMatch(/revoked/)
      const again = await call(base, "DELETE", `/v1/api-keys/${spare.body.id}`, { headers: key(a.apiKey) })
      expect(again.status).toBe(404)
      expect(again.body).toEqual({ error: expect.stringMatching(/not found/) })
      expect(
        (await call(base, "GET", "/v1/api-keys", { headers: key(a.apiKey) })).body.map((k: any) => k.id)
      ).not.toContain(spare.body.id)
      const rows = await server.query("SELECT revoked_at FROM api_keys WHERE id = $1", [spare.body.id])
      expect(rows[0].revoked_at).not.toBeNull()
      expect((await call(base, "GET", "/v1/workspaces", { headers: key(a.apiKey) })).status).toBe(200)
    })

    it("a key can revoke itself (logging out), and a session can revoke any of the user's keys", async () => {
      const a = await bootstrap(base, "self-revoke")
      expect(
        (
          await call(
            base,
            "DELETE",
            `/v1/api-keys/${(await call(base, "GET", "/v1/api-keys", { headers: key(a.apiKey) })).body[0].id}`,
            { headers: key(a.apiKey) }
          )
        ).status
      ).toBe(204)
      expect((await call(base, "GET", "/v1/workspaces", { headers: key(a.apiKey) })).status).toBe(401)
      const fresh = await call(base, "POST", "/v1/api-keys", { body: { name: "fresh" }, headers: bearer(a.session) })
      expect((await call(base, "DELETE", `/v1/api-keys/${fresh.body.id}`, { headers: bearer(a.session) })).status).toBe(
        204
      )
      expect((await call(base, "GET", "/v1/api-keys", { headers: bearer(a.session) })).body).toEqual([])
    })

    it("another user's key id is 404 and stays valid; a malformed id is 400", async () => {
      const a = await bootstrap(base, "victim")
      const b = await bootstrap(base, "intruder")
      const aKeyId = (await call(base, "GET", "/v1/api-keys", { headers: key(a.apiKey) })).body[0].id
      const r = await call(base, "DELETE", `/v1/api-keys/${aKeyId}`, { headers: key(b.apiKey) })
      expect(r.status).toBe(404)
      expect((await call(base, "GET", "/v1/workspaces", { headers: key(a.apiKey) })).status).toBe(200)
      const bad = await call(base, "DELETE", "/v1/api-keys/not-a-uuid", { headers: key(a.apiKey) })
      expect(bad.status).toBe(400)
      expect(typeof bad.body.error).toBe("string")
      expect((await call(base, "GET", "/v1/api-keys")).status).toBe(401)
    })
  })

  describe("members", () => {
    it("lists the owner, adds an existing account, and 404s an unknown email", async () => {
      const a = await bootstrap(base, "team")
      const b = await bootstrap(base, "mate")
      const before = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/members`, { headers: key(a.apiKey) })
      expect(before.status).toBe(200)
      expect(before.body).toEqual([expect.objectContaining({ userId: a.userId, email: a.email, role: "owner" })])
      const added = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/members`, {
        body: { email: b.email },
        headers: key(a.apiKey)
      })
      expect(added.status).toBe(201)
      expect(added.body).toMatchObject({ userId: b.userId, email: b.email, fullName: "mate", role: "member" })
      const seen = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/projects`, { headers: key(b.apiKey) })
      expect(seen.status).toBe(200)
      const unknown = await call(base, "POST", `/v1/workspaces/${a.workspaceId}/members`, {
        body: { email: uniqueEmail("nobody") },
        headers: key(a.apiKey)
      })
      expect(unknown.status).toBe(404)
    })
  })

  describe("request log", () => {
    it("logs method, path, status, duration and user id as JSON, and never a secret", async () => {
      const a = await bootstrap(base, "logged")
      await call(base, "GET", "/v1/workspaces", { headers: key(a.apiKey) })
      const line = server.logLines
        .map((l) => JSON.parse(l))
        .find((l) => l.path === "/api/v1/workspaces" && l.method === "GET" && l.userId === a.userId)
      expect(line).toMatchObject({ method: "GET", status: 200, msg: "request" })
      expect(typeof line.durationMs).toBe("number")
      const all = server.logLines.join("\n")
      expect(all).not.toContain(a.apiKey)
      expect(all).not.toContain(a.session)
      expect(all).not.toContain("correct horse battery")
    })
  })
})
