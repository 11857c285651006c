/**
 * The web app in a real browser against a test server: `board serve` (startServer) serves the
 * app at its PUBLIC_URL origin, and the browser signs in through the app's own sign-in page, so
 * every request after it carries the session cookie and the CSRF header, as a person's would.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import type { Browser, BrowserContext, ConsoleMessage, Page } from "playwright-core"
import { SUITE_PASSWORD } from "./client.ts"

export interface AppContext {
  readonly context: BrowserContext
  readonly page: Page
  /** Console errors and uncaught page errors seen so far (the suites expect none). */
  readonly errors: Array<string>
}

/** A browser signed in as `email` (with the suites' password) through /signin. */
export const openApp = async (
  browser: Browser,
  origin: string,
  email: string,
  viewport = { width: 1280, height: 900 }
): Promise<AppContext> => {
  const context = await browser.newContext({ viewport })
  // the keys page's Copy button; a person's browser asks, a test grants
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() === "error") errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
  await page.goto(`${origin}/signin`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password").fill(SUITE_PASSWORD)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL((url) => url.pathname !== "/signin")
  // the visit to /signin asked /v1/me first: its 401 is how the app learns nobody is signed in
  const expected = errors.filter((e) => e.includes("status of 401"))
  if (expected.length === errors.length) errors.length = 0
  return { context, page, errors }
}

const AXE = path.resolve(import.meta.dirname, "../../node_modules/axe-core/axe.min.js")

/** axe-core on the page as it is now: the serious and critical violations (the suites expect none). */
export const seriousViolations = async (page: Page): Promise<Array<string>> => {
  // evaluated through the DevTools protocol, not as a <script> element: the app's CSP allows no inline script
  await page.evaluate(fs.readFileSync(AXE, "utf8"))
  const result = await page.evaluate(`axe.run(document).then((r) => r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.id + " (" + v.impact + "): " + v.help + " — " + v.nodes.map((n) => n.target.join(" ")).join("; ")))`)
  return result as Array<string>
}
