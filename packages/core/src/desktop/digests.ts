/** Both digests of a file in one streaming pass: SHA-256 (hex, the JSON manifest) and SHA-512 (base64, the update feed). */
import { Effect } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"

export interface FileDigests {
  readonly sha256: string
  readonly sha512: string
  readonly size: number
}

export const digestBytes = (bytes: Uint8Array): FileDigests => ({
  sha256: crypto.createHash("sha256").update(bytes).digest("hex"),
  sha512: crypto.createHash("sha512").update(bytes).digest("base64"),
  size: bytes.byteLength
})

/** A read failure is a defect: the file was checked to be a readable regular file just before. */
export const digestFile = (file: string, onProgress?: (bytesRead: number) => void) =>
  Effect.callback<FileDigests>((resume) => {
    const sha256 = crypto.createHash("sha256")
    const sha512 = crypto.createHash("sha512")
    let size = 0
    const stream = fs.createReadStream(file, { highWaterMark: 1024 * 1024 })
    stream.on("data", (chunk) => {
      const bytes = chunk as Buffer
      sha256.update(bytes)
      sha512.update(bytes)
      size += bytes.byteLength
      onProgress?.(size)
    })
    stream.once("error", (e) => resume(Effect.die(e)))
    stream.once("end", () =>
      resume(Effect.succeed({ sha256: sha256.digest("hex"), sha512: sha512.digest("base64"), size }))
    )
    return Effect.sync(() => stream.destroy())
  })
