/**
 * Issue 21: the web board's cookie session over real HTTP: the cookies login and signup set for
 * the app's own origin, where the cookie is accepted (the app's origin only), CSRF on every
 * change, sign out that revokes at once (on every instance), and API keys winning over it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, createTestDatabase, postgresUrl } from "./support/backends.ts"
import { type Account, bootstrap, call, key, SUITE_PASSWORD, uniqueEmail } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

/** The cookies of a response, by name: value and the raw attribute text. */
const setCookies = (headers: Headers) =>
  Object.fromEntries(
    headers.getSetCookie().map((line) => {
      const [pair, ...attrs] = line.split(";").map((s) => s.trim())
      const eq = pair!.indexOf("=")
      return [pair!.slice(0, eq), { value: pair!.slice(eq + 1), attrs: attrs.map((a) => a.toLowerCase()) }]
    })
  )

interface WebLogin {
  readonly session: string
  readonly csrf: string
  /** The Cookie header a browser would send. */
  readonly cookie: string
}

describe.each(backends)("web session on %s", (backend) => {
  let server: TestServer
  let base: string
  let app: string
  let a: Account

  const login = async (email = a.email, origin = app) => {
    const r = await call(base, "POST", "/v1/auth/login", {
      body: { email, password: SUITE_PASSWORD },
      headers: { origin }
    })
    expect(r.status).toBe(200)
    const c = setCookies(r.headers)
    const session = c.board_session!.value
    const csrf = c.board_csrf!.value
    return { session, csrf, cookie: `board_session=${session}; board_csrf=${csrf}` } satisfies WebLogin
  }
  // what the app's fetch sends: the cookies, and the browser's own Origin / Sec-Fetch-Site
  const read = (w: WebLogin, path: string, extra: Record<string, string> = { "sec-fetch-site": "same-origin" }) =>
    call(base, "GET", path, { headers: { cookie: w.cookie, ...extra } })
  const change = (w: WebLogin, method: string, path: string, body: unknown, extra: Record<string, string> = {}) =>
    call(base, method, path, {
      body,
      headers: { cookie: w.cookie, origin: app, "sec-fetch-site": "same-origin", "x-csrf-token": w.csrf, ...extra }
    })
  const workspacesNamed = async (name: string) =>
    (await server.query<{ n: number }>(`SELECT count(*)::int AS n FROM workspaces WHERE name = $1`, [name]))[0]!.n

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    app = new URL(server.config.publicUrl).origin
    a = await bootstrap(base, "webber")
  })
  afterAll(() => server?.stop())

  it("login from the app's origin sets the HttpOnly session cookie and the readable CSRF cookie", async () => {
    const r = await call(base, "POST", "/v1/auth/login", {
      body: { email: a.email, password: SUITE_PASSWORD },
      headers: { origin: app }
    })
    expect(r.status).toBe(200)
    // the same body as for every client
    expect(r.body.session.token_type).toBe("bearer")
    expect(r.body.user.email).toBe(a.email)
    const c = setCookies(r.headers)
    expect(c.board_session!.value).toMatch(/^svc_ws_[0-9A-Za-z]{36}$/)
    expect(c.board_session!.attrs).toEqual(
      expect.arrayContaining(["httponly", "samesite=lax", "path=/", "max-age=2592000"])
    )
    expect(c.board_session!.attrs).not.toContain("secure")
    expect(c.board_csrf!.value.length).toBeGreaterThanOrEqual(40)
    expect(c.board_csrf!.attrs).toEqual(expect.arrayContaining(["samesite=lax", "path=/"]))
    expect(c.board_csrf!.attrs).not.toContain("httponly")
    // only the digest is stored
    const rows = await server.query<{ digest: string; user_id: string }>(
      `SELECT digest, user_id FROM web_sessions WHERE user_id = $1`,
      [a.userId]
    )
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.digest))).toBe(true)
  })

  it("signup from the app's origin sets the cookies too", async () => {
    const r = await call(base, "POST", "/v1/auth/signup", {
      body: { email: uniqueEmail("websignup"), password: SUITE_PASSWORD, full_name: "Web Signup" },
      headers: { origin: app }
    })
    expect(r.status).toBe(201)
    const c = setCookies(r.headers)
    const w = { session: c.board_session!.value, csrf: c.board_csrf!.value }
    const cookie = `board_session=${w.session}; board_csrf=${w.csrf}`
    // the app then creates the first workspace with the cookie
    const ws = await change({ ...w, cookie }, "POST", "/v1/workspaces", { name: "signed up on the web" })
    expect(ws.status).toBe(201)
    const me = await read({ ...w, cookie }, "/v1/me")
    expect(me.body).toMatchObject({ id: r.body.user.id, credential: "browser" })
  })

  it("no cookie without the app's Origin (curl, the CLI) or from another origin", async () => {
    const notTheApp: Array<Record<string, string>> = [
      {},
      { origin: "https://evil.example" },
      { "sec-fetch-site": "same-origin" }
    ]
    for (const headers of notTheApp) {
      const r = await call(base, "POST", "/v1/auth/login", {
        body: { email: a.email, password: SUITE_PASSWORD },
        headers
      })
      expect(r.status).toBe(200)
      expect(r.headers.getSetCookie()).toEqual([])
    }
  })

  it("the cookie reads as the user from the app's origin, with an API key's reach and the user's budget", async () => {
    const w = await login()
    const me = await read(w, "/v1/me")
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ id: a.userId, email: a.email, credential: "browser" })
    expect(me.headers.get("ratelimit")).toMatch(/^"default";r=\d+;t=\d+$/)
    expect((await read(w, "/v1/me", { origin: app })).status).toBe(200)
    // a browser's same-origin GET over plain http to a non-localhost host sends neither header
    expect((await read(w, "/v1/me", {})).status).toBe(200)
    const board = await read(w, `/v1/board/${a.projectId}`)
    expect(board.status).toBe(200)
    expect((await read(w, "/v1/workspaces")).body.map((x: { id: string }) => x.id)).toContain(a.workspaceId)
    // what an API key may and an OAuth token may not: keys, grants, intake tokens
    expect((await read(w, "/v1/api-keys")).status).toBe(200)
    expect((await read(w, "/v1/oauth/grants")).status).toBe(200)
    const minted = await change(w, "POST", "/v1/intake-tokens", { columnId: a.columns[0]!.id, name: "web form" })
    expect(minted.status).toBe(201)
    const created = await change(w, "POST", "/v1/api-keys", { name: "made on the web" })
    expect(created.status).toBe(201)
    expect((await change(w, "DELETE", `/v1/api-keys/${created.body.id}`, undefined)).status).toBe(204)
  })

  it("the cookie works for the project's event stream", async () => {
    const w = await login()
    const r = await read(w, `/v1/projects/${a.projectId}/events/stream`)
    expect(r.status).toBe(200)
    expect(r.headers.get("content-type")).toMatch(/^text\/event-stream/)
  })

  it("the MCP endpoint ignores the cookie: it still wants a bearer token or an API key", async () => {
    const w = await login()
    const r = await call(base, "POST", "/mcp", {
      body: { jsonrpc: "2.0", id: 1, method: "initialize", params: {} },
      headers: {
        cookie: w.cookie,
        origin: app,
        "sec-fetch-site": "same-origin",
        "x-csrf-token": w.csrf,
        accept: "application/json, text/event-stream"
      }
    })
    expect(r.status).toBe(401)
    expect(r.body.error).toMatch(/missing credential/)
  })

  it("is refused from another origin or site", async () => {
    const w = await login()
    const elsewhere: Array<Record<string, string>> = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" }
    ]
    for (const extra of elsewhere) {
      const r = await read(w, "/v1/me", extra)
      expect(r.status, JSON.stringify(extra)).toBe(403)
      expect(r.body.error).toMatch(/only from the web app's own origin/)
    }
    const before = await workspacesNamed("cross-site")
    const r = await change(
      w,
      "POST",
      "/v1/workspaces",
      { name: "cross-site" },
      {
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site"
      }
    )
    expect(r.status).toBe(403)
    expect(await workspacesNamed("cross-site")).toBe(before)
  })

  it("a change needs the session's X-CSRF-Token: without or wrong 403 and nothing written, right 201", async () => {
    const w = await login()
    const other = await login()
    const name = `csrf ${Date.now()}`
    const attempts: Array<Record<string, string>> = [
      { "x-csrf-token": "" },
      { "x-csrf-token": "wrong" },
      { "x-csrf-token": `${w.csrf.slice(0, -1)}${w.csrf.endsWith("A") ? "B" : "A"}` },
      // another session's token is not this one's
      { "x-csrf-token": other.csrf }
    ]
    for (const extra of attempts) {
      const r = await change(w, "POST", "/v1/workspaces", { name }, extra)
      expect(r.status, JSON.stringify(extra)).toBe(403)
      expect(r.body.error).toMatch(/X-CSRF-Token/)
    }
    const patch = await change(
      w,
      "PATCH",
      `/v1/columns/${a.columns[0]!.id}`,
      { name: "renamed by csrf" },
      {
        "x-csrf-token": "nope"
      }
    )
    expect(patch.status).toBe(403)
    // a change without an Origin is no request of the app's, even with the token
    const noOrigin = await call(base, "POST", "/v1/workspaces", {
      body: { name },
      headers: { cookie: w.cookie, "x-csrf-token": w.csrf }
    })
    expect(noOrigin.status).toBe(403)
    expect(await workspacesNamed(name)).toBe(0)
    expect((await server.query(`SELECT name FROM board_columns WHERE id = $1`, [a.columns[0]!.id]))[0]).toEqual({
      name: a.columns[0]!.name
    })
    const ok = await change(w, "POST", "/v1/workspaces", { name })
    expect(ok.status).toBe(201)
    expect(await workspacesNamed(name)).toBe(1)
    // the event names the person
    const [event] = await server.query<{ actor: unknown }>(
      `SELECT actor::text AS actor FROM events WHERE workspace_id = $1 ORDER BY n LIMIT 1`,
      [ok.body.workspace.id]
    )
    if (event !== undefined) expect(JSON.parse(event.actor as string)).toMatchObject({ type: "user", userId: a.userId })
  })

  it("an API key or a bearer token in the same request wins over the cookie, and needs no CSRF token", async () => {
    const w = await login()
    const me = await read(w, "/v1/me", { "sec-fetch-site": "same-origin", ...key(a.apiKey) })
    expect(me.body.credential).toBe("apiKey")
    const made = await call(base, "POST", "/v1/workspaces", {
      body: { name: "by the key" },
      headers: { cookie: w.cookie, origin: app, ...key(a.apiKey) }
    })
    expect(made.status).toBe(201)
    // a wrong key is judged as the key: the cookie does not rescue it
    const bad = await read(w, "/v1/me", { "sec-fetch-site": "same-origin", "x-api-key": "svc_nope" })
    expect(bad.status).toBe(401)
    const viaBearer = await read(w, "/v1/me", { "sec-fetch-site": "same-origin", authorization: `Bearer ${a.session}` })
    expect(viaBearer.body.credential).toBe("session")
  })

  it("logout revokes the session at once and clears both cookies; other sessions live on", async () => {
    const w = await login()
    const kept = await login()
    expect((await read(w, "/v1/me")).status).toBe(200)
    // without the CSRF token nothing happens
    const forged = await change(w, "POST", "/v1/auth/logout", undefined, { "x-csrf-token": "" })
    expect(forged.status).toBe(403)
    expect((await read(w, "/v1/me")).status).toBe(200)
    const out = await change(w, "POST", "/v1/auth/logout", undefined)
    expect(out.status).toBe(204)
    const cleared = setCookies(out.headers)
    expect(cleared.board_session).toMatchObject({ value: "" })
    expect(cleared.board_session!.attrs).toContain("max-age=0")
    expect(cleared.board_csrf).toMatchObject({ value: "" })
    const after = await read(w, "/v1/me")
    expect(after.status).toBe(401)
    expect(after.body.error).toMatch(/web session has ended/)
    // the browser is told to drop the dead cookie
    expect(setCookies(after.headers).board_session).toMatchObject({ value: "" })
    expect((await read(kept, "/v1/me")).status).toBe(200)
    const [row] = await server.query<{ revoked: boolean }>(
      `SELECT revoked_at IS NOT NULL AS revoked FROM web_sessions WHERE user_id = $1 AND revoked_at IS NOT NULL`,
      [a.userId]
    )
    expect(row?.revoked).toBe(true)
  })

  it("logout with an API key is 400: there is no web session to end", async () => {
    const r = await call(base, "POST", "/v1/auth/logout", { headers: key(a.apiKey) })
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/web session/)
    expect((await call(base, "POST", "/v1/auth/logout")).status).toBe(401)
  })

  it("an expired session is refused", async () => {
    const w = await login()
    await server.query(
      `UPDATE web_sessions SET expires_at = now() - interval '1 minute' WHERE revoked_at IS NULL AND user_id = $1`,
      [a.userId]
    )
    expect((await read(w, "/v1/me")).status).toBe(401)
  })
})

describe("web session on an https PUBLIC_URL", () => {
  let server: TestServer
  let base: string
  beforeAll(async () => {
    server = await startServer("pglite", { PUBLIC_URL: "https://board.example.com" })
    base = server.baseUrl
  })
  afterAll(() => server?.stop())

  it("the cookies are Secure and __Host- prefixed, and work under those names", async () => {
    const a = await bootstrap(base, "secure")
    const r = await call(base, "POST", "/v1/auth/login", {
      body: { email: a.email, password: SUITE_PASSWORD },
      headers: { origin: "https://board.example.com" }
    })
    const c = setCookies(r.headers)
    expect(c["__Host-board_session"]!.attrs).toEqual(
      expect.arrayContaining(["secure", "httponly", "samesite=lax", "path=/"])
    )
    expect(c["__Host-board_session"]!.attrs.some((x) => x.startsWith("domain"))).toBe(false)
    expect(c["__Host-board_csrf"]!.attrs).toEqual(expect.arrayContaining(["secure", "samesite=lax", "path=/"]))
    expect(c.board_session).toBeUndefined()
    const cookie = `__Host-board_session=${c["__Host-board_session"]!.value}`
    const me = await call(base, "GET", "/v1/me", { headers: { cookie, "sec-fetch-site": "same-origin" } })
    expect(me.body.credential).toBe("browser")
    // the unprefixed name means nothing on https
    const plain = await call(base, "GET", "/v1/me", {
      headers: { cookie: `board_session=${c["__Host-board_session"]!.value}`, "sec-fetch-site": "same-origin" }
    })
    expect(plain.status).toBe(401)
  })
})

describe.skipIf(postgresUrl === undefined)("web session on two instances", () => {
  let db: { url: string; drop: () => Promise<void> }
  let servers: Array<TestServer>
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true })
    // instances behind one load balancer share their database, public origin and secret
    const env = {
      DATABASE_URL: db.url,
      PUBLIC_URL: "http://board.test:8080",
      SECRET: "one-secret-shared-by-both-instances-0123456789"
    }
    servers = [await startServer("postgres", env), await startServer("postgres", env)]
  }, 60_000)
  afterAll(async () => {
    for (const s of servers ?? []) await s.stop()
    await db?.drop()
  })

  it("a sign out on one instance refuses the cookie on the other at once", async () => {
    const [one, two] = servers as [TestServer, TestServer]
    const app = "http://board.test:8080"
    const a = await bootstrap(one.baseUrl, "twice")
    const r = await call(one.baseUrl, "POST", "/v1/auth/login", {
      body: { email: a.email, password: SUITE_PASSWORD },
      headers: { origin: app }
    })
    const c = setCookies(r.headers)
    const cookie = `board_session=${c.board_session!.value}`
    const headers = { cookie, "sec-fetch-site": "same-origin" }
    // the other instance has it cached now
    expect((await call(two.baseUrl, "GET", "/v1/me", { headers })).status).toBe(200)
    expect((await call(two.baseUrl, "GET", "/v1/me", { headers })).status).toBe(200)
    const out = await call(one.baseUrl, "POST", "/v1/auth/logout", {
      headers: { cookie, origin: app, "x-csrf-token": c.board_csrf!.value }
    })
    expect(out.status).toBe(204)
    const deadline = Date.now() + 1000
    let status = 200
    while (Date.now() < deadline) {
      status = (await call(two.baseUrl, "GET", "/v1/me", { headers })).status
      if (status === 401) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(status).toBe(401)
  })
})
