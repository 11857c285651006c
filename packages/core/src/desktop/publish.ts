/**
 * Publishing a desktop release: check everything, hash, upload every file to
 * `<platform>/<version>/<file>` (and, for darwin, that version's `latest-mac.yml`), and only
 * then record the release in one statement. Until that statement commits, nothing readers
 * see has changed, so a failed upload leaves the previous release as the latest.
 */
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as fs from "node:fs"
import * as path from "node:path"
import { Conflict, InvalidInput } from "../domain/errors.ts"
import type { BlobStore } from "../infra/Blobs.ts"
import { digestFile } from "./digests.ts"
import {
  CHANNEL_FILE,
  contentTypeOf,
  DARWIN_EXTENSIONS,
  extensionOf,
  isArtifactName,
  isDarwin,
  isPlatform,
  isVersion,
  releaseKey
} from "./releaseRules.ts"
import { renderUpdateInfo } from "./updateInfo.ts"

export const NOTES_MAX = 10_000

export interface PublishProgress {
  readonly phase: "hash" | "upload"
  readonly file: string
  /** Bytes of this file done so far. */
  readonly done: number
  readonly total: number
}

export interface PublishInput {
  readonly platform: string
  readonly version: string
  readonly notes: string
  readonly files: ReadonlyArray<string>
  readonly force?: boolean | undefined
  readonly onProgress?: ((progress: PublishProgress) => void) | undefined
}

export interface ReleaseFile {
  readonly name: string
  readonly sha256: string
  readonly sha512: string
  readonly size: number
}

export interface PublishedRelease {
  readonly platform: string
  readonly version: string
  readonly notes: string
  readonly sha256: string
  readonly sizeBytes: number
  readonly publishedAt: string
  /** The file the download endpoint serves. */
  readonly artifact: string
  readonly files: ReadonlyArray<ReleaseFile>
  /** Storage key of this release's `latest-mac.yml`, for darwin platforms. */
  readonly feed: string | null
}

const invalid = (message: string) => Effect.fail(new InvalidInput({ message }))

/** darwin: the dmg people download, else the zip; elsewhere the first file given. */
const mainArtifact = (platform: string, names: ReadonlyArray<string>): string =>
  isDarwin(platform)
    ? (names.find((n) => extensionOf(n) === ".dmg") ?? names.find((n) => extensionOf(n) === ".zip")!)
    : (names.find((n) => extensionOf(n) !== ".blockmap") ?? names[0]!)

/** Everything that can be refused before touching the database or storage. */
export const checkPublishInput = Effect.fnUntraced(function* (input: PublishInput) {
  if (!isPlatform(input.platform)) {
    return yield* invalid(
      `--platform must be lowercase letters, digits, - and _ (e.g. darwin-arm64), got ${JSON.stringify(input.platform)}`
    )
  }
  if (!isVersion(input.version)) {
    return yield* invalid(
      `--version must be three dot-separated whole numbers like 1.2.3: no "v" prefix, no spaces, no fourth part; got ${JSON.stringify(input.version)}`
    )
  }
  if (input.notes.trim() === "") return yield* invalid("--notes must not be empty")
  if (input.notes.length > NOTES_MAX) return yield* invalid(`--notes must be at most ${NOTES_MAX} characters`)
  if (input.files.length === 0) return yield* invalid("give at least one file to publish")
  const darwin = isDarwin(input.platform)
  const files: Array<{ path: string; name: string; size: number }> = []
  for (const file of input.files) {
    const name = path.basename(file)
    const stat = yield* Effect.sync(() => fs.statSync(file, { throwIfNoEntry: false }))
    if (stat === undefined || !stat.isFile()) return yield* invalid(`${file}: no such file`)
    yield* Effect.try({
      try: () => fs.accessSync(file, fs.constants.R_OK),
      catch: () => new InvalidInput({ message: `${file}: not readable` })
    })
    if (!isArtifactName(name)) {
      return yield* invalid(
        `${name}: file names may hold letters, digits, spaces, ".", "_" and "-", and must not start with "." or a space`
      )
    }
    if (files.some((f) => f.name === name)) return yield* invalid(`${name} is given twice`)
    if (darwin && !(DARWIN_EXTENSIONS as ReadonlyArray<string>).includes(extensionOf(name))) {
      return yield* invalid(`${name}: a ${input.platform} release takes .zip, .dmg and .blockmap files`)
    }
    if (darwin && name === CHANNEL_FILE) return yield* invalid(`${CHANNEL_FILE} is written by publish itself`)
    files.push({ path: file, name, size: stat.size })
  }
  if (darwin && !files.some((f) => extensionOf(f.name) === ".zip")) {
    return yield* invalid(
      `a ${input.platform} release needs a .zip: macOS updates install from it (a .dmg is optional)`
    )
  }
  return files
})

export const publishRelease = Effect.fnUntraced(function* (blobs: BlobStore, input: PublishInput) {
  const sql = yield* SqlClient.SqlClient
  const files = yield* checkPublishInput(input)
  const { platform, version } = input
  const force = input.force === true
  const alreadyThere = (publishedAt: Date | string) =>
    new Conflict({
      message: `version ${version} of ${platform} was already published on ${new Date(publishedAt).toISOString()}; pass --force to replace it`
    })
  const [existing] = yield* sql<{ published_at: Date }>`
    SELECT published_at FROM desktop_releases WHERE platform = ${platform} AND version = ${version}`.pipe(Effect.orDie)
  if (existing !== undefined && !force) return yield* alreadyThere(existing.published_at)

  const digested: Array<ReleaseFile> = []
  for (const f of files) {
    const d = yield* digestFile(f.path, (done) =>
      input.onProgress?.({ phase: "hash", file: f.name, done, total: f.size })
    )
    digested.push({ name: f.name, sha256: d.sha256, sha512: d.sha512, size: d.size })
  }
  for (const f of files) {
    yield* blobs.putFile(releaseKey(platform, version, f.name), f.path, {
      size: f.size,
      contentType: contentTypeOf(f.name),
      onProgress: (done) => input.onProgress?.({ phase: "upload", file: f.name, done, total: f.size })
    })
  }
  const publishedAt = new Date(yield* Clock.currentTimeMillis)
  const feed = isDarwin(platform) ? releaseKey(platform, version, CHANNEL_FILE) : null
  if (feed !== null) {
    const yml = renderUpdateInfo({
      version,
      files: digested,
      releaseDate: publishedAt.toISOString(),
      releaseNotes: input.notes
    })
    yield* blobs.putBytes(feed, new TextEncoder().encode(yml), contentTypeOf(CHANNEL_FILE))
  }

  const artifact = mainArtifact(
    platform,
    digested.map((f) => f.name)
  )
  const main = digested.find((f) => f.name === artifact)!
  // one statement: a concurrent publish of the same version without --force meets the constraint
  const written = yield* sql<{ id: string }>`
    INSERT INTO desktop_releases (platform, version, notes, artifact, sha256, sha512, size_bytes, files, has_feed, published_at,
      created_at, updated_at)
    VALUES (${platform}, ${version}, ${input.notes}, ${artifact}, ${main.sha256}, ${main.sha512}, ${main.size},
            ${JSON.stringify(digested)}::jsonb, ${feed !== null}, ${publishedAt}, ${publishedAt}, ${publishedAt})
    ON CONFLICT (platform, version) DO UPDATE SET
      notes = EXCLUDED.notes, artifact = EXCLUDED.artifact, sha256 = EXCLUDED.sha256, sha512 = EXCLUDED.sha512,
      size_bytes = EXCLUDED.size_bytes, files = EXCLUDED.files, has_feed = EXCLUDED.has_feed,
      published_at = EXCLUDED.published_at, publish_order = nextval('desktop_release_order'), updated_at = EXCLUDED.updated_at
    WHERE ${force}
    RETURNING id`.pipe(Effect.orDie)
  if (written.length === 0) return yield* alreadyThere(publishedAt)

  const release: PublishedRelease = {
    platform,
    version,
    notes: input.notes,
    sha256: main.sha256,
    sizeBytes: main.size,
    publishedAt: publishedAt.toISOString(),
    artifact,
    files: digested,
    feed
  }
  return release
})
