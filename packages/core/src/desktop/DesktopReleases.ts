/**
 * Desktop releases: the JSON manifest of the latest release per platform, the signed link to
 * its main artifact, the update feed's subtree, and publishing. Every answer is read from the
 * database at request time, so a release published by `board desktop publish` (in another
 * process) is served at once.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Conflict, type InvalidInput, NotFound } from "../domain/errors.ts"
import { Blobs, type SignedLink } from "../infra/Blobs.ts"
import { iso } from "../board/rows.ts"
import { type PublishedRelease, type PublishInput, publishRelease, type ReleaseFile } from "./publish.ts"
import { CHANNEL_FILE, DEFAULT_PLATFORM, isPlatform, parseFeedPath, releaseKey } from "./releaseRules.ts"

/** SPEC.md's manifest: no download URL (the bytes come from the download endpoint). */
export interface DesktopManifest {
  readonly version: string
  readonly notes: string
  readonly sha256: string
  readonly sizeBytes: number
  readonly publishedAt: string
}

export interface DesktopDownload extends SignedLink {
  readonly version: string
  readonly sha256: string
  readonly sizeBytes: number
}

type Row = {
  platform: string
  version: string
  notes: string
  artifact: string
  sha256: string
  size_bytes: number
  files: ReadonlyArray<ReleaseFile> | string
  has_feed: boolean
  published_at: Date
}

const manifestOf = (r: Row): DesktopManifest => ({
  version: r.version,
  notes: r.notes,
  sha256: r.sha256,
  sizeBytes: Number(r.size_bytes),
  publishedAt: iso(r.published_at)
})

const filesOf = (r: Row): ReadonlyArray<ReleaseFile> => (typeof r.files === "string" ? JSON.parse(r.files) : r.files)

const nothingFor = (platform: string) =>
  new NotFound({ message: `no desktop release is published for platform ${JSON.stringify(platform.slice(0, 64))}` })

const notInFeed = () => new NotFound({ message: "no such file in the update feed" })

export class DesktopReleases extends Context.Service<
  DesktopReleases,
  {
    /** The latest release of `platform` (default darwin-arm64). */
    readonly latest: (platform: string | undefined) => Effect.Effect<DesktopManifest, NotFound>
    /** A signed link to the latest release's main artifact. */
    readonly download: (platform: string | undefined) => Effect.Effect<DesktopDownload, NotFound>
    /** A signed link for a feed path (raw, percent-encoded, below `/v1/desktop/updates/`). */
    readonly feed: (rawPath: string) => Effect.Effect<SignedLink, NotFound>
    readonly publish: (input: PublishInput) => Effect.Effect<PublishedRelease, InvalidInput | Conflict>
  }
>()("board/core/DesktopReleases") {
  /** Needs Blobs (see `infra/BlobsLive.ts`) and the SQL client. */
  static readonly layer = Layer.effect(
    DesktopReleases,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const blobs = yield* Blobs
      const columns = sql.literal(
        "platform, version, notes, artifact, sha256, size_bytes::float8 AS size_bytes, files, has_feed, published_at"
      )

      const latestRow = (platform: string) =>
        sql<Row>`SELECT ${columns} FROM desktop_releases WHERE platform = ${platform} ORDER BY publish_order DESC LIMIT 1`.pipe(
          Effect.orDie,
          Effect.flatMap(([row]) => (row === undefined ? Effect.fail(nothingFor(platform)) : Effect.succeed(row)))
        )

      const resolvePlatform = (platform: string | undefined) => {
        const p = platform ?? DEFAULT_PLATFORM
        return isPlatform(p) ? Effect.succeed(p) : Effect.fail(nothingFor(p))
      }

      const latest = Effect.fn("DesktopReleases.latest")(function* (platform: string | undefined) {
        return manifestOf(yield* latestRow(yield* resolvePlatform(platform)))
      })

      const download = Effect.fn("DesktopReleases.download")(function* (platform: string | undefined) {
        const row = yield* latestRow(yield* resolvePlatform(platform))
        const link = yield* blobs.signedUrl(releaseKey(row.platform, row.version, row.artifact))
        return { ...link, version: row.version, sha256: row.sha256, sizeBytes: Number(row.size_bytes) }
      })

      const feed = Effect.fn("DesktopReleases.feed")(function* (rawPath: string) {
        const target = parseFeedPath(rawPath)
        if (target === undefined) return yield* notInFeed()
        if (target.kind === "channel") {
          const row = yield* latestRow(target.platform).pipe(Effect.mapError(notInFeed))
          if (!row.has_feed) return yield* notInFeed()
          return yield* blobs.signedUrl(releaseKey(row.platform, row.version, CHANNEL_FILE))
        }
        const [row] = yield* sql<Row>`
          SELECT ${columns} FROM desktop_releases WHERE platform = ${target.platform} AND version = ${target.version}`.pipe(
          Effect.orDie
        )
        if (row === undefined) return yield* notInFeed()
        const known = filesOf(row).some((f) => f.name === target.file) || (row.has_feed && target.file === CHANNEL_FILE)
        if (!known) return yield* notInFeed()
        return yield* blobs.signedUrl(releaseKey(target.platform, target.version, target.file))
      })

      const publish = (input: PublishInput) =>
        publishRelease(blobs, input).pipe(Effect.provideService(SqlClient.SqlClient, sql))

      return DesktopReleases.of({ latest, download, feed, publish })
    })
  )
}
