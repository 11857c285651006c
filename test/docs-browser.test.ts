/**
 * Issue 20: the API reference at /api/v1/docs (Scalar, served by the server itself). Over HTTP:
 * the page, its policy and the bundle's caching and compression. In headless Chromium: the
 * operations render from /api/v1/openapi.json, nothing is fetched from any host but the
 * server's, nothing is logged as an error (a Content-Security-Policy refusal included), the
 * page does not scroll sideways on a phone, and "try it" sends a real request to this server
 * and shows the answer.
 */
import type { Browser, Page } from "playwright-core"
import * as zlib from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { bootstrap } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

// the code run in the page by page.evaluate (this project's tests have no DOM types)
declare const document: {
  readonly scrollingElement: {
    scrollWidth: number
    clientWidth: number
    clientHeight: number
    scrollTop: number
  } | null
}

let server: TestServer
let origin: string
beforeAll(async () => {
  server = await startServer("pglite")
  origin = server.baseUrl.replace(/\/api$/, "")
})
afterAll(() => server?.stop())

/**
 * Scalar's address of an operation (`#tag/<tag's slug>/<METHOD><path>`), from the document's
 * own tags, so the test follows the tags' names wherever they are edited.
 */
const operationHash = async (method: string, path: string): Promise<string> => {
  const doc = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { tags?: Array<string> }>>
  }
  const tag = doc.paths[path]![method.toLowerCase()]!.tags![0]!
  const slug = tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
  return `#tag/${slug}/${method.toUpperCase()}${path}`
}

const bundleUrl = (html: string): string => {
  const src = /<script src="([^"]+)"><\/script>/.exec(html)?.[1]
  expect(src).toBeDefined()
  return src!
}

describe("the API reference over HTTP", () => {
  it("GET /api/v1/docs is a page without inline script, with a policy naming only this origin", async () => {
    const res = await fetch(`${origin}/api/v1/docs`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("text/html")
    expect(res.headers.get("cache-control")).toBe("no-cache")
    expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    const csp = res.headers.get("content-security-policy")!
    const directives = new Map(
      csp.split(";").map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/)
        return [name!, sources] as const
      })
    )
    expect(directives.get("default-src")).toEqual(["'none'"])
    expect(directives.get("script-src")).toEqual(["'self'", origin])
    expect(directives.get("connect-src")).toEqual(["'self'", origin])
    expect(directives.get("frame-ancestors")).toEqual(["'none'"])
    // inline CSS only (Scalar injects <style> elements without a nonce); never inline script or eval
    expect(csp.match(/'unsafe-[a-z-]+'/g)).toEqual(["'unsafe-inline'"])
    expect(directives.get("style-src")).toContain("'unsafe-inline'")
    // every host named is this origin
    for (const source of csp.split(/[;\s]+/).filter((s) => s.includes("://"))) expect(source).toBe(origin)
    const html = await res.text()
    expect(html).toContain(`data-url="${origin}/api/v1/openapi.json"`)
    expect(bundleUrl(html)).toMatch(
      new RegExp(`^${origin}/api/v1/docs/assets/scalar-api-reference\\.[0-9a-f]{16}\\.js$`)
    )
    // the only script elements are the configuration holder (empty) and the bundle
    expect([...html.matchAll(/<script[^>]*>([^<]*)<\/script>/g)].map((m) => m[1])).toEqual(["", ""])
    const configuration = JSON.parse(
      /data-configuration="([^"]*)"/.exec(html)![1]!.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))
    )
    expect(configuration).toMatchObject({
      telemetry: false,
      withDefaultFonts: false,
      hideClientButton: true,
      agent: { disabled: true },
      mcp: { disabled: true }
    })
    expect(configuration.proxyUrl).toBeUndefined()

    const etag = res.headers.get("etag")!
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/)
    const revalidated = await fetch(`${origin}/api/v1/docs`, { headers: { "if-none-match": etag } })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get("content-security-policy")).toBe(csp)
  })

  it("the bundle is cached for a year at its content-hashed URL, compressed when accepted, 304 on revalidation", async () => {
    const url = bundleUrl(await (await fetch(`${origin}/api/v1/docs`)).text())
    const plain = await fetch(url, { headers: { "accept-encoding": "identity" } })
    expect(plain.status).toBe(200)
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(plain.headers.get("vary")).toBe("accept-encoding")
    expect(plain.headers.get("content-encoding")).toBeNull()
    const bytes = Buffer.from(await plain.arrayBuffer())
    expect(bytes.byteLength).toBeGreaterThan(1_000_000)
    expect(Number(plain.headers.get("content-length"))).toBe(bytes.byteLength)
    const etag = plain.headers.get("etag")!
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/)

    // fetch() would decode a compressed body itself: read the raw bytes over node:http instead
    const raw = async (acceptEncoding: string) => {
      const http = await import("node:http")
      return new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        http
          .get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
            const chunks: Array<Buffer> = []
            res.on("data", (c: Buffer) => chunks.push(c))
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
          })
          .on("error", reject)
      })
    }
    const br = await raw("gzip, deflate, br")
    expect(br.headers["content-encoding"]).toBe("br")
    expect(br.headers.etag).not.toBe(etag)
    expect(br.body.byteLength).toBeLessThan(bytes.byteLength / 3)
    expect(zlib.brotliDecompressSync(br.body).equals(bytes)).toBe(true)
    const gz = await raw("gzip;q=1, br;q=0")
    expect(gz.headers["content-encoding"]).toBe("gzip")
    expect(zlib.gunzipSync(gz.body).equals(bytes)).toBe(true)

    const revalidated = await fetch(url, { headers: { "accept-encoding": "identity", "if-none-match": etag } })
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get("etag")).toBe(etag)
    expect(revalidated.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect((await revalidated.arrayBuffer()).byteLength).toBe(0)
  })

  it("an asset name that is not the current bundle is 404 {error}, not cached", async () => {
    for (const name of ["scalar-api-reference.0000000000000000.js", "standalone.js", "..%2Fpackage.json"]) {
      const res = await fetch(`${origin}/api/v1/docs/assets/${name}`)
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: expect.any(String) })
      expect(res.headers.get("cache-control")).toBe("no-store")
    }
  })
})

describeBrowser("the API reference in Chromium", () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  /** A page that records every host it contacts and every error it logs. */
  const open = async (width: number) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } })
    const page = await context.newPage()
    const hosts = new Set<string>()
    const errors: Array<string> = []
    page.on("request", (r) => {
      const url = new URL(r.url())
      if (url.protocol === "http:" || url.protocol === "https:" || url.protocol === "ws:") hosts.add(url.hostname)
    })
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text())
    })
    page.on("pageerror", (e) => errors.push(String(e)))
    await page.goto(`${origin}/api/v1/docs`)
    // the operations are rendered from the document: the first tag's paths, a group for each
    // tag, and another tag's operations in the reference itself (paths, whatever the summaries)
    await page.locator("main").getByText("/v1/health", { exact: true }).first().waitFor({ timeout: 30_000 })
    // (on a phone the sidebar is folded away behind its menu button)
    const groups = page.getByRole("button", { name: /^Open Group - /, includeHidden: true })
    expect(await groups.count()).toBeGreaterThanOrEqual(10)
    await page.goto(`${origin}/api/v1/docs${(await operationHash("POST", "/v1/cards")).replace(/\/POST.*/, "")}`)
    for (const path of ["/v1/cards", "/v1/columns/{id}", "/v1/cards/{id}/move"])
      await page.locator("main").getByText(path, { exact: true }).first().waitFor()
    return { page, hosts, errors, close: () => context.close() }
  }

  const onlyLocal = (hosts: Set<string>) => expect([...hosts].filter((h) => h !== "127.0.0.1")).toEqual([])

  it("renders the operations, contacts only this server and logs no error", async () => {
    const { page, hosts, errors, close } = await open(1280)
    try {
      // give lazy parts (search index, sidebar) time to ask for anything they would
      await page.waitForTimeout(1000)
      expect(await page.title()).toContain("Board Service")
      // the links that would hand the document's URL to client.scalar.com are hidden
      expect(await page.getByText("Open API Client").count()).toBe(0)
      onlyLocal(hosts)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 60_000)

  it("does not scroll sideways at 400 px", async () => {
    const { page, hosts, errors, close } = await open(400)
    try {
      const widths = () =>
        page.evaluate(() => {
          const s = document.scrollingElement!
          return { scrollWidth: s.scrollWidth, clientWidth: s.clientWidth }
        })
      // down the whole reference, which renders its sections as they come into view
      for (let step = 0; step < 40; step++) {
        const sizes = await widths()
        expect(sizes.scrollWidth, `at step ${step}`).toBeLessThanOrEqual(sizes.clientWidth)
        const done = await page.evaluate(() => {
          const s = document.scrollingElement!
          const before = s.scrollTop
          s.scrollTop += s.clientHeight * 3
          return s.scrollTop === before
        })
        if (done) break
        await page.waitForTimeout(100)
      }
      onlyLocal(hosts)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 60_000)

  it('"try it" sends the request to this server and shows its answer', async () => {
    const { page, hosts, errors, close } = await open(1280)
    try {
      await tryHealth(page)
      onlyLocal(hosts)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 60_000)

  it('"try it" with an API key: the key goes in X-API-Key to this server, the answer is the caller\'s workspaces', async () => {
    const account = await bootstrap(server.baseUrl, "docs")
    const { page, hosts, errors, close } = await open(1280)
    try {
      const url = `${origin}/api/v1/workspaces`
      const answered = page.waitForResponse((r) => r.url() === url && r.request().method() === "GET")
      await page.goto(`${origin}/api/v1/docs${await operationHash("GET", "/v1/workspaces")}`)
      await page.getByRole("button", { name: /Test Request\s*\(get \/v1\/workspaces\)/i }).click()
      // the operation's first scheme (apiKey) is preselected: open the section, type the key
      await page.getByText("Authentication", { exact: true }).last().click()
      await page.getByText("Value:", { exact: true }).locator("..").locator("input").fill(account.apiKey)
      await page.getByRole("button", { name: /Send get request to .*\/v1\/workspaces$/ }).click()
      const response = await answered
      expect(await response.request().headerValue("x-api-key")).toBe(account.apiKey)
      expect(response.status()).toBe(200)
      await page.getByText(account.workspaceId).first().waitFor()
      onlyLocal(hosts)
      expect(errors).toEqual([])
    } finally {
      await close()
    }
  }, 60_000)
})

/** Opens GET /v1/health in Scalar's client from the reference and sends it. */
const tryHealth = async (page: Page) => {
  const answered = page.waitForResponse((r) => r.url() === `${origin}/api/v1/health` && r.request().method() === "GET")
  await page.getByRole("button", { name: /Test Request.*get \/v1\/health/i }).click()
  await page.getByRole("button", { name: /Send get request to .*\/v1\/health/ }).click()
  expect((await answered).status()).toBe(200)
  // the answer is shown in the client
  await page.getByText("200 OK").first().waitFor()
  await page.getByText('"service-api"').first().waitFor()
}
