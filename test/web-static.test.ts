/**
 * Issue 21: `board serve` serves the built web app at `/` over real HTTP: index.html for the
 * app's routes with the strict CSP, hashed assets cached for a year and sent compressed as the
 * client asks, and every other path (API, OAuth metadata) answering as before.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "./support/server.ts"

const WEB_DIST = path.resolve(import.meta.dirname, "../packages/web/dist")

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

interface RawReply {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  /** The bytes as sent (compressed when the server compressed them). */
  readonly bytes: Buffer
}

/** A GET that neither asks for nor undoes compression unless told (fetch does both). */
const rawGet = (origin: string, target: string, headers: Record<string, string> = {}): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const req = http.request(`${origin}${target}`, { method: "GET", headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

describe("the web app at /", () => {
  let server: TestServer
  let origin: string
  let index: string
  let script: string

  beforeAll(async () => {
    server = await startServer("pglite")
    origin = server.baseUrl.replace(/\/api$/, "")
    index = fs.readFileSync(path.join(WEB_DIST, "index.html"), "utf8")
    script = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!
  })
  afterAll(() => server?.stop())

  it("answers index.html for / and every app route, no-cache, with the strict CSP", async () => {
    for (const target of ["/", "/signin", "/signup", "/p/x", "/p/abc/links", "/user/keys", "/w/123", "/p/x?card=y"]) {
      const r = await rawGet(origin, target)
      expect(r.status, target).toBe(200)
      expect(r.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(r.bytes.toString("utf8")).toBe(index)
      expect(r.headers["cache-control"]).toBe("no-cache")
      expect(r.headers["content-security-policy"]).toBe(CSP)
      expect(r.headers["x-content-type-options"]).toBe("nosniff")
      expect(r.headers["referrer-policy"]).toBe("same-origin")
      expect(r.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/)
    }
  })

  it("revalidates index.html with its ETag (304, whatever encoding was sent)", async () => {
    const plain = await rawGet(origin, "/")
    const again = await rawGet(origin, "/", { "if-none-match": plain.headers.etag! })
    expect(again.status).toBe(304)
    expect(again.bytes.length).toBe(0)
    expect(again.headers.etag).toBe(plain.headers.etag)
    const br = await rawGet(origin, "/", { "accept-encoding": "br" })
    expect(br.headers["content-encoding"]).toBe("br")
    expect(br.headers.etag).not.toBe(plain.headers.etag)
    expect((await rawGet(origin, "/", { "accept-encoding": "br", "if-none-match": br.headers.etag! })).status).toBe(304)
    expect((await rawGet(origin, "/", { "if-none-match": `"other", W/${plain.headers.etag}` })).status).toBe(304)
    expect((await rawGet(origin, "/", { "if-none-match": "*" })).status).toBe(304)
    expect((await rawGet(origin, "/", { "if-none-match": '"other"' })).status).toBe(200)
  })

  it("serves hashed assets immutable and compressed as Accept-Encoding allows", async () => {
    const raw = fs.readFileSync(path.join(WEB_DIST, script))
    const br = await rawGet(origin, script, { "accept-encoding": "gzip, deflate, br" })
    expect(br.status).toBe(200)
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.headers["content-encoding"]).toBe("br")
    expect(br.bytes.length).toBeLessThan(raw.length / 2)
    expect(zlib.brotliDecompressSync(br.bytes).equals(raw)).toBe(true)
    const gz = await rawGet(origin, script, { "accept-encoding": "gzip" })
    expect(gz.headers["content-encoding"]).toBe("gzip")
    expect(zlib.gunzipSync(gz.bytes).equals(raw)).toBe(true)
    // br refused by q=0
    const noBr = await rawGet(origin, script, { "accept-encoding": "br;q=0, gzip;q=0.5" })
    expect(noBr.headers["content-encoding"]).toBe("gzip")
    const identity = await rawGet(origin, script)
    expect(identity.headers["content-encoding"]).toBeUndefined()
    expect(identity.bytes.equals(raw)).toBe(true)
    expect(Number(identity.headers["content-length"])).toBe(raw.length)
    const css = /href="(\/assets\/[^"]+\.css)"/.exec(index)![1]!
    const style = await rawGet(origin, css, { "accept-encoding": "gzip" })
    expect(style.headers["content-type"]).toBe("text/css; charset=utf-8")
    expect(style.headers["content-encoding"]).toBe("gzip")
  })

  it("an unknown asset is a 404, never index.html", async () => {
    const r = await rawGet(origin, "/assets/nope-12345678.js")
    expect(r.status).toBe(404)
    expect(JSON.parse(r.bytes.toString("utf8"))).toEqual({ error: "no such asset" })
    // the precompressed copies are not files of their own
    expect((await rawGet(origin, `${script}.br`)).status).toBe(404)
  })

  it("every other path answers as before: JSON 404 for unknown API paths, the OAuth metadata, the API", async () => {
    const api = await rawGet(origin, "/api/v1/nope")
    expect(api.status).toBe(404)
    expect(api.headers["content-type"]).toMatch(/application\/json/)
    expect(JSON.parse(api.bytes.toString("utf8")).error).toMatch(/no such endpoint/)
    expect(api.headers["content-security-policy"]).toBeUndefined()
    const meta = await rawGet(origin, "/.well-known/oauth-authorization-server")
    expect(meta.status).toBe(200)
    expect(JSON.parse(meta.bytes.toString("utf8")).issuer).toBe(server.config.publicUrl)
    expect((await rawGet(origin, "/api/v1/health")).status).toBe(200)
    // a path that is no app route stays a 404
    const other = await rawGet(origin, "/nope")
    expect(other.status).toBe(404)
    expect(JSON.parse(other.bytes.toString("utf8")).error).toBeDefined()
  })
})

describe("the web app not built", () => {
  let server: TestServer
  let origin: string
  let empty: string
  beforeAll(async () => {
    empty = fs.mkdtempSync(path.join(os.tmpdir(), "board-web-"))
    server = await startServer("pglite", { WEB_DIR: empty })
    origin = server.baseUrl.replace(/\/api$/, "")
  })
  afterAll(async () => {
    await server?.stop()
    fs.rmSync(empty, { recursive: true, force: true })
  })

  it("says so at / with 503, and the API keeps working; a build made later is served", async () => {
    const r = await rawGet(origin, "/")
    expect(r.status).toBe(503)
    expect(JSON.parse(r.bytes.toString("utf8")).error).toMatch(/the web app is not built/)
    expect((await rawGet(origin, "/api/v1/health")).status).toBe(200)
    fs.cpSync(WEB_DIST, empty, { recursive: true })
    const built = await rawGet(origin, "/p/x")
    expect(built.status).toBe(200)
    expect(built.headers["content-security-policy"]).toBe(CSP)
  })
})
