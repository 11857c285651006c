/**
 * The default build store: files under DATA_DIR/files (a temporary folder for `memory:`),
 * served by this process at `/files/<key>?expires=…&signature=…`, outside `/api`. A link is
 * HMAC-SHA-256 over method, path and expiry with the `downloads` key derived from SECRET, so
 * it names one file for a limited time and cannot be altered into another.
 */
import { Clock, Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Transform } from "node:stream"
import { pipeline } from "node:stream/promises"
import { AppConfig } from "../Config.ts"
import { isBlobKey } from "../desktop/releaseRules.ts"
import { Blobs, type LocalFileStore, type PutOptions } from "./Blobs.ts"
import { ServerSecret } from "./Secret.ts"

/** The route prefix of signed local links. */
export const FILES_PREFIX = "/files/"

export const localLinkPath = (key: string): string => FILES_PREFIX + key.split("/").map(encodeURIComponent).join("/")

const mac = (secret: Uint8Array, key: string, expires: string): Buffer =>
  crypto.createHmac("sha256", secret).update(`GET\n${FILES_PREFIX}${key}\n${expires}`).digest()

export const signLocalLink = (secret: Uint8Array, key: string, expiresAtSeconds: number): string => {
  const expires = String(expiresAtSeconds)
  return `${localLinkPath(key)}?expires=${expires}&signature=${mac(secret, key, expires).toString("base64url")}`
}

export const verifyLocalLink = (
  secret: Uint8Array,
  key: string,
  expires: string | undefined,
  signature: string | undefined,
  nowMs: number
): "ok" | "expired" | "invalid" => {
  if (
    expires === undefined ||
    signature === undefined ||
    !/^\d{1,12}$/.test(expires) ||
    !/^[A-Za-z0-9_-]{43}$/.test(signature)
  ) {
    return "invalid"
  }
  const given = Buffer.from(signature, "base64url")
  const expected = mac(secret, key, expires)
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return "invalid"
  return nowMs > Number(expires) * 1000 ? "expired" : "ok"
}

/** `memory:` gets a private temporary folder, made on the first upload and removed with the layer. */
const filesRoot = (dataDir: string) =>
  dataDir === "memory:"
    ? Effect.acquireRelease(
        Effect.sync(() =>
          path.join(os.tmpdir(), `board-files-${process.pid}-${crypto.randomBytes(6).toString("hex")}`)
        ),
        (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
      )
    : Effect.succeed(path.resolve(dataDir, "files"))

/** Writes into a hidden staging file beside the target, then renames: readers see old or new, never half. */
const writeAtomically = (target: string, write: (staging: string) => Promise<void>) =>
  Effect.tryPromise({
    try: async () => {
      await fs.promises.mkdir(path.dirname(target), { recursive: true })
      const staging = path.join(path.dirname(target), `.upload-${crypto.randomBytes(8).toString("hex")}`)
      try {
        await write(staging)
        await fs.promises.rename(staging, target)
      } catch (e) {
        await fs.promises.rm(staging, { force: true })
        throw e
      }
    },
    catch: (cause) => new Error(`cannot store ${target}: ${cause instanceof Error ? cause.message : String(cause)}`)
  }).pipe(Effect.orDie)

export const layerLocal = Layer.effect(
  Blobs,
  Effect.gen(function* () {
    const config = yield* AppConfig
    const keys = yield* ServerSecret
    const root = yield* filesRoot(config.dataDir)
    const ttl = config.downloadUrlTtlSeconds

    const pathOf = (key: string): string | undefined => {
      if (!isBlobKey(key)) return undefined
      const full = path.join(root, ...key.split("/"))
      return full.startsWith(root + path.sep) ? full : undefined
    }
    const target = (key: string): string => {
      const full = pathOf(key)
      if (full === undefined) throw new Error(`not a storage key: ${JSON.stringify(key)}`)
      return full
    }

    const putFile = (key: string, file: string, options: PutOptions) =>
      Effect.suspend(() =>
        writeAtomically(target(key), async (staging) => {
          let sent = 0
          const counter = new Transform({
            transform(chunk: Buffer, _enc, done) {
              sent += chunk.byteLength
              options.onProgress?.(sent)
              done(null, chunk)
            }
          })
          await pipeline(
            fs.createReadStream(file),
            counter,
            fs.createWriteStream(staging, { flags: "wx", mode: 0o644 })
          )
        })
      )

    const putBytes = (key: string, bytes: Uint8Array, _contentType: string) =>
      Effect.suspend(() =>
        writeAtomically(target(key), (staging) => fs.promises.writeFile(staging, bytes, { flag: "wx", mode: 0o644 }))
      )

    const signedUrl = Effect.fn("Blobs.signedUrl")(function* (key: string) {
      const now = yield* Clock.currentTimeMillis
      // rounded up, so the link lives at least `ttl` seconds: expiresIn states the truth
      const expiresAt = Math.ceil(now / 1000) + ttl
      return { url: `${config.publicUrl}${signLocalLink(keys.downloads, key, expiresAt)}`, expiresIn: ttl }
    })

    const local: LocalFileStore = {
      pathOf,
      verify: (key, expires, signature, nowMs) => verifyLocalLink(keys.downloads, key, expires, signature, nowMs)
    }
    return Blobs.of({ kind: "local", putFile, putBytes, signedUrl, local })
  })
)
