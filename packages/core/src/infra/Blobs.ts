/**
 * Where desktop build files live: an S3 (or S3-compatible) bucket when S3_BUCKET is set,
 * otherwise files under DATA_DIR/files. Either way a download is a short-lived signed link
 * the client fetches directly, so the bytes never pass through `/api`. Storage failures are
 * defects (DESIGN.md: infrastructure failures are not domain errors).
 */
import { Context, type Effect } from "effect"

export interface SignedLink {
  readonly url: string
  /** The link's real lifetime in seconds: DOWNLOAD_URL_TTL. */
  readonly expiresIn: number
}

export interface PutOptions {
  readonly size: number
  readonly contentType: string
  /** Bytes handed to storage so far. */
  readonly onProgress?: ((sent: number) => void) | undefined
}

/** Only the local store has these: the `/files` route serves them. */
export interface LocalFileStore {
  /** Absolute path of a stored key, or undefined when the key is not a safe storage key. */
  readonly pathOf: (key: string) => string | undefined
  /** Checks a link's signature and expiry (constant time). */
  readonly verify: (
    key: string,
    expires: string | undefined,
    signature: string | undefined,
    nowMs: number
  ) => "ok" | "expired" | "invalid"
}

export interface BlobStore {
  readonly kind: "local" | "s3"
  /** Stores a local file under `key`, replacing what was there in one step. */
  readonly putFile: (key: string, file: string, options: PutOptions) => Effect.Effect<void>
  readonly putBytes: (key: string, bytes: Uint8Array, contentType: string) => Effect.Effect<void>
  /** A GET link for `key` that expires after DOWNLOAD_URL_TTL. */
  readonly signedUrl: (key: string) => Effect.Effect<SignedLink>
  readonly local: LocalFileStore | undefined
}

/** The layers are in `BlobsLocal.ts`, `BlobsS3.ts`, and `BlobsLive.ts` picks one from the config. */
export class Blobs extends Context.Service<Blobs, BlobStore>()("board/core/Blobs") {}
