/**
 * The web app in a real browser against a test server, until `board serve` serves it itself
 * (issue 21, websrv's branch): the browser context answers the app's pages and assets from
 * packages/web/dist and sends `/api` to the server, with the account's API key on every request
 * (the app only calls its own origin, so the header reaches nothing else).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import type { Browser, BrowserContext, ConsoleMessage, Page } from "playwright-core"

const DIST = path.resolve(import.meta.dirname, "../../packages/web/dist")

const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".html": "text/html",
  ".svg": "image/svg+xml",
  ".json": "application/json"
}

export interface AppContext {
  readonly context: BrowserContext
  readonly page: Page
  /** Console errors and uncaught page errors seen so far (the suites expect none). */
  readonly errors: Array<string>
}

export const openApp = async (
  browser: Browser,
  origin: string,
  apiKey: string,
  viewport = { width: 1280, height: 900 }
): Promise<AppContext> => {
  if (!fs.existsSync(path.join(DIST, "index.html")))
    throw new Error(`${DIST} is not built: run node_modules/.bin/node scripts/build.mjs`)
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { "x-api-key": apiKey } })
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin })
  await context.route(`${origin}/**`, async (route) => {
    const url = new URL(route.request().url())
    if (url.pathname.startsWith("/api/")) return route.continue()
    const asset = path.join(DIST, path.normalize(url.pathname))
    const file =
      url.pathname.startsWith("/assets/") && asset.startsWith(DIST) && fs.existsSync(asset)
        ? asset
        : path.join(DIST, "index.html")
    return route.fulfill({
      status: 200,
      contentType: TYPES[path.extname(file)] ?? "application/octet-stream",
      body: fs.readFileSync(file)
    })
  })
  const page = await context.newPage()
  const errors: Array<string> = []
  page.on("console", (m: ConsoleMessage) => {
    if (m.type() === "error") errors.push(m.text())
  })
  page.on("pageerror", (e) => errors.push(String(e)))
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
