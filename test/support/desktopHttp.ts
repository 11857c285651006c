/**
 * Raw HTTP for the desktop suites: the request target goes out exactly as written (fetch and
 * URL would resolve `..` and re-encode), and redirects are not followed.
 */
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"

export interface RawReply {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
  readonly json: any
}

/** GET `origin` + `target` with the target untouched. */
export const rawGet = (
  origin: string,
  target: string,
  headers: Record<string, string> = {},
  method = "GET"
): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const u = new URL(origin)
    const req = http.request({ host: u.hostname, port: u.port, method, path: target, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const body = Buffer.concat(chunks)
        let json: any
        try {
          json = JSON.parse(body.toString("utf8"))
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

/** GET an absolute URL (as a browser or the updater would after a redirect). */
export const getUrl = (url: string, headers: Record<string, string> = {}) => {
  const u = new URL(url)
  return rawGet(u.origin, u.pathname + u.search, headers)
}

export const digests = (bytes: Uint8Array) => ({
  sha256: crypto.createHash("sha256").update(bytes).digest("hex"),
  sha512: crypto.createHash("sha512").update(bytes).digest("base64")
})

export interface BuildFiles {
  readonly dir: string
  readonly zip: string
  readonly dmg: string
  readonly blockmap: string
  readonly bytes: (file: string) => Buffer
}

/** Stand-ins for electron-builder's macOS output of one version (random bytes, real sizes and names). */
export const makeBuild = (root: string, version: string, zipBytes = 3 * 1024 * 1024 + 17): BuildFiles => {
  const dir = path.join(root, `build-${version}`)
  fs.mkdirSync(dir, { recursive: true })
  const zip = path.join(dir, `Board-${version}-arm64-mac.zip`)
  // a space in the name: links and feed URLs must encode it
  const dmg = path.join(dir, `Board ${version}-arm64.dmg`)
  const blockmap = `${zip}.blockmap`
  fs.writeFileSync(zip, crypto.randomBytes(zipBytes))
  fs.writeFileSync(dmg, crypto.randomBytes(256 * 1024 + 3))
  fs.writeFileSync(blockmap, crypto.randomBytes(2048))
  return { dir, zip, dmg, blockmap, bytes: (file) => fs.readFileSync(file) }
}
