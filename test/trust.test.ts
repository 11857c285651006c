/**
 * Issue 28 ("Trust"), the low findings, over real HTTP: each sends the bad input or makes the
 * move and now gets its 4xx and `{error}` (or the right page). Webhook addresses are literals or
 * stubbed names: nothing is ever sent to them, they are refused at creation.
 */
import { WebhookResolver } from "@board/core"
import { Layer } from "effect"
import * as http from "node:http"
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, createTestDatabase, postgresUrl } from "./support/backends.ts"
import { type Account, bootstrap, call, key, SUITE_PASSWORD, uniqueEmail } from "./support/client.ts"
import {
  authorizeUrl,
  Browser,
  consent,
  hiddenFields,
  origin,
  pkce,
  registerClient,
  tokenRequest
} from "./support/oauthFlow.ts"
import { freePort, startServer, type TestServer } from "./support/server.ts"
import { spawnBoard, waitForHealth } from "./support/spawn.ts"

/** A login sent from another loopback source address (127.0.0.x: still to 127.0.0.1). */
const loginFrom = (baseUrl: string, localAddress: string, email: string, password: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const url = new URL(`${baseUrl}/v1/auth/login`)
    const req = http.request(
      url,
      { method: "POST", localAddress, headers: { "content-type": "application/json" } },
      (res) => {
        let text = ""
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }))
      }
    )
    req.on("error", reject)
    req.end(JSON.stringify({ email, password }))
  })

describe.each(backends)("issue 28, low findings, on %s", (backend) => {
  let server: TestServer
  let base: string
  let site: string
  let a: Account
  const resolver = {
    lookup: async (hostname: string) => {
      const address = hostname === "translated.example.test" ? "::ffff:0:a9fe:a9fe" : undefined
      if (address === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" })
      return [{ address, family: (net.isIP(address) === 6 ? 6 : 4) as 4 | 6 }]
    }
  }
  beforeAll(async () => {
    server = await startServer(backend, {}, undefined, Layer.succeed(WebhookResolver, resolver))
    base = server.baseUrl
    site = origin(base)
    a = await bootstrap(base, "trust")
  })
  afterAll(() => server?.stop())

  describe("bad input is a 400, never a 500", () => {
    it("POST /oauth/register with a NUL in any string, key or nested member", async () => {
      for (const metadata of [
        { client_name: "evil\u0000" },
        { redirect_uris: ["http://127.0.0.1/cb\u0000"] },
        { logo_uri: "https://x.example/\u0000" },
        { software_statement: { nested: ["ok", "no\u0000"] } },
        { "weird\u0000key": "x" }
      ]) {
        const r = await registerClient(base, metadata)
        expect(r.status, JSON.stringify(metadata)).toBe(400)
        expect(r.body.error).toMatch(/^invalid_/)
        expect(typeof r.body.error_description).toBe("string")
      }
      expect(
        await server.query("SELECT id FROM oauth_clients WHERE client_name LIKE 'evil%' OR metadata::text LIKE '%no%'")
      ).toHaveLength(0)
    })

    it("a NUL in a client id or in the consent page's email is no client, no account: never a 500", async () => {
      const authorize = await new Browser().get(
        authorizeUrl(base, { clientId: "board_client_a\u0000b", challenge: pkce().challenge })
      )
      expect(authorize.status).toBe(400)
      expect(authorize.html).toContain("Unknown client")
      const token = await tokenRequest(base, {
        grant_type: "authorization_code",
        code: "x",
        client_id: "a\u0000b",
        code_verifier: "y"
      })
      expect(token.status).toBe(401)
      expect(token.body.error).toBe("invalid_client")
      const basic = await fetch(`${site}/oauth/token`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Basic ${Buffer.from("a\u0000b:c").toString("base64")}`
        },
        body: "grant_type=authorization_code&code=x&code_verifier=y"
      })
      expect(basic.status).toBe(401)
      const client = (await registerClient(base)).body
      const browser = new Browser()
      const page = await browser.get(authorizeUrl(base, { clientId: client.client_id, challenge: pkce().challenge }))
      const post = await browser.post(`${site}/oauth/authorize`, [
        ...hiddenFields(page.html),
        ["email", "a\u0000b@example.com"],
        ["password", "whatever it is"],
        ["decision", "allow"]
      ])
      expect(post.status).toBe(200)
      expect(post.html).toContain("Wrong email or password.")
    })

    it("POST /oauth/token with a malformed percent-escape in HTTP Basic credentials", async () => {
      for (const pair of ["client%zz:secret", "client:sec%E0%A4%A"]) {
        const res = await fetch(`${site}/oauth/token`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${Buffer.from(pair).toString("base64")}`
          },
          body: "grant_type=authorization_code&code=x&code_verifier=y"
        })
        expect(res.status, pair).toBe(400)
        expect(await res.json()).toMatchObject({ error: "invalid_request", error_description: /form-urlencoded/ })
      }
    })
  })

  describe("signup refuses", () => {
    it("a commonly used password, with a message; the suites' password still passes", async () => {
      for (const password of ["password", "12345678", "Password1", "iloveyou", "qwertyuiop"]) {
        const r = await call(base, "POST", "/v1/auth/signup", {
          body: { email: uniqueEmail("common"), password, full_name: "C" }
        })
        expect(r.status, password).toBe(400)
        expect(r.body.error).toMatch(/most commonly used passwords/)
      }
      const ok = await call(base, "POST", "/v1/auth/signup", {
        body: { email: uniqueEmail("fine"), password: SUITE_PASSWORD, full_name: "F" }
      })
      expect(ok.status).toBe(201)
    })

    it("an email with an invisible, space or control character (a look-alike account)", async () => {
      for (const [email, code] of [
        [`ad\u200ba-${Date.now()}@example.com`, "200B"], // zero-width space
        [`ada-${Date.now()}\u2060@example.com`, "2060"], // word joiner
        [`ada-${Date.now()}@exam\u202eple.com`, "202E"], // right-to-left override
        [`ada\u00a0-${Date.now()}@example.com`, "00A0"], // no-break space
        [`ada\u3164-${Date.now()}@example.com`, "3164"], // Hangul filler
        [`ada\u0007-${Date.now()}@example.com`, "0007"]
      ] as const) {
        const r = await call(base, "POST", "/v1/auth/signup", {
          body: { email, password: SUITE_PASSWORD, full_name: "Look-alike" }
        })
        expect(r.status, email).toBe(400)
        expect(r.body.error, email).toContain(`U+${code}`)
      }
      expect(await server.query("SELECT id FROM users WHERE full_name = 'Look-alike'")).toHaveLength(0)
    })
  })

  it("webhook URLs with an IPv6 form that embeds an IPv4 are refused at creation", async () => {
    for (const [url, message] of [
      ["https://[::ffff:0:7f00:1]/", /IPv4-translated/],
      ["https://[64:ff9b:1::a00:1]/", /64:ff9b:1::\/48/],
      ["https://[2002:7f00:1::1]/", /6to4/],
      ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", /Teredo/],
      ["https://[100::1]/", /discard-only/],
      ["https://translated.example.test/", /resolves to a IPv4-translated/]
    ] as const) {
      const r = await call(base, "POST", "/v1/webhooks", {
        body: { url, projectId: a.projectId, events: ["*"] },
        headers: key(a.apiKey)
      })
      expect(r.status, url).toBe(400)
      expect(r.body.error, url).toMatch(message)
    }
    expect(await server.query("SELECT id FROM webhooks")).toHaveLength(0)
  })

  it("login: a per-account limit beside the per-address one; an address the owner used stays open", async () => {
    const email = uniqueEmail("locked")
    expect(
      (await call(base, "POST", "/v1/auth/signup", { body: { email, password: SUITE_PASSWORD, full_name: "L" } }))
        .status
    ).toBe(201)
    // the owner has signed in from 127.0.0.1 before
    expect((await loginFrom(base, "127.0.0.1", email, SUITE_PASSWORD)).status).toBe(200)
    // ten guesses spread over five addresses
    for (let i = 0; i < 10; i++) {
      const r = await loginFrom(base, `127.0.0.${2 + (i % 5)}`, email, `guess number ${i}`)
      expect(r.status, `guess ${i}`).toBe(401)
    }
    // a sixth address, even with the right password, waits: more addresses do not mean more guesses
    const locked = await loginFrom(base, "127.0.0.9", email, SUITE_PASSWORD)
    expect(locked.status).toBe(429)
    expect(locked.body.error).toMatch(/too many failed sign-ins for this account/)
    const retry = Number(locked.headers["retry-after"])
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(15 * 60)
    expect((await loginFrom(base, "127.0.0.3", email, "another guess")).status).toBe(429)
    // the owner's own address still gets in: a third person cannot lock them out
    expect((await loginFrom(base, "127.0.0.1", email, SUITE_PASSWORD)).status).toBe(200)
    // unknown emails count alike, so a 429 does not tell which accounts exist
    const nobody = uniqueEmail("nobody")
    for (let i = 0; i < 10; i++) expect((await loginFrom(base, "127.0.0.2", nobody, "x")).status).toBe(401)
    expect((await loginFrom(base, "127.0.0.2", nobody, "x")).status).toBe(429)
    // the consent page signs in through the same login: a 429 page, no sign-in
    const client = (await registerClient(base)).body
    const browser = new Browser()
    const page = await browser.get(authorizeUrl(base, { clientId: client.client_id, challenge: pkce().challenge }))
    const paused = await browser.post(`${site}/oauth/authorize`, [
      ...hiddenFields(page.html),
      ["email", nobody],
      ["password", "x"],
      ["decision", "allow"]
    ])
    expect(paused.status).toBe(429)
    expect(Number(paused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(paused.html).toContain("too many failed sign-ins for this account")
    expect(paused.html).toContain('name="password"')
    // another account is untouched
    expect((await loginFrom(base, "127.0.0.2", a.email, SUITE_PASSWORD)).status).toBe(200)
  })

  describe("the consent page", () => {
    it("its sign-in ends with the web app's sign out: the same browser must type the password again", async () => {
      const b = await bootstrap(base, "consenter")
      const client = (await registerClient(base, { client_name: "Second Agent" })).body
      const { challenge } = pkce()
      const browser = new Browser()
      const first = await consent(
        base,
        {
          clientId: client.client_id,
          challenge,
          email: b.email,
          password: SUITE_PASSWORD,
          workspaces: [b.workspaceId]
        },
        browser
      )
      expect(new URL(first.location!).searchParams.get("code")).toBeTruthy()
      const url = authorizeUrl(base, { clientId: client.client_id, challenge })
      // within its 30 minutes the browser is still signed in: the page asks for workspaces only
      const again = await browser.get(url)
      expect(again.html).toContain("Allow access")
      expect(again.html).not.toContain('name="password"')
      // the web app signs in and out in the same browser
      const web = await call(base, "POST", "/v1/auth/login", {
        body: { email: b.email, password: SUITE_PASSWORD },
        headers: { origin: new URL(server.config.publicUrl).origin }
      })
      const cookies = web.headers.getSetCookie().map((c) => c.split(";")[0]!)
      const csrf = cookies.find((c) => c.startsWith("board_csrf="))!.slice("board_csrf=".length)
      const out = await call(base, "POST", "/v1/auth/logout", {
        headers: {
          cookie: [...cookies, browser.header()].join("; "),
          origin: new URL(server.config.publicUrl).origin,
          "x-csrf-token": csrf
        }
      })
      expect(out.status).toBe(204)
      // the consent page asks for the password again, and a post without it grants nothing
      const after = await browser.get(url)
      expect(after.html).toContain('name="password"')
      const form: Array<[string, string]> = [
        ...hiddenFields(after.html),
        ["workspace", b.workspaceId],
        ["decision", "allow"]
      ]
      const post = await browser.post(`${site}/oauth/authorize`, form)
      expect(post.status).toBe(200)
      expect(post.headers.get("location")).toBeNull()
      expect(post.html).toContain('name="password"')
    })

    it("'Use another account' ends the sign-in on the server, not only the cookie", async () => {
      const c = await bootstrap(base, "switcher")
      const client = (await registerClient(base)).body
      const { challenge } = pkce()
      const browser = new Browser()
      await consent(
        base,
        {
          clientId: client.client_id,
          challenge,
          email: c.email,
          password: SUITE_PASSWORD,
          workspaces: [c.workspaceId]
        },
        browser
      )
      const kept = new Map(browser.cookies)
      const page = await browser.get(authorizeUrl(base, { clientId: client.client_id, challenge }))
      await browser.post(`${site}/oauth/authorize`, [...hiddenFields(page.html), ["account", "switch"]])
      // a copy of the old cookie no longer signs anyone in
      const copy = new Browser()
      for (const [k, v] of kept) copy.cookies.set(k, v)
      expect((await copy.get(authorizeUrl(base, { clientId: client.client_id, challenge }))).html).toContain(
        'name="password"'
      )
    })

    it("is not an open redirector: an error goes back at once only to a client the signed-in person granted", async () => {
      // anyone may register a client whose redirect URI is their own site
      const evil = (
        await registerClient(base, { client_name: "Totally Legit", redirect_uris: ["https://evil.example/land"] })
      ).body
      const bad: Array<{ extra: Record<string, string>; error: string; noPkce?: boolean }> = [
        { extra: { scope: "openid" }, error: "invalid_scope" },
        { extra: { response_type: "token" }, error: "unsupported_response_type" },
        { extra: {}, error: "invalid_request", noPkce: true }
      ]
      for (const c of bad) {
        const url = authorizeUrl(base, {
          clientId: evil.client_id,
          redirectUri: "https://evil.example/land",
          ...(c.noPkce ? {} : { challenge: pkce().challenge }),
          extra: c.extra
        })
        const r = await new Browser().get(url)
        expect(r.status, c.error).toBe(400)
        expect(r.headers.get("location")).toBeNull()
        expect(r.html).toContain("Totally Legit")
        expect(r.html).toContain("evil.example")
        // a link the person may follow, carrying the error
        const href = /<a href="([^"]+)"[^>]*>Continue to evil\.example<\/a>/.exec(r.html)?.[1]?.replaceAll("&amp;", "&")
        expect(href).toBeDefined()
        const target = new URL(href!)
        expect(target.origin + target.pathname).toBe("https://evil.example/land")
        expect(target.searchParams.get("error")).toBe(c.error)
        expect(r.html).not.toContain('name="password"')
      }

      // a client the person has granted, while they are signed in: redirected at once
      const d = await bootstrap(base, "granter")
      const good = (await registerClient(base)).body
      const { verifier, challenge } = pkce()
      const browser = new Browser()
      const granted = await consent(
        base,
        { clientId: good.client_id, challenge, email: d.email, password: SUITE_PASSWORD, workspaces: [d.workspaceId] },
        browser
      )
      const code = new URL(granted.location!).searchParams.get("code")!
      expect(
        (
          await tokenRequest(base, {
            grant_type: "authorization_code",
            code,
            client_id: good.client_id,
            redirect_uri: "http://127.0.0.1:47001/callback",
            code_verifier: verifier
          })
        ).status
      ).toBe(200)
      const badScope = authorizeUrl(base, { clientId: good.client_id, challenge, extra: { scope: "openid" } })
      const back = await browser.get(badScope)
      expect(back.status).toBe(303)
      const to = new URL(back.headers.get("location")!)
      expect(to.searchParams.get("error")).toBe("invalid_scope")
      expect(to.searchParams.get("state")).toBe("xyz-state")
      // the same request from a browser nobody signed in to is a page
      expect((await new Browser().get(badScope)).status).toBe(400)
    })
  })
})

const redisUrl = process.env.REDIS_URL
describe.skipIf(postgresUrl === undefined || redisUrl === undefined)(
  "the per-account login limit across two instances (PostgreSQL + Redis)",
  () => {
    it("failures on either instance count against one account budget", async () => {
      const db = await createTestDatabase({ migrated: true })
      const servers: Array<TestServer> = []
      try {
        const env = {
          DATABASE_URL: db.url,
          REDIS_URL: redisUrl!,
          SECRET: "shared-secret-for-both-instances-0123456789"
        }
        servers.push(await startServer("pglite", env))
        servers.push(await startServer("pglite", env))
        const [one, two] = servers.map((s) => s.baseUrl) as [string, string]
        const email = uniqueEmail("shared-lock")
        expect(
          (await call(one, "POST", "/v1/auth/signup", { body: { email, password: SUITE_PASSWORD, full_name: "S" } }))
            .status
        ).toBe(201)
        for (let i = 0; i < 10; i++)
          expect((await loginFrom(i % 2 === 0 ? one : two, "127.0.0.5", email, `guess ${i}`)).status).toBe(401)
        expect((await loginFrom(one, "127.0.0.6", email, SUITE_PASSWORD)).status).toBe(429)
        expect((await loginFrom(two, "127.0.0.6", email, SUITE_PASSWORD)).status).toBe(429)
      } finally {
        for (const s of servers) await s.stop()
        await db.drop()
      }
    })
  }
)

describe("the built program (dist/)", () => {
  it("`board serve` refuses a common password: the list loads from the bundle too", async () => {
    const port = await freePort()
    const served = spawnBoard(["serve"], { DATA_DIR: "memory:", PORT: String(port), LOG_LEVEL: "error" })
    try {
      const base = `http://127.0.0.1:${port}/api`
      await waitForHealth(base)
      const signup = (password: string) =>
        call(base, "POST", "/v1/auth/signup", { body: { email: uniqueEmail("bundle"), password, full_name: "B" } })
      const refused = await signup("Password1")
      expect(refused.status).toBe(400)
      expect(refused.body.error).toMatch(/most commonly used passwords/)
      expect((await signup(SUITE_PASSWORD)).status).toBe(201)
    } finally {
      served.child.kill("SIGTERM")
    }
  }, 60_000)
})
