/**
 * The local build store's signed links, served outside `/api`: `GET /files/<key>?expires=…&
 * signature=…`. The link is the credential (API keys are neither needed nor looked at, since a
 * same-origin redirect keeps the client's X-API-Key); a tampered or expired link is 403, a
 * path that is not a storage key (traversal, encoded separators) or a missing file is 404.
 * `Range` gets 206 for electron-updater's differential downloads; the length is always exact.
 */
import { Blobs, contentTypeOf, decodeSegment, FILES_PREFIX, isBlobKey } from "@board/core"
import { Clock, Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import * as fs from "node:fs"
import { Readable } from "node:stream"
import { parseRange } from "./ranges.ts"

const noStore = { "cache-control": "no-store" }

const fail = (status: number, error: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ error }, { status, headers: { ...noStore, ...headers } })

const notFound = () => fail(404, "no such file")

/** The storage key of a raw request target, or undefined when it cannot name a stored file. */
export const keyOfTarget = (target: string): string | undefined => {
  const rawPath = target.split("?")[0]!
  if (!rawPath.startsWith(FILES_PREFIX)) return undefined
  const segments: Array<string> = []
  for (const raw of rawPath.slice(FILES_PREFIX.length).split("/")) {
    const s = decodeSegment(raw)
    if (s === undefined) return undefined
    segments.push(s)
  }
  const key = segments.join("/")
  return isBlobKey(key) ? key : undefined
}

const single = (params: URLSearchParams, name: string): string | undefined => {
  const all = params.getAll(name)
  return all.length === 1 ? all[0] : undefined
}

const serve = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const blobs = yield* Blobs
    const local = blobs.local
    if (local === undefined) return notFound()
    const key = keyOfTarget(request.url)
    if (key === undefined) return notFound()
    const query = new URLSearchParams(request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "")
    const verdict = local.verify(
      key,
      single(query, "expires"),
      single(query, "signature"),
      yield* Clock.currentTimeMillis
    )
    if (verdict === "invalid") return fail(403, "this download link is not valid: ask the API for a new one")
    if (verdict === "expired") return fail(403, "this download link has expired: ask the API for a new one")
    const file = local.pathOf(key)
    // one open file for the stat and the bytes: a --force republish renaming a new file into
    // place mid-request cannot make the length and the body disagree; symlinks are not followed
    const fd =
      file === undefined
        ? undefined
        : yield* Effect.sync(() => {
            try {
              return fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
            } catch {
              return undefined
            }
          })
    if (fd === undefined) return notFound()
    const stat = fs.fstatSync(fd)
    if (!stat.isFile()) {
      fs.closeSync(fd)
      return notFound()
    }
    const size = stat.size
    const lastModified = stat.mtime.toUTCString()
    const name = key.slice(key.lastIndexOf("/") + 1)
    // If-Range with anything but our exact Last-Modified means the client's copy may differ: send it whole
    const ifRange = request.headers["if-range"]
    const range =
      ifRange === undefined || ifRange === lastModified
        ? parseRange(request.headers.range, size)
        : { kind: "none" as const }
    if (range.kind === "unsatisfiable" || size === 0) fs.closeSync(fd)
    if (range.kind === "unsatisfiable") {
      return fail(416, `the requested range is outside the file (${size} bytes)`, {
        "content-range": `bytes */${size}`
      })
    }
    const [start, end, status] = range.kind === "range" ? [range.start, range.end, 206] : [0, size - 1, 200]
    const length = size === 0 ? 0 : end - start + 1
    const body = size === 0 ? Readable.from([]) : fs.createReadStream("", { fd, start, end, autoClose: true })
    return HttpServerResponse.raw(body, {
      status,
      headers: {
        ...noStore,
        "accept-ranges": "bytes",
        "last-modified": lastModified,
        "content-type": contentTypeOf(name),
        "content-disposition": `attachment; filename="${name}"`,
        "x-content-type-options": "nosniff",
        "content-length": String(length),
        ...(status === 206 ? { "content-range": `bytes ${start}-${end}/${size}` } : {})
      }
    })
  })

/** Mount beside the API in `routesLayer`; needs the core's Blobs. */
export const FileRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const blobs = yield* Blobs
    yield* router.add("GET", "/files/*", (request) => serve(request).pipe(Effect.provideService(Blobs, blobs)))
  })
)
