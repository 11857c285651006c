/**
 * Issue 28, "sign-in works on the names people type": a page asked for under another loopback
 * name than PUBLIC_URL's is redirected there (the session cookie belongs to PUBLIC_URL's origin),
 * a browser at http://localhost:PORT lands on 127.0.0.1 and signs in, and a sign-in the browser
 * could not keep, or a request the server never answered, ends in a message, not a spinner.
 */
import * as http from "node:http"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { tcpRelay } from "./support/tcpRelay.ts"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { bootstrap, SUITE_PASSWORD } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

/** A GET with a chosen Host header (fetch may not set one), to 127.0.0.1. */
const getWithHost = (port: number, path: string, host: string) =>
  new Promise<{ status: number; location: string | undefined; cache: string | undefined }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, method: "GET", headers: { host } }, (res) => {
      res.resume()
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          location: res.headers.location,
          cache: res.headers["cache-control"]
        })
      )
    })
    req.on("error", reject)
    req.end()
  })

describe.each(backends)("pages under another loopback name on %s", (backend) => {
  let server: TestServer
  let port: number
  beforeAll(async () => {
    server = await startServer(backend)
    port = Number(new URL(server.config.publicUrl).port)
  })
  afterAll(() => server?.stop())

  it("sends localhost and [::1] to PUBLIC_URL's origin with the same path (307); the API and other hosts are served", async () => {
    expect(server.config.publicUrl).toBe(`http://127.0.0.1:${port}`)
    for (const host of [`localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
      const r = await getWithHost(port, "/p/abc?card=WEB-1", host)
      expect(r.status, host).toBe(307)
      expect(r.location).toBe(`http://127.0.0.1:${port}/p/abc?card=WEB-1`)
      expect(r.cache).toBe("no-store")
    }
    expect((await getWithHost(port, "/signin?next=%2Fuser%2Fkeys", `localhost:${port}`)).location).toBe(
      `http://127.0.0.1:${port}/signin?next=%2Fuser%2Fkeys`
    )
    // PUBLIC_URL's own name, another port (a dev proxy's business), a name that is not loopback: the page
    for (const host of [`127.0.0.1:${port}`, `localhost:${port + 1}`, `board.example.com:${port}`, "localhost"]) {
      expect((await getWithHost(port, "/", host)).status, host).toBe(200)
    }
    // the API answers whatever name it is called by (curl http://localhost:8080/api/v1 works)
    expect((await getWithHost(port, "/api/v1/health", `localhost:${port}`)).status).toBe(200)
  })
})

describe("pages under a loopback name when PUBLIC_URL is not loopback", () => {
  let server: TestServer
  let port: number
  beforeAll(async () => {
    server = await startServer("pglite", { PUBLIC_URL: "https://board.example.com" })
    port = server.config.port
  })
  afterAll(() => server?.stop())

  it("serves the page: behind a proxy the Host is the proxy's business, and a redirect could loop", async () => {
    expect((await getWithHost(port, "/signin", `localhost:${port}`)).status).toBe(200)
    expect((await getWithHost(port, "/signin", `127.0.0.1:${port}`)).status).toBe(200)
  })
})

describeBrowser("signing in under the names people type (issue 28)", () => {
  let server: TestServer
  let port: number
  let browser: Browser
  let email: string

  const signIn = async (page: Page) => {
    await page.getByLabel("Email").fill(email)
    await page.getByLabel("Password").fill(SUITE_PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
  }

  beforeAll(async () => {
    server = await startServer("pglite")
    port = Number(new URL(server.config.publicUrl).port)
    email = (await bootstrap(server.baseUrl, "loopback")).email
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("a browser at http://localhost:PORT lands on 127.0.0.1 and signs in, to where it was going", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`http://localhost:${port}/user/keys`)
    await page.waitForURL((u) => u.pathname === "/signin")
    expect(new URL(page.url()).origin).toBe(`http://127.0.0.1:${port}`)
    await signIn(page)
    await page.waitForURL((u) => u.pathname === "/user/keys")
    expect(new URL(page.url()).origin).toBe(`http://127.0.0.1:${port}`)
    await page.getByRole("heading", { level: 1 }).first().waitFor()
    expect((await context.cookies()).some((c) => c.name === "board_session")).toBe(true)
    await context.close()
  })

  it("signed in on an origin that gets no cookie: says to open PUBLIC_URL instead of spinning", async () => {
    // the same server on another port is another origin: the login answers 200 but sets no cookie
    const relay = await tcpRelay(port)
    const context = await browser.newContext()
    const page = await context.newPage()
    try {
      await page.goto(`http://127.0.0.1:${relay.port}/signin`)
      await signIn(page)
      const alert = page.getByRole("alert")
      await alert.waitFor({ timeout: 10_000 })
      expect(await alert.textContent()).toBe(
        `Signed in, but this browser did not keep the session: the server's address is http://127.0.0.1:${port}. Open http://127.0.0.1:${port} and sign in there.`
      )
      // the button is usable again
      expect(await page.getByRole("button", { name: "Sign in" }).isEnabled()).toBe(true)

      // a server that answers 503 with no body, then none at all: each says what to do
      relay.down()
      await signIn(page)
      await page.getByText("The server is starting or unavailable (HTTP 503): try again in a moment.").waitFor()
      await relay.close()
      await signIn(page)
      await page
        .getByText("Could not reach the server: check your connection (or that the server is running) and try again.")
        .waitFor()
      expect(await page.getByRole("button", { name: "Sign in" }).isEnabled()).toBe(true)
    } finally {
      await relay.close()
      await context.close()
    }
  })
})
