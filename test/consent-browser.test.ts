/**
 * Issue 20, in a real browser: Chromium walks the consent page as a person does (on a phone's
 * width, finding fields and buttons by their accessible names), lands on the app's loopback
 * redirect with a code, and the code becomes a token.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser as Chromium } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { type Account, bearer, bootstrap, call, SUITE_PASSWORD } from "./support/client.ts"
import { authorizeUrl, pkce, registerClient, tokenRequest } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

describeBrowser("the consent page in Chromium", () => {
  let server: TestServer
  let chromium: Chromium
  let a: Account
  // the desktop app's loopback listener: records what the browser brought back
  let app: http.Server
  let appPort: number
  const arrivals: Array<URL> = []

  beforeAll(async () => {
    server = await startServer("pglite")
    a = await bootstrap(server.baseUrl, "browser-consent")
    app = http.createServer((req, res) => {
      const url = new URL(req.url!, `http://127.0.0.1:${appPort}`)
      // the browser also asks for /favicon.ico
      if (url.pathname === "/callback") arrivals.push(url)
      res.writeHead(200, { "content-type": "text/html" }).end("<p>You can close this window.</p>")
    })
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve))
    appPort = (app.address() as AddressInfo).port
    chromium = await launchBrowser()
  }, 60_000)
  afterAll(async () => {
    await chromium?.close()
    await new Promise((resolve) => app?.close(resolve))
    await server?.stop()
  })

  it("signs in, ticks a workspace, allows, and the app's loopback listener gets a code that redeems", async () => {
    const redirectUri = `http://127.0.0.1:${appPort}/callback`
    // registered without a port, as native apps do: the port is the one the app got today
    const client = (await registerClient(server.baseUrl, { redirect_uris: ["http://127.0.0.1/callback"] })).body
    const { verifier, challenge } = pkce()
    const context = await chromium.newContext({ viewport: { width: 400, height: 800 } })
    const page = await context.newPage()
    await page.goto(authorizeUrl(server.baseUrl, { clientId: client.client_id, redirectUri, challenge, state: "b-1" }))

    const noSidewaysScroll = () =>
      // a string: the test's TypeScript has no DOM types
      page.evaluate<boolean>("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    expect(await noSidewaysScroll()).toBe(true)
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Authorize Test Agent")
    expect(await page.getByRole("button", { name: "Allow" }).count()).toBe(0)

    // a wrong password is announced, and the person stays on the sign-in step
    await page.getByLabel("Email").fill(a.email)
    await page.getByLabel("Password").fill("not the password")
    await page.getByRole("button", { name: "Sign in" }).click()
    expect(await page.getByRole("alert").textContent()).toBe("Wrong email or password.")

    await page.getByLabel("Email").fill(a.email)
    await page.getByLabel("Password").fill(SUITE_PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Allow access" }).waitFor()
    expect(await page.getByLabel("Password").count()).toBe(0)
    expect(await noSidewaysScroll()).toBe(true)

    // the workspace's name is its checkbox's accessible name
    const workspaceName = (
      await call(server.baseUrl, "GET", "/v1/workspaces", { headers: { "x-api-key": a.apiKey } })
    ).body.find((w: { id: string }) => w.id === a.workspaceId).name
    await page.getByRole("checkbox", { name: workspaceName }).check()
    await Promise.all([page.waitForURL(`${redirectUri}?**`), page.getByRole("button", { name: "Allow" }).click()])

    expect(arrivals).toHaveLength(1)
    const back = arrivals[0]!
    expect(back.searchParams.get("state")).toBe("b-1")
    expect(back.searchParams.get("iss")).toBe(server.config.publicUrl)
    const tokens = await tokenRequest(server.baseUrl, {
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_verifier: verifier
    })
    expect(tokens.status).toBe(200)
    const workspaces = await call(server.baseUrl, "GET", "/v1/workspaces", {
      headers: bearer(tokens.body.access_token)
    })
    expect(workspaces.body.map((w: { id: string }) => w.id)).toEqual([a.workspaceId])
    await context.close()
  }, 60_000)

  it("Deny on the sign-in step goes back to the app with access_denied, without a password", async () => {
    const redirectUri = `http://127.0.0.1:${appPort}/callback`
    const client = (await registerClient(server.baseUrl, { redirect_uris: [redirectUri] })).body
    const context = await chromium.newContext({ viewport: { width: 400, height: 800 } })
    const page = await context.newPage()
    await page.goto(
      authorizeUrl(server.baseUrl, {
        clientId: client.client_id,
        redirectUri,
        challenge: pkce().challenge,
        state: "b-2"
      })
    )
    const before = arrivals.length
    await Promise.all([page.waitForURL(`${redirectUri}?**`), page.getByRole("button", { name: "Deny" }).click()])
    const back = arrivals[before]!
    expect(back.searchParams.get("error")).toBe("access_denied")
    expect(back.searchParams.get("state")).toBe("b-2")
    expect(back.searchParams.get("code")).toBeNull()
    await context.close()
  }, 60_000)
})
