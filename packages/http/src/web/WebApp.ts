/**
 * The web board's pages (issue 21): the app built at install into packages/web/dist
 * (scripts/build.mjs) served by `board serve` on the API's own origin.
 *
 * - `/` and the app's routes (APP_ROUTES) answer index.html, `cache-control: no-cache` with an
 *   ETag (a revalidation costs a 304), and the strict Content-Security-Policy below;
 * - `/assets/*` are Vite's content-hashed files: cached for a year as immutable;
 * - text is sent compressed (brotli, else gzip, as Accept-Encoding allows, with `Vary`): the
 *   build writes `.br` and `.gz` beside each file; a file without them is compressed here;
 * - the files are read once, on the first request for a page, and kept in memory (a few hundred
 *   KB), so the server's start reads nothing and a page costs no disk access. A rebuild while
 *   the server runs is seen after a restart (the old index.html names the old hashed files,
 *   which stay in memory, so an open tab keeps working);
 * - an app that is not built answers 503 `{error}` saying so; the API is not affected;
 * - a page asked for under another loopback name than PUBLIC_URL's (`localhost` for
 *   `127.0.0.1`, on the same port) is redirected there (`loopbackRedirect`).
 *
 * Where the app is: WEB_DIR, else `packages/web/dist` of the repository this module is in
 * (found upwards from the module: `packages/http/src/web/` from source, `dist/chunks/` in the
 * bundle), as migrations/ is found.
 */
import { type AppConfigValues, isLoopbackHost } from "@board/core"
import { Effect } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as nodePath from "node:path"
import { fileURLToPath } from "node:url"
import * as zlib from "node:zlib"
import { chooseEncoding, encodedEtag, ifNoneMatchNames } from "../staticFiles.ts"

/** The app's client-side routes (packages/web/src/main.tsx): each answers index.html. */
export const APP_ROUTES = [
  "/",
  "/signin",
  "/signup",
  "/user/*",
  "/w/*",
  "/p/*",
  "/invite/*",
  "/reset-password/*"
] as const

/** No inline script or style, nothing from another origin, no framing. */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

const pageHeaders = {
  "content-security-policy": APP_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin"
}

const IMMUTABLE = "public, max-age=31536000, immutable"

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".txt": "text/plain; charset=utf-8",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".wasm": "application/wasm"
}

/** What is worth compressing (images and fonts are compressed already). */
export const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt", ".wasm"])

interface StaticFile {
  readonly type: string
  readonly identity: Uint8Array
  readonly gzip: Uint8Array | undefined
  readonly br: Uint8Array | undefined
  readonly etag: string
}

interface WebAssets {
  readonly index: StaticFile
  readonly assets: ReadonlyMap<string, StaticFile>
}

/** packages/web/dist of the repository above `from`, or beside `from` when none is found. */
const findWebDir = (from: string): string => {
  for (let dir = from; ; dir = nodePath.dirname(dir)) {
    if (fs.existsSync(nodePath.join(dir, "packages", "web", "package.json"))) {
      return nodePath.join(dir, "packages", "web", "dist")
    }
    if (nodePath.dirname(dir) === dir) return nodePath.join(from, "web")
  }
}

export const defaultWebDir = (): string => findWebDir(nodePath.dirname(fileURLToPath(import.meta.url)))

const readIfExists = (file: string): Uint8Array | undefined => {
  try {
    return fs.readFileSync(file)
  } catch {
    return undefined
  }
}

const loadFile = (file: string): StaticFile => {
  const ext = nodePath.extname(file)
  const identity = fs.readFileSync(file)
  const compressible = COMPRESSIBLE.has(ext)
  return {
    type: TYPES[ext] ?? "application/octet-stream",
    identity,
    // the build's own (best compression); else compressed once here at a cost of milliseconds
    gzip: compressible ? (readIfExists(`${file}.gz`) ?? zlib.gzipSync(identity, { level: 9 })) : undefined,
    br: compressible
      ? (readIfExists(`${file}.br`) ??
        zlib.brotliCompressSync(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }))
      : undefined,
    etag: `"${crypto.createHash("sha256").update(identity).digest("hex").slice(0, 24)}"`
  }
}

const loadAll = (dir: string): WebAssets | undefined => {
  const indexFile = nodePath.join(dir, "index.html")
  if (!fs.existsSync(indexFile)) return undefined
  const assets = new Map<string, StaticFile>()
  const assetsDir = nodePath.join(dir, "assets")
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(nodePath.join(assetsDir, sub), { withFileTypes: true })) {
      const rel = sub === "" ? entry.name : `${sub}/${entry.name}`
      if (entry.isDirectory()) walk(rel)
      else if (!entry.name.endsWith(".gz") && !entry.name.endsWith(".br"))
        assets.set(`/assets/${rel}`, loadFile(nodePath.join(assetsDir, rel)))
    }
  }
  if (fs.existsSync(assetsDir)) walk("")
  return { index: loadFile(indexFile), assets }
}

const send = (
  request: HttpServerRequest.HttpServerRequest,
  file: StaticFile,
  headers: Record<string, string>
): HttpServerResponse.HttpServerResponse => {
  const compressed = file.gzip !== undefined
  const encoding = compressed ? chooseEncoding(request.headers["accept-encoding"]) : undefined
  const body = encoding === "br" ? file.br! : encoding === "gzip" ? file.gzip! : file.identity
  const all: Record<string, string> = {
    ...headers,
    etag: encodedEtag(file.etag, encoding),
    ...(compressed ? { vary: "Accept-Encoding" } : {}),
    ...(encoding === undefined ? {} : { "content-encoding": encoding })
  }
  if (ifNoneMatchNames(request.headers["if-none-match"], file.etag)) {
    const { "content-encoding": _, ...rest } = all
    return HttpServerResponse.empty({ status: 304, headers: rest })
  }
  return HttpServerResponse.uint8Array(body, { headers: all, contentType: file.type })
}

const notBuilt = (dir: string) =>
  HttpServerResponse.jsonUnsafe(
    {
      error: `the web app is not built (no ${nodePath.join(dir, "index.html")}): run \`node scripts/build.mjs\` (pnpm install does), or set WEB_DIR to a built packages/web/dist; the API works without it`
    },
    { status: 503, headers: { "cache-control": "no-store" } }
  )

/** A host name without IPv6 brackets, lowercase. */
const bareHost = (host: string) => host.replace(/^\[|\]$/g, "").toLowerCase()
const isLoopbackName = (host: string) => isLoopbackHost(host) || host.endsWith(".localhost")

/**
 * Whether a page request's `Host` names this server by another loopback name than PUBLIC_URL's
 * (`localhost`, `127.0.0.1`, `[::1]`, on PUBLIC_URL's port). The session cookie is set only for
 * PUBLIC_URL's origin (docs/web.md), so a person who typed `localhost` could sign in but keep
 * no session; such pages are sent to the same path on PUBLIC_URL instead (307: temporary, so a
 * changed PUBLIC_URL is not held in browsers' caches). Only when PUBLIC_URL is itself a
 * loopback address: behind a proxy (a public PUBLIC_URL) the `Host` the proxy sends is its own
 * business, and redirecting it could loop.
 */
export const loopbackRedirect = (publicUrl: string): ((host: string | undefined) => boolean) => {
  const target = new URL(publicUrl)
  const name = bareHost(target.hostname)
  if (!isLoopbackName(name)) return () => false
  const portOf = (u: URL) => u.port || (u.protocol === "https:" ? "443" : "80")
  const port = portOf(target)
  return (host) => {
    if (host === undefined) return false
    let asked: URL
    try {
      asked = new URL(`${target.protocol}//${host}`)
    } catch {
      return false
    }
    const askedName = bareHost(asked.hostname)
    return askedName !== name && isLoopbackName(askedName) && portOf(asked) === port
  }
}

/** The app's routes and its assets, for one configuration. */
export const WebAppRoutes = (config: AppConfigValues) => {
  const dir = config.webDir === undefined ? defaultWebDir() : nodePath.resolve(config.webDir)
  let loaded: WebAssets | undefined
  // read on first use; while the app is not built every request looks again (cheap), so a
  // build made after the start is served without a restart
  const web = (): WebAssets | undefined => {
    if (loaded === undefined) loaded = loadAll(dir)
    return loaded
  }

  const elsewhere = loopbackRedirect(config.publicUrl)

  const page = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.sync(() => {
      if (request.url.startsWith("/") && elsewhere(request.headers.host))
        return HttpServerResponse.empty({
          status: 307,
          headers: { location: `${config.publicUrl}${request.url}`, "cache-control": "no-store" }
        })
      const w = web()
      return w === undefined ? notBuilt(dir) : send(request, w.index, { ...pageHeaders, "cache-control": "no-cache" })
    })

  const asset = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.sync(() => {
      const w = web()
      if (w === undefined) return notBuilt(dir)
      const query = request.url.indexOf("?")
      const file = w.assets.get(query === -1 ? request.url : request.url.slice(0, query))
      if (file === undefined) {
        return HttpServerResponse.jsonUnsafe(
          { error: "no such asset" },
          { status: 404, headers: { "cache-control": "no-store" } }
        )
      }
      return send(request, file, { "cache-control": IMMUTABLE, "x-content-type-options": "nosniff" })
    })

  return HttpRouter.addAll([
    ...APP_ROUTES.map((path) => HttpRouter.route("GET", path, page)),
    HttpRouter.route("GET", "/assets/*", asset)
  ])
}
