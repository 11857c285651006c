/**
 * Issue 7: desktop builds on real storage (files under DATA_DIR, and a real S3-protocol server
 * on loopback), published by the real `board desktop publish` beside a running server (through
 * its database socket for the embedded database), read through the API and the update feed
 * with electron-updater's own code.
 */
import { ServerSecret, signLocalLink } from "@board/core"
import { Effect } from "effect"
import * as yaml from "js-yaml"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { type BuildFiles, digests, getUrl, makeBuild, rawGet } from "./support/desktopHttp.ts"
import { presignedSignatureValid, startS3, type TestS3 } from "./support/desktopS3.ts"
import { readFeed } from "./support/desktopUpdater.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { boardBin, SPAWNED_NODE_FLAGS, spawnBoard, spawnProcess } from "./support/spawn.ts"
import { execFileSync } from "node:child_process"

const PLATFORM = "darwin-arm64"
/** util-linux `script` gives the CLI a terminal. */
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()
const storages = ["local", "s3"] as const
const combos = backends.flatMap((backend) => storages.map((storage) => [backend, storage] as const))

describe.each(combos)("desktop builds on %s with %s storage", (backend, storage) => {
  // the S3 run also proves DOWNLOAD_URL_TTL is honoured; the local one uses the 300 s default
  const ttl = storage === "s3" ? 120 : 300
  let root: string
  let dataDir: string
  let s3: TestS3 | undefined
  let server: TestServer
  let base: string
  let origin: string
  let a: Account
  let h: Record<string, string>
  let v1: BuildFiles
  let v2: BuildFiles

  const storageEnv = (): Record<string, string | undefined> => ({
    S3_BUCKET: undefined,
    S3_ENDPOINT: undefined,
    S3_REGION: undefined,
    S3_FORCE_PATH_STYLE: undefined,
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
    ...s3?.env
  })
  /** The real CLI with the server's DATA_DIR and database: the embedded one is reached through its socket. */
  const publish = async (args: ReadonlyArray<string>, env: Record<string, string | undefined> = {}) => {
    const p = spawnBoard(["desktop", "publish", ...args], {
      DATA_DIR: dataDir,
      DATABASE_URL: server.config.databaseUrl,
      REDIS_URL: undefined,
      SECRET: undefined,
      LOG_FORMAT: "json",
      ...storageEnv(),
      ...env
    })
    const { code } = await p.exited
    return { code, output: p.output() }
  }
  const manifest = (query = "") => call(base, "GET", `/v1/desktop/releases/latest${query}`, { headers: h })
  const feed = (rest: string, headers = h) => rawGet(origin, `/api/v1/desktop/updates/${rest}`, headers)
  const downloadLink = async () => {
    const r = await call(base, "GET", "/v1/desktop/download?redirect=false", { headers: h })
    expect(r.status).toBe(200)
    return r.body as { url: string; expiresIn: number; version: string; sha256: string; sizeBytes: number }
  }

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "board-desk-"))
    dataDir = path.join(root, "data")
    s3 = storage === "s3" ? await startS3() : undefined
    server = await startServer(backend, { DATA_DIR: dataDir, DOWNLOAD_URL_TTL: `${ttl}s`, ...(s3?.env ?? {}) })
    base = server.baseUrl
    origin = base.replace(/\/api$/, "")
    a = await bootstrap(base, "desktop")
    h = key(a.apiKey)
    v1 = makeBuild(root, "1.2.3")
    v2 = makeBuild(root, "1.3.0", 1024 * 1024)
  })
  afterAll(async () => {
    await server?.stop()
    await s3?.stop()
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true })
  })

  it("before anything is published: 404 {error} for the manifest, the download and the feed", async () => {
    const m = await manifest()
    expect(m.status).toBe(404)
    expect(m.body).toEqual({ error: expect.stringContaining("darwin-arm64") })
    expect((await call(base, "GET", "/v1/desktop/download", { headers: h })).status).toBe(404)
    const f = await feed(`${PLATFORM}/latest-mac.yml`)
    expect(f.status).toBe(404)
    expect(f.json).toEqual({ error: expect.any(String) })
  })

  it("publish refuses versions that are not bare X.Y.Z, before touching anything", async () => {
    const refused = await Promise.all(
      ["v1.2.3", "1.2.3.4", " 1.2.3", "1.2", "01.2.3"].map((version) =>
        publish(["--platform", PLATFORM, "--version", version, "--notes", "n", v1.zip])
      )
    )
    for (const r of refused) {
      expect(r.code, r.output).toBe(2)
      expect(r.output).toMatch(/--version must be three dot-separated whole numbers/)
    }
    expect((await manifest()).status).toBe(404)
  })

  it("publish refuses a darwin release without a .zip, and unknown files", async () => {
    const noZip = await publish(["--platform", PLATFORM, "--version", "1.2.3", "--notes", "n", v1.dmg])
    expect(noZip.code, noZip.output).toBe(2)
    expect(noZip.output).toMatch(/needs a \.zip/)
    const missing = await publish([
      "--platform",
      PLATFORM,
      "--version",
      "1.2.3",
      "--notes",
      "n",
      path.join(root, "nope.zip")
    ])
    expect(missing.code, missing.output).toBe(2)
    expect(missing.output).toMatch(/no such file/)
  })

  it("publishes beside the running server, which answers with the new release at once", async () => {
    const r = await publish([
      "--platform",
      PLATFORM,
      "--version",
      "1.2.3",
      "--notes",
      "First release",
      v1.zip,
      v1.dmg,
      v1.blockmap
    ])
    expect(r.output).toContain("published darwin-arm64 1.2.3")
    expect(r.code, r.output).toBe(0)
    // progress bars are for terminals only
    expect(r.output).not.toMatch(/\r|\[#/)
    const m = await manifest()
    expect(m.status).toBe(200)
    const dmg = v1.bytes(v1.dmg)
    expect(Object.keys(m.body).sort()).toEqual(["notes", "publishedAt", "sha256", "sizeBytes", "version"])
    expect(m.body).toMatchObject({
      version: "1.2.3",
      notes: "First release",
      sha256: digests(dmg).sha256,
      sizeBytes: dmg.byteLength
    })
    expect(m.body.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(new Date(m.body.publishedAt).toISOString()).toBe(m.body.publishedAt)
    expect((await manifest(`?platform=${PLATFORM}`)).body).toEqual(m.body)
    expect((await manifest("?platform=linux-x64")).status).toBe(404)
    expect((await manifest("?platform=..%2Fsecret")).status).toBe(404)
  })

  it("download: 302 to a short-lived signed link (no-store) whose bytes and digests are the file's", async () => {
    const r = await rawGet(origin, "/api/v1/desktop/download", h)
    expect(r.status).toBe(302)
    expect(r.headers["cache-control"]).toBe("no-store")
    expect(r.body.byteLength).toBe(0)
    const location = r.headers.location!
    const target = new URL(location)
    if (storage === "s3") {
      expect(target.origin).toBe(s3!.endpoint)
      expect(target.searchParams.get("X-Amz-Expires")).toBe(String(ttl))
      expect(presignedSignatureValid(location, s3!.env.AWS_SECRET_ACCESS_KEY!)).toBe(true)
      expect(presignedSignatureValid(location, "another secret")).toBe(false)
    } else {
      expect(target.origin).toBe(origin)
      expect(target.pathname.startsWith("/files/")).toBe(true)
      const expires = Number(target.searchParams.get("expires"))
      expect(Math.abs(expires - Date.now() / 1000 - ttl)).toBeLessThan(5)
    }
    // the bytes never pass through /api
    expect(target.pathname.startsWith("/api")).toBe(false)
    const file = await getUrl(location)
    expect(file.status).toBe(200)
    const dmg = v1.bytes(v1.dmg)
    expect(Number(file.headers["content-length"])).toBe(dmg.byteLength)
    expect(file.body.equals(dmg)).toBe(true)
    expect(digests(file.body)).toEqual(digests(dmg))
    const m = (await manifest()).body
    expect(digests(file.body).sha256).toBe(m.sha256)
  })

  it("download?redirect=false: {url, expiresIn, version, sha256, sizeBytes}; any other redirect value is 400", async () => {
    const r = await call(base, "GET", "/v1/desktop/download?redirect=false", { headers: h })
    expect(r.status).toBe(200)
    expect(r.headers.get("cache-control")).toBe("no-store")
    const dmg = v1.bytes(v1.dmg)
    expect(Object.keys(r.body).sort()).toEqual(["expiresIn", "sha256", "sizeBytes", "url", "version"])
    expect(r.body).toMatchObject({
      expiresIn: ttl,
      version: "1.2.3",
      sha256: digests(dmg).sha256,
      sizeBytes: dmg.byteLength
    })
    if (storage === "s3") expect(new URL(r.body.url).searchParams.get("X-Amz-Expires")).toBe(String(r.body.expiresIn))
    const file = await getUrl(r.body.url)
    expect(file.body.equals(dmg)).toBe(true)
    for (const value of ["true", "0", "FALSE", "", "no"]) {
      const bad = await call(base, "GET", `/v1/desktop/download?redirect=${value}`, { headers: h })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual({ error: expect.stringContaining("redirect") })
    }
  })

  it("the update feed, read by electron-updater's own code, resolves every file to the published bytes", async () => {
    const feedUrl = `${base}/v1/desktop/updates/${PLATFORM}`
    const updater = await readFeed(feedUrl, h)
    expect(updater.info.version).toBe("1.2.3")
    const zip = v1.bytes(v1.zip)
    const dmg = v1.bytes(v1.dmg)
    expect(updater.info.files).toEqual([
      { url: `1.2.3/${path.basename(v1.zip)}`, sha512: digests(zip).sha512, size: zip.byteLength },
      { url: `1.2.3/${path.basename(v1.dmg)}`, sha512: digests(dmg).sha512, size: dmg.byteLength }
    ])
    expect(updater.info.path).toBe(`1.2.3/${path.basename(v1.zip)}`)
    expect(updater.info.sha512).toBe(digests(zip).sha512)
    expect(updater.info.sha512).toMatch(/^[A-Za-z0-9+/]{86}==$/)
    expect(new Date(updater.info.releaseDate).toISOString()).toBe(updater.info.releaseDate)
    // each files[].url resolves against the feed base, as the updater does (new URL(url, base + "/"))
    for (const f of updater.files) {
      expect(f.url.href).toBe(new URL(f.info.url, `${feedUrl}/`).href)
      const bytes = await updater.download(f)
      const original = f.info.url.endsWith(".zip") ? zip : dmg
      expect(bytes.equals(original)).toBe(true)
    }
    // MacUpdater on an arm64 Mac installs the arm64 zip
    expect(updater.zipForArm64?.info.url).toBe(`1.2.3/${path.basename(v1.zip)}`)
    // the differential download's blockmap sits beside the zip
    const blockmap = await feed(`${PLATFORM}/1.2.3/${encodeURIComponent(path.basename(v1.blockmap))}`)
    expect(blockmap.status).toBe(302)
    expect((await getUrl(blockmap.headers.location!)).body.equals(v1.bytes(v1.blockmap))).toBe(true)
  })

  it("latest-mac.yml parses with js-yaml into electron-builder's UpdateInfo shape", async () => {
    const r = await feed(`${PLATFORM}/latest-mac.yml`)
    expect(r.status).toBe(302)
    expect(r.headers["cache-control"]).toBe("no-store")
    const text = (await getUrl(r.headers.location!)).body.toString("utf8")
    const info = yaml.load(text) as Record<string, unknown>
    expect(Object.keys(info).sort()).toEqual(["files", "path", "releaseDate", "releaseNotes", "sha512", "version"])
    expect(info).toMatchObject({ version: "1.2.3", releaseNotes: "First release" })
    for (const f of info.files as Array<Record<string, unknown>>) {
      expect(Object.keys(f).sort()).toEqual(["sha512", "size", "url"])
      expect(f.url).toMatch(/^1\.2\.3\/[^/]+$/)
    }
    expect((info.files as Array<{ url: string }>).some((f) => f.url.endsWith(".zip") && f.url.includes("arm64"))).toBe(
      true
    )
  })

  it("the feed's path rules: only latest-mac.yml and <version>/<artifact> with a feed extension resolve", async () => {
    const zip = encodeURIComponent(path.basename(v1.zip))
    const resolving = [
      `${PLATFORM}/latest-mac.yml`,
      `${PLATFORM}/latest-mac.yml?noCache=1ab2c3`,
      `${PLATFORM}/1.2.3/${zip}`,
      `${PLATFORM}/1.2.3/${zip}?noCache=x&other=1`,
      `${PLATFORM}/1.2.3/${encodeURIComponent(path.basename(v1.dmg))}`,
      `${PLATFORM}/1.2.3/latest-mac.yml`
    ]
    for (const rest of resolving) {
      const r = await feed(rest)
      expect([rest, r.status]).toEqual([rest, 302])
      expect(r.headers["cache-control"]).toBe("no-store")
      expect(new URL(r.headers.location!).pathname.startsWith("/api")).toBe(false)
    }
    const notFound = [
      `${PLATFORM}/latest.yml`,
      `${PLATFORM}/latest-mac.yaml`,
      `${PLATFORM}/LATEST-MAC.yml`,
      `${PLATFORM}/1.2.3`,
      `${PLATFORM}/`,
      `${PLATFORM}/1.2.3/`,
      `${PLATFORM}/1.2.3/missing.zip`,
      `${PLATFORM}/1.2.3/notes.txt`,
      `${PLATFORM}/1.2.3/Board.exe`,
      `${PLATFORM}/9.9.9/${zip}`,
      `${PLATFORM}/v1.2.3/${zip}`,
      `${PLATFORM}/1.2.3/extra/${zip}`,
      `${PLATFORM}/1.2.3/${zip}/x.zip`,
      `${PLATFORM}/1.2.3/../latest-mac.yml`,
      `${PLATFORM}/../${PLATFORM}/latest-mac.yml`,
      `${PLATFORM}/1.2.3/..%2F..%2Fsecret.yml`,
      `${PLATFORM}/%2e%2e/latest-mac.yml`,
      `${PLATFORM}/1.2.3%2F${zip}`,
      `${PLATFORM}/1.2.3/%2e%2e%2f%2e%2e%2fsecret.zip`,
      `${PLATFORM}/1.2.3/.hidden.zip`,
      `${PLATFORM}/1.2.3/${zip}%00.zip`,
      `${PLATFORM}/1.2.3/a%5Cb.zip`,
      `Darwin-ARM64/latest-mac.yml`,
      `darwin%20arm64/latest-mac.yml`,
      `linux-x64/latest-mac.yml`,
      `..%2F${PLATFORM}/latest-mac.yml`
    ]
    for (const rest of notFound) {
      const r = await feed(rest)
      expect([rest, r.status]).toEqual([rest, 404])
      expect(r.json).toEqual({ error: expect.any(String) })
    }
  })

  it("every desktop endpoint needs an API key or OAuth token and answers {error}", async () => {
    for (const target of [
      "/api/v1/desktop/releases/latest",
      "/api/v1/desktop/download",
      `/api/v1/desktop/updates/${PLATFORM}/latest-mac.yml`
    ]) {
      for (const headers of [{}, { "x-api-key": "svc_nope" }, bearer(a.session)] as Array<Record<string, string>>) {
        const r = await rawGet(origin, target, headers)
        expect([target, r.status]).toEqual([target, 401])
        expect(r.json).toEqual({ error: expect.any(String) })
        expect(r.headers["www-authenticate"]).toMatch(/^Bearer /)
      }
    }
    const { tokens } = await fullFlow(base, a, [a.workspaceId])
    const viaOAuth = await call(base, "GET", "/v1/desktop/releases/latest", { headers: bearer(tokens.access_token) })
    expect(viaOAuth.status).toBe(200)
    expect(viaOAuth.headers.get("ratelimit")).toMatch(/"default";r=\d+/)
    expect((await feed(`${PLATFORM}/latest-mac.yml`, bearer(tokens.access_token))).status).toBe(302)
  })

  it("publishing the same version again is refused without --force; --force replaces it", async () => {
    const before = (await manifest()).body
    const again = await publish(["--platform", PLATFORM, "--version", "1.2.3", "--notes", "Second try", v1.zip, v1.dmg])
    expect(again.code, again.output).toBe(1)
    expect(again.output).toMatch(/already published.*--force/)
    expect((await manifest()).body).toEqual(before)
    const forced = await publish([
      "--platform",
      PLATFORM,
      "--version",
      "1.2.3",
      "--notes",
      "Second try",
      "--force",
      "--json",
      v1.zip,
      v1.dmg,
      v1.blockmap
    ])
    expect(forced.code, forced.output).toBe(0)
    const printed = JSON.parse(forced.output.slice(forced.output.indexOf("{")))
    expect(printed).toMatchObject({
      platform: PLATFORM,
      version: "1.2.3",
      notes: "Second try",
      artifact: path.basename(v1.dmg)
    })
    expect((await manifest()).body).toMatchObject({ version: "1.2.3", notes: "Second try", sha256: before.sha256 })
  })

  it("a failed upload leaves the previous release as the latest", async () => {
    const blocker = storage === "local" ? path.join(dataDir, "files", PLATFORM, "1.3.0") : undefined
    // local: a file where the version's folder must go; S3: a bucket that does not exist
    if (blocker !== undefined) fs.writeFileSync(blocker, "not a folder")
    const failed = await publish(
      ["--platform", PLATFORM, "--version", "1.3.0", "--notes", "Broken", v2.zip, v2.dmg],
      storage === "s3" ? { S3_BUCKET: "no-such-bucket" } : {}
    )
    if (blocker !== undefined) fs.rmSync(blocker)
    expect(failed.code, failed.output).toBe(1)
    expect(failed.output).toMatch(/publish failed/)
    expect((await manifest()).body).toMatchObject({ version: "1.2.3" })
    expect((await downloadLink()).version).toBe("1.2.3")
    expect((await readFeed(`${base}/v1/desktop/updates/${PLATFORM}`, h)).info.version).toBe("1.2.3")
    expect((await feed(`${PLATFORM}/1.3.0/${encodeURIComponent(path.basename(v2.zip))}`)).status).toBe(404)
  })

  it("a newer release becomes the latest at once; the older one stays reachable in the feed", async () => {
    const r = await publish(["--platform", PLATFORM, "--version", "1.3.0", "--notes", "Second release", v2.zip, v2.dmg])
    expect(r.code, r.output).toBe(0)
    const dmg = v2.bytes(v2.dmg)
    expect((await manifest()).body).toMatchObject({
      version: "1.3.0",
      notes: "Second release",
      sha256: digests(dmg).sha256,
      sizeBytes: dmg.byteLength
    })
    const link = await downloadLink()
    expect(link.version).toBe("1.3.0")
    expect((await getUrl(link.url)).body.equals(dmg)).toBe(true)
    const updater = await readFeed(`${base}/v1/desktop/updates/${PLATFORM}`, h)
    expect(updater.info.version).toBe("1.3.0")
    expect((await updater.download(updater.zipForArm64!)).equals(v2.bytes(v2.zip))).toBe(true)
    expect((await feed(`${PLATFORM}/1.2.3/${encodeURIComponent(path.basename(v1.zip))}`)).status).toBe(302)
  })

  it("other platforms: the first file is the download, and there is no mac feed", async () => {
    const appImage = path.join(root, "Board-1.0.0.AppImage")
    fs.writeFileSync(appImage, "linux build")
    const r = await publish(["--platform", "linux-x64", "--version", "1.0.0", "--notes", "Linux", appImage])
    expect(r.code, r.output).toBe(0)
    expect((await manifest("?platform=linux-x64")).body).toMatchObject({ version: "1.0.0", sizeBytes: 11 })
    const link = (await call(base, "GET", "/v1/desktop/download?platform=linux-x64&redirect=false", { headers: h }))
      .body
    expect((await getUrl(link.url)).body.toString()).toBe("linux build")
    expect((await feed("linux-x64/latest-mac.yml")).status).toBe(404)
    expect((await manifest()).body.version).toBe("1.3.0")
  })

  it.runIf(hasScript && storage === "local")("on a terminal, publish draws a progress bar per file", async () => {
    const command = [
      process.execPath,
      ...SPAWNED_NODE_FLAGS,
      boardBin,
      "desktop",
      "publish",
      "--platform",
      "darwin-x64",
      "--version",
      "2.0.0",
      "--notes",
      "tty",
      v2.zip
    ]
      .map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`)
      .join(" ")
    const p = spawnProcess("script", ["-qec", command, "/dev/null"], {
      DATA_DIR: dataDir,
      DATABASE_URL: server.config.databaseUrl,
      REDIS_URL: undefined,
      ...storageEnv()
    })
    const { code } = await p.exited
    expect(code, p.output()).toBe(0)
    const screen = p.output()
    expect(screen).toMatch(/checksum Board-1\.3\.0-arm64-mac\.zip \[#{16}\] 100% 1\.0 MB\/1\.0 MB/)
    expect(screen).toMatch(/upload {3}Board-1\.3\.0-arm64-mac\.zip \[#{16}\] 100%/)
    expect((await manifest("?platform=darwin-x64")).body.version).toBe("2.0.0")
  })

  describe.runIf(storage === "local")("signed local links", () => {
    const keyOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice("/files/".length))
    const withParam = (url: string, name: string, value: string | undefined) => {
      const u = new URL(url)
      if (value === undefined) u.searchParams.delete(name)
      else u.searchParams.set(name, value)
      return u.href
    }

    it("a tampered link is 403 {error}: signature, expiry, another file, missing parts", async () => {
      const link = (await downloadLink()).url
      const u = new URL(link)
      const sig = u.searchParams.get("signature")!
      const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1)
      const zipUrl = (await feed(`${PLATFORM}/1.3.0/${encodeURIComponent(path.basename(v2.zip))}`)).headers.location!
      const otherFileSameSignature = withParam(zipUrl, "signature", sig)
      const cases = [
        withParam(link, "signature", flipped),
        withParam(link, "expires", String(Number(u.searchParams.get("expires")) + 1)),
        withParam(link, "expires", "99999999999"),
        otherFileSameSignature,
        withParam(link, "signature", undefined),
        withParam(link, "expires", undefined),
        `${link}&signature=${sig}`,
        link.replace("/files/darwin-arm64/", "/files/darwin-x64/")
      ]
      for (const url of cases) {
        const r = await getUrl(url)
        expect([url, r.status]).toEqual([url, 403])
        expect(r.json).toEqual({ error: expect.stringContaining("link") })
        expect(r.headers["cache-control"]).toBe("no-store")
      }
    })

    it("an expired link is 403 {error}", async () => {
      const link = (await downloadLink()).url
      const keys = await server.run(
        Effect.gen(function* () {
          return yield* ServerSecret
        })
      )
      const expired = `${origin}${signLocalLink(keys.downloads, keyOf(link), Math.floor(Date.now() / 1000) - 1)}`
      const r = await getUrl(expired)
      expect(r.status).toBe(403)
      expect(r.json).toEqual({ error: expect.stringContaining("expired") })
      // the same key with a future expiry is fine: the signature, not the path, decided
      const fresh = `${origin}${signLocalLink(keys.downloads, keyOf(link), Math.floor(Date.now() / 1000) + 60)}`
      expect((await getUrl(fresh)).status).toBe(200)
    })

    it("traversal and encoded separators are 404, whatever the signature", async () => {
      const link = new URL((await downloadLink()).url)
      const query = link.search
      for (const target of [
        `/files/${PLATFORM}/1.3.0/../../../secret${query}`,
        `/files/${PLATFORM}/1.3.0/..%2F..%2F..%2Fsecret${query}`,
        `/files/${PLATFORM}/%2e%2e/%2e%2e/secret${query}`,
        `/files/..%2Fsecret${query}`,
        `/files/${PLATFORM}/1.3.0/.upload-0000${query}`,
        `/files/a/b/c/d${query}`,
        `/files/${query}`
      ]) {
        const r = await rawGet(origin, target)
        expect([target, r.status]).toEqual([target, 404])
        expect(r.json).toEqual({ error: expect.any(String) })
      }
    })

    it("Range answers 206 with the exact Content-Length; the whole file has it too", async () => {
      const link = (await downloadLink()).url
      const dmg = v2.bytes(v2.dmg)
      const whole = await getUrl(link)
      expect(whole.status).toBe(200)
      expect(whole.headers["content-length"]).toBe(String(dmg.byteLength))
      expect(whole.headers["accept-ranges"]).toBe("bytes")
      expect(whole.headers["cache-control"]).toBe("no-store")
      const part = await getUrl(link, { range: "bytes=100-1123" })
      expect(part.status).toBe(206)
      expect(part.headers["content-length"]).toBe("1024")
      expect(part.headers["content-range"]).toBe(`bytes 100-1123/${dmg.byteLength}`)
      expect(part.body.equals(dmg.subarray(100, 1124))).toBe(true)
      const tail = await getUrl(link, { range: "bytes=-10" })
      expect(tail.status).toBe(206)
      expect(tail.body.equals(dmg.subarray(dmg.byteLength - 10))).toBe(true)
      const open = await getUrl(link, { range: `bytes=${dmg.byteLength - 5}-` })
      expect(open.headers["content-length"]).toBe("5")
      const beyond = await getUrl(link, { range: `bytes=${dmg.byteLength}-` })
      expect(beyond.status).toBe(416)
      expect(beyond.headers["content-range"]).toBe(`bytes */${dmg.byteLength}`)
      // a stale If-Range gets the whole (current) file
      const stale = await getUrl(link, { range: "bytes=0-9", "if-range": "Thu, 01 Jan 1970 00:00:00 GMT" })
      expect(stale.status).toBe(200)
      expect(stale.body.equals(dmg)).toBe(true)
    })

    it("the link is the credential: X-API-Key is neither needed nor looked at", async () => {
      const link = (await downloadLink()).url
      for (const headers of [{}, h, { "x-api-key": "svc_not_a_key" }, { authorization: "Bearer nonsense" }] as Array<
        Record<string, string>
      >) {
        const r = await getUrl(link, headers)
        expect(r.status).toBe(200)
      }
    })
  })

  describe.runIf(storage === "s3")("S3 links", () => {
    it("no local file route answers when S3 is the store", async () => {
      const link = (await downloadLink()).url
      const u = new URL(link)
      expect((await rawGet(origin, `/files${u.pathname.slice(u.pathname.indexOf("/", 1))}`)).status).toBe(404)
    })
  })
})

describe("desktop endpoints are rate limited", () => {
  let server: TestServer
  afterAll(() => server?.stop())

  it("spend the user's budget and answer 429 {error} with Retry-After when it runs out", async () => {
    server = await startServer("pglite", { RATE_LIMIT: "8/60s" })
    const a = await bootstrap(server.baseUrl, "limited")
    const statuses: Array<number> = []
    let last: Awaited<ReturnType<typeof call>> | undefined
    for (let i = 0; i < 12 && !statuses.includes(429); i++) {
      last = await call(server.baseUrl, "GET", i % 2 === 0 ? "/v1/desktop/releases/latest" : "/v1/desktop/download", {
        headers: key(a.apiKey)
      })
      statuses.push(last.status)
    }
    expect(statuses).toContain(404)
    expect(statuses.at(-1)).toBe(429)
    expect(last!.body).toEqual({ error: expect.stringContaining("rate limit") })
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0)
  })
})
