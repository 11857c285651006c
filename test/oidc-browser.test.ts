/**
 * Issue 30 part 5, single sign-on, end to end: a real, certified OpenID provider (`oidc-provider`,
 * its development login and consent pages, an in-memory account store) on 127.0.0.1, two servers
 * that use it (signups open with OIDC_ALLOWED_DOMAINS, and signups closed), and Chromium clicking
 * "Sign in with Test IdP" on the web app's sign-in page as a person does.
 */
import * as http from "node:http"
import Provider from "oidc-provider"
import type { Browser as Chromium, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { bootstrap, call, SUITE_PASSWORD } from "./support/client.ts"
import { freePort, startServer, type TestServer } from "./support/server.ts"

interface IdpAccount {
  email: string
  email_verified: boolean
  name: string
}

const originOf = (s: TestServer) => s.config.publicUrl

describeBrowser("single sign-on through a real OpenID provider in Chromium", () => {
  let open: TestServer
  let closed: TestServer
  let chromium: Chromium
  let idp: http.Server
  // the provider's people, by their login name at its sign-in form
  const people = new Map<string, IdpAccount>()
  const run = Date.now().toString(36)

  beforeAll(async () => {
    const idpPort = await freePort()
    const issuer = `http://127.0.0.1:${idpPort}`
    const sso = {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: "board",
      OIDC_CLIENT_SECRET: "board-test-secret",
      OIDC_NAME: "Test IdP"
    }
    // discovery happens at the first sign-in, so the servers can start before the provider
    open = await startServer({ env: { ...sso, OIDC_ALLOWED_DOMAINS: "example.com,example.org" } })
    closed = await startServer({ env: { ...sso, SIGNUPS_OPEN: "false" } })
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: "board",
          client_secret: "board-test-secret",
          redirect_uris: [`${originOf(open)}/auth/oidc/callback`, `${originOf(closed)}/auth/oidc/callback`],
          response_types: ["code"],
          grant_types: ["authorization_code"],
          token_endpoint_auth_method: "client_secret_post"
        }
      ],
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
      // every public client must use PKCE by default; make the provider insist for ours too
      pkce: { required: () => true },
      findAccount: (_ctx, id) => {
        const who = people.get(id)
        return who === undefined ? undefined : { accountId: id, claims: () => ({ sub: id, ...who }) }
      },
      cookies: { keys: ["oidc-browser-test-cookie-key"] },
      // set, so the provider does not print a notice for each default it uses
      ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 }
    })
    idp = http.createServer(provider.callback())
    await new Promise<void>((resolve) => idp.listen(idpPort, "127.0.0.1", resolve))
    chromium = await launchBrowser()
  }, 90_000)
  afterAll(async () => {
    await chromium?.close()
    await new Promise((resolve) => idp?.close(resolve))
    await open?.stop()
    await closed?.stop()
  })

  /** Signs in at `server` with the provider's `login` in a fresh browser; the page where it ends. */
  const ssoSignIn = async (server: TestServer, login: string): Promise<{ page: Page; close: () => Promise<void> }> => {
    const context = await chromium.newContext()
    const page = await context.newPage()
    await page.goto(`${originOf(server)}/signin`)
    await page.getByRole("link", { name: "Sign in with Test IdP" }).click()
    // the provider's own development sign-in form, then its consent step
    await page.locator('input[name="login"]').fill(login)
    await page.locator('input[name="password"]').fill("anything")
    await page.locator('button[type="submit"]').click()
    await page.getByRole("button", { name: "Continue" }).click()
    await page.waitForURL((url) => url.origin === originOf(server))
    await page.waitForLoadState("networkidle")
    return { page, close: () => context.close() }
  }

  /** Who the browser's session is, through the app's own cookie (GET /v1/me from the page). */
  const me = (page: Page) =>
    page.evaluate<{ status: number; body: any }>(
      `fetch("/api/v1/me").then(async (r) => ({ status: r.status, body: await r.json() }))`
    )

  /** Whether the browser holds a session of `server` (the refusal page's CSP allows no fetch). */
  const hasSession = async (page: Page, server: TestServer) =>
    (await page.context().cookies(originOf(server))).some((c) => c.name === "board_session" && c.value !== "")

  const usersWith = async (server: TestServer, email: string) =>
    server.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [email])

  it("the sign-in page offers the provider; a server without it offers none and has no /auth/oidc routes", async () => {
    const listed = await call(open.baseUrl, "GET", "/v1/auth/providers")
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({ providers: [{ id: "oidc", name: "Test IdP", startUrl: "/auth/oidc/start" }] })
    const plain = await startServer()
    try {
      expect((await call(plain.baseUrl, "GET", "/v1/auth/providers")).body).toEqual({ providers: [] })
      expect((await fetch(`${originOf(plain)}/auth/oidc/start`, { redirect: "manual" })).status).toBe(404)
    } finally {
      await plain.stop()
    }
  })

  it("the first sign-in makes the account; the second finds it by the provider's subject, even under a new email", async () => {
    const email = `ada-${run}@example.com`
    people.set(`ada-${run}`, { email, email_verified: true, name: "Ada Lovelace" })
    const first = await ssoSignIn(open, `ada-${run}`)
    const who = await me(first.page)
    expect(who.status).toBe(200)
    expect(who.body).toMatchObject({ email, full_name: "Ada Lovelace", credential: "browser" })
    // the app's cookies, as a password sign-in sets them
    const cookies = await first.page.context().cookies(originOf(open))
    expect(cookies.map((c) => c.name).sort()).toEqual(expect.arrayContaining(["board_csrf", "board_session"]))
    expect(cookies.find((c) => c.name === "board_session")?.httpOnly).toBe(true)
    expect(cookies.some((c) => c.name === "board_oidc")).toBe(false)
    await first.close()
    expect(await usersWith(open, email)).toHaveLength(1)
    const identities = await open.query("SELECT user_id, subject FROM oidc_identities WHERE subject = $1", [
      `ada-${run}`
    ])
    expect(identities).toEqual([{ user_id: who.body.id, subject: `ada-${run}` }])
    // an SSO-made account has no password anyone knows
    expect(
      (await call(open.baseUrl, "POST", "/v1/auth/login", { body: { email, password: SUITE_PASSWORD } })).status
    ).toBe(401)

    // the provider changes Ada's email: the subject still finds her account, no second one is made
    const renamed = `ada.l-${run}@example.com`
    people.set(`ada-${run}`, { email: renamed, email_verified: true, name: "Ada Lovelace" })
    const second = await ssoSignIn(open, `ada-${run}`)
    expect((await me(second.page)).body.id).toBe(who.body.id)
    await second.close()
    expect(await usersWith(open, renamed)).toHaveLength(0)
  })

  it("a password account with the same verified email is linked, not duplicated, and its password still works", async () => {
    const account = await bootstrap(open.baseUrl, `bob-${run}`)
    people.set(`bob-${run}`, { email: account.email.toUpperCase(), email_verified: true, name: "Bob at the IdP" })
    const signedIn = await ssoSignIn(open, `bob-${run}`)
    expect((await me(signedIn.page)).body).toMatchObject({ id: account.userId, email: account.email })
    // the app shows Bob's workspace: the same account, with what it had
    await signedIn.page.getByText("Website").first().waitFor()
    await signedIn.close()
    expect(await usersWith(open, account.email)).toHaveLength(1)
    expect(await open.query("SELECT user_id FROM oidc_identities WHERE subject = $1", [`bob-${run}`])).toEqual([
      { user_id: account.userId }
    ])
    const login = await call(open.baseUrl, "POST", "/v1/auth/login", {
      body: { email: account.email, password: SUITE_PASSWORD }
    })
    expect(login.status).toBe(200)
  })

  it("refuses an email outside OIDC_ALLOWED_DOMAINS, and an unverified email, with a page saying what to do", async () => {
    people.set(`eve-${run}`, { email: `eve-${run}@elsewhere.net`, email_verified: true, name: "Eve" })
    const eve = await ssoSignIn(open, `eve-${run}`)
    expect(await eve.page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Sign-in with Test IdP did not complete"
    )
    expect(await eve.page.getByRole("alert").textContent()).toBe(
      "Accounts of elsewhere.net cannot sign in to this server with Test IdP: only example.com, example.org. Sign in with an account of one of these domains, or ask an administrator."
    )
    expect(await hasSession(eve.page, open)).toBe(false)
    // the way back is the sign-in page
    await eve.page.getByRole("link", { name: "Back to sign in" }).click()
    await eve.page.getByRole("link", { name: "Sign in with Test IdP" }).waitFor()
    await eve.close()
    expect(await usersWith(open, `eve-${run}@elsewhere.net`)).toHaveLength(0)

    people.set(`uma-${run}`, { email: `uma-${run}@example.com`, email_verified: false, name: "Uma" })
    const uma = await ssoSignIn(open, `uma-${run}`)
    expect(await uma.page.getByRole("alert").textContent()).toBe(
      `Test IdP says your email uma-${run}@example.com is not verified. Verify it at Test IdP, then sign in again.`
    )
    expect(await hasSession(uma.page, open)).toBe(false)
    await uma.close()
    expect(await usersWith(open, `uma-${run}@example.com`)).toHaveLength(0)
  })

  it("with signups closed, SSO makes no account but still signs in one that exists", async () => {
    people.set(`new-${run}`, { email: `new-${run}@example.com`, email_verified: true, name: "Newcomer" })
    const newcomer = await ssoSignIn(closed, `new-${run}`)
    expect(await newcomer.page.getByRole("alert").textContent()).toBe(
      `No account on this server has the email new-${run}@example.com, and new accounts are closed. Ask an administrator of this server to add you, then sign in with Test IdP again.`
    )
    expect(await hasSession(newcomer.page, closed)).toBe(false)
    await newcomer.close()
    expect(await usersWith(closed, `new-${run}@example.com`)).toHaveLength(0)

    // an account made by an operator beforehand (signups closed: straight into the database)
    const email = `carol-${run}@example.com`
    const [row] = await closed.query<{ id: string }>(
      "INSERT INTO users (email, full_name, password_hash) VALUES ($1, 'Carol', 'x') RETURNING id",
      [email]
    )
    people.set(`carol-${run}`, { email, email_verified: true, name: "Carol" })
    const carol = await ssoSignIn(closed, `carol-${run}`)
    expect((await me(carol.page)).body.id).toBe(row!.id)
    await carol.close()
  })

  describe("a flow that is not this browser's", () => {
    it("a callback without the flow cookie, or with a forged one, is refused with the way back", async () => {
      for (const cookie of [undefined, "eyJzdGF0ZSI6IngifQ.forged"]) {
        const res = await fetch(`${originOf(open)}/auth/oidc/callback?code=abc&state=xyz`, {
          redirect: "manual",
          headers: cookie === undefined ? {} : { cookie: `board_oidc=${cookie}` }
        })
        expect(res.status).toBe(400)
        const html = await res.text()
        expect(html).toContain("expired or was started in another browser")
        expect(html).toContain('href="/signin"')
        expect(res.headers.get("set-cookie") ?? "").not.toContain("board_session=svc")
      }
    })

    it("start sends the browser to the provider with PKCE, state and nonce, and keeps only a path to return to", async () => {
      const res = await fetch(`${originOf(open)}/auth/oidc/start?next=//evil.example/x`, { redirect: "manual" })
      expect(res.status).toBe(303)
      const location = new URL(res.headers.get("location")!)
      expect(location.searchParams.get("code_challenge_method")).toBe("S256")
      for (const p of ["code_challenge", "state", "nonce"]) expect(location.searchParams.get(p)).toMatch(/^.{16,}$/)
      expect(location.searchParams.get("redirect_uri")).toBe(`${originOf(open)}/auth/oidc/callback`)
      const flow = /board_oidc=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!
      expect(res.headers.get("set-cookie")).toMatch(/HttpOnly/i)
      expect(JSON.parse(Buffer.from(flow.split(".")[0]!, "base64url").toString()).next).toBe("/")
    })
  })
})
