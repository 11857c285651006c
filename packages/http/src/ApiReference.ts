/**
 * The API reference at `/api/v1/docs`: Scalar's standalone browser bundle (the npm package
 * `@scalar/api-reference`, served by this server, never a CDN) rendering `/api/v1/openapi.json`,
 * with "try it" sending requests to the document's server, i.e. this service.
 *
 * The bundle is one self-contained script of several MB. It is served at a content-hashed URL
 * (`/api/v1/docs/assets/scalar-api-reference.<hash>.js`) with a year-long immutable cache, and
 * compressed (brotli or gzip, computed once, off the event loop) for clients that accept it.
 * The page is a few lines of HTML: no inline script, and a Content-Security-Policy that lets
 * it load scripts from and send requests to nothing but this origin, so a browser with the page open talks to no one else
 * (Scalar's telemetry, agent, fonts and request proxy are switched off besides).
 */
import { Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { promisify } from "node:util"
import * as zlib from "node:zlib"
import { escapeHtml } from "./html.ts"
import { chooseEncoding, encodedEtag, ifNoneMatchNames } from "./staticFiles.ts"

export const DOCS_PATH = "/api/v1/docs"
const ASSETS_PREFIX = `${DOCS_PATH}/assets/`
const YEAR = 365 * 24 * 60 * 60

/**
 * The bundle's file in the installed package. Resolved at run time from this module's location
 * (from dist/ once built, which reaches the root's node_modules), not bundled by esbuild: it is
 * a browser script, not code of the server.
 */
const bundleFile = (): string => {
  const entry = createRequire(import.meta.url).resolve("@scalar/api-reference")
  // the package's entry is <package>/dist/index.js; the standalone build sits beside it
  return path.join(path.dirname(entry), "browser", "standalone.js")
}

interface Bundle {
  readonly name: string
  readonly hash: string
  readonly identity: Uint8Array
}

interface Compressed {
  readonly br: Uint8Array
  readonly gzip: Uint8Array
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/**
 * The bundle, read once when first needed (a server that nobody asks for docs never reads its
 * 4 MB), and its compressed forms, computed once in libuv's thread pool: brotli quality 9 takes
 * ~0.6 s for ~75% less (quality 11 would take ~9 s for 10% more).
 */
const makeBundleSource = (file: () => string) => {
  let bundle: Bundle | undefined
  let compressed: Promise<Compressed> | undefined
  const load = (): Bundle => {
    if (bundle === undefined) {
      const identity = fs.readFileSync(file())
      const hash = createHash("sha256").update(identity).digest("hex").slice(0, 16)
      bundle = { name: `scalar-api-reference.${hash}.js`, hash, identity }
    }
    return bundle
  }
  const compress = (): Promise<Compressed> => {
    if (compressed === undefined) {
      const { identity } = load()
      compressed = Promise.all([
        brotli(identity, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 9,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.byteLength
          }
        }),
        gzip(identity, { level: 9 })
      ]).then(([br, gz]) => ({ br, gzip: gz }))
    }
    return compressed
  }
  return { load, compress }
}

/**
 * What Scalar may do (its configuration type, @scalar/types api-reference-configuration): only
 * what works with this server alone. Telemetry, the AI agent (api.scalar.com), the default
 * fonts (fonts.scalar.com) and MCP install links are off; the "Open API Client" buttons are
 * hidden (they are links handing the document's URL to client.scalar.com, while "Test Request"
 * opens the same client inside the page); no `proxyUrl`, so "try it" calls the document's
 * server directly (same origin: no CORS, no proxy); the developer toolbar is hidden.
 */
const scalarConfiguration = {
  title: "Board Service API",
  telemetry: false,
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  documentDownloadType: "json",
  // credentials typed into "try it" stay in the tab, not in localStorage
  persistAuth: false,
  hideModels: false,
  metaData: { title: "Board Service API reference" },
  // A heading's "copy link" button sits just past its last word, so a heading that fills a
  // phone's line pushed the page 2 px sideways. Code blocks scroll inside their own boxes; the
  // reference itself never needs to: clip (not hidden: no scroll container, sticky parts stay).
  customCss: ".references-rendered { overflow-x: clip; }"
}

/**
 * The page's policy: scripts only from this origin (the bundle; the page has no inline script,
 * and Scalar needs no eval), requests only to this origin. Styles allow 'unsafe-inline': Scalar
 * can give its main stylesheet a nonce (`<meta property="csp-nonce">`), but its theme, its toast
 * styles and an empty `<style>` are injected without one (Chromium refused all four under a
 * nonce-only policy), and listing their hashes would break on any upgrade. With scripts locked
 * to this origin, inline CSS is the smaller risk. PUBLIC_URL's origin is named beside 'self'
 * for a page reached under another host name than the one the document's URLs use.
 */
export const docsCsp = (publicUrl: string): string => {
  const origin = new URL(publicUrl).origin
  return [
    "default-src 'none'",
    `script-src 'self' ${origin}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self' ${origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

/** The page: a mount point carrying Scalar's configuration, then the bundle. */
export const renderDocsPage = (publicUrl: string, bundleName: string): string => {
  const openApi = `${publicUrl}/api/v1/openapi.json`
  const bundle = `${publicUrl}${ASSETS_PREFIX}${bundleName}`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
<title>Board Service API reference</title>
</head>
<body>
<noscript><p>This reference needs JavaScript. The OpenAPI document it renders is at <a href="${escapeHtml(openApi)}">${escapeHtml(openApi)}</a>.</p></noscript>
<script id="api-reference" data-url="${escapeHtml(openApi)}" data-configuration="${escapeHtml(JSON.stringify(scalarConfiguration))}"></script>
<script src="${escapeHtml(bundle)}"></script>
</body>
</html>
`
}

const securityHeaders = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY"
}

const notFound = () =>
  HttpServerResponse.jsonUnsafe({ error: "no such asset" }, { status: 404, headers: { "cache-control": "no-store" } })

/** GET /api/v1/docs and its one asset. */
export const docsPageRoutes = (publicUrl: string) => {
  const source = makeBundleSource(bundleFile)
  const csp = docsCsp(publicUrl)

  // the page only changes with the bundle, i.e. with a deploy: built once, revalidated by ETag
  let built: { readonly html: string; readonly etag: string } | undefined
  const page = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.sync(() => {
      const bundle = source.load()
      // the browser asks for the bundle right after the page: have its compressed forms under way
      source.compress().catch(() => undefined)
      if (built === undefined) {
        const html = renderDocsPage(publicUrl, bundle.name)
        built = { html, etag: `"${createHash("sha256").update(html).digest("hex").slice(0, 16)}"` }
      }
      const headers = {
        ...securityHeaders,
        "content-security-policy": csp,
        // a new deploy's page names a new bundle: always revalidate the page itself
        "cache-control": "no-cache",
        etag: built.etag
      }
      if (ifNoneMatchNames(request.headers["if-none-match"], built.etag))
        return HttpServerResponse.empty({ status: 304, headers })
      return HttpServerResponse.html(built.html).pipe(HttpServerResponse.setHeaders(headers))
    })

  const asset = (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const bundle = source.load()
      const name = request.url.split("?")[0]!.slice(ASSETS_PREFIX.length)
      // an older deploy's hash is not this content: 404 rather than cache the wrong bytes for a year
      if (name !== bundle.name) return notFound()
      const encoding = chooseEncoding(request.headers["accept-encoding"])
      const etag = encodedEtag(`"${bundle.hash}"`, encoding)
      const headers = {
        ...securityHeaders,
        "cache-control": `public, max-age=${YEAR}, immutable`,
        etag,
        vary: "accept-encoding"
      }
      if (ifNoneMatchNames(request.headers["if-none-match"], `"${bundle.hash}"`))
        return HttpServerResponse.empty({ status: 304, headers })
      const body = encoding === undefined ? bundle.identity : (yield* Effect.promise(() => source.compress()))[encoding]
      return HttpServerResponse.uint8Array(body, {
        contentType: "text/javascript; charset=utf-8",
        headers: encoding === undefined ? headers : { ...headers, "content-encoding": encoding }
      })
    })

  return Layer.mergeAll(
    HttpRouter.add("GET", DOCS_PATH, (request) => page(request)),
    HttpRouter.add("GET", `${ASSETS_PREFIX}:name`, (request) => asset(request))
  )
}
