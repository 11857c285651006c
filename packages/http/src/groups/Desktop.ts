/**
 * SPEC.md's "Desktop builds": the manifest, the signed download redirect and the
 * electron-updater feed. All take an API key or an OAuth token and spend the user's budget.
 */
import { Timestamp } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters, doc } from "../schemas.ts"

// SPEC.md: a bare X.Y.Z version and a digest of 64 lowercase hex characters
const Version = Schema.String.check(Schema.isPattern(/^[0-9]+\.[0-9]+\.[0-9]+$/u))
const Sha256 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/u))

export const DesktopManifest = Schema.Struct({
  version: Version,
  notes: Schema.String,
  sha256: Sha256,
  sizeBytes: Schema.Int,
  publishedAt: Timestamp
}).annotate({ identifier: "DesktopManifest", description: "The latest desktop build of a platform (no download URL)." })

export const DesktopDownload = Schema.Struct({
  url: Schema.String.annotate({ format: "uri" }),
  expiresIn: Schema.Int,
  version: Version,
  sha256: Sha256,
  sizeBytes: Schema.Int
}).annotate({
  identifier: "DesktopDownload",
  description: "A short-lived signed URL of the latest build's main artifact."
})

const Platform = Schema.optionalKey(
  Schema.String.annotate({ description: "Lowercase letters, digits, - and _; default darwin-arm64." })
)

// SPEC.md: a platform is lowercase letters, digits, - and _. Any other name is not refused as
// malformed: nothing can be published for it, so it answers 404 like an unpublished one.
const platformShape = documentParameters({ merge: { platform: { pattern: "^[a-z0-9_-]+$" } } })

/** A 302 to a short-lived signed URL; `Location` holds a credential, so it is never cached. */
const Redirect = HttpApiSchema.Empty(302).annotate({
  description: "Location: a short-lived signed URL (Cache-Control: no-store)."
})

export class DesktopGroup extends HttpApiGroup.make("desktop")
  .add(
    HttpApiEndpoint.get("latestRelease", "/v1/desktop/releases/latest", {
      query: { platform: Platform },
      success: DesktopManifest,
      error: NotFound
    })
      .annotateMerge(
        doc(
          "Get the latest desktop release",
          "The JSON manifest of the platform's latest build (default `darwin-arm64`). It has no download URL: the bytes come from the download endpoint. Desktop clients poll it at launch and every 24 hours."
        )
      )
      .annotate(OpenApi.Transform, platformShape)
  )
  .add(
    HttpApiEndpoint.get("download", "/v1/desktop/download", {
      query: {
        platform: Platform,
        redirect: Schema.optionalKey(Schema.Literal("false").annotate({ message: "the only allowed value is false" }))
      },
      success: [Redirect, DesktopDownload],
      error: NotFound
    })
      .annotateMerge(
        doc(
          "Download the latest desktop build",
          "A 302 to a short-lived signed URL of the latest build's main artifact; with `redirect=false`, 200 with that URL and its digest as JSON. The bytes never pass through the API."
        )
      )
      .annotate(OpenApi.Transform, platformShape)
  )
  // The electron-updater feed, documented as its two real shapes so a generated client can call
  // both (a path parameter cannot hold the `/` of `<version>/<artifact>`). Each is answered from
  // the raw path (FindMyWay decodes `%2F` and `%2e` before matching), by the same core rule.
  .add(
    HttpApiEndpoint.get("updateFeedChannel", "/v1/desktop/updates/:platform/latest-mac.yml", {
      params: { platform: Schema.String },
      success: Redirect,
      error: NotFound
    })
      .annotate(OpenApi.Transform, platformShape)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Get the update channel file",
          description:
            "The electron-updater channel file of the platform's latest release: a 302 to a short-lived signed URL of its `latest-mac.yml`. Point electron-updater's generic provider at `/api/v1/desktop/updates/{platform}`. 404 when the platform has no release with a feed."
        })
      )
  )
  .add(
    HttpApiEndpoint.get("updateFeedFile", "/v1/desktop/updates/:platform/:version/:artifact", {
      params: { platform: Schema.String, version: Schema.String, artifact: Schema.String },
      success: Redirect,
      error: NotFound
    })
      .annotate(
        OpenApi.Transform,
        documentParameters({
          merge: {
            platform: { pattern: "^[a-z0-9_-]+$" },
            version: { pattern: "^[0-9]+\\.[0-9]+\\.[0-9]+$" },
            artifact: { pattern: "\\.(yml|zip|blockmap|dmg)$" }
          }
        })
      )
      .annotateMerge(
        OpenApi.annotations({
          summary: "Get a file of a release",
          description:
            "A file of any published release of the platform (differential downloads fetch an older release's `.blockmap`): a 302 to a short-lived signed URL. `artifact` must end .yml, .zip, .blockmap or .dmg and be one of the release's files; anything else is 404."
        })
      )
  )
  // Every other path below the feed (deeper, or another file name) answers as before: 401
  // without a credential, 405 for another method, 404 otherwise. Not a documented operation.
  .add(
    HttpApiEndpoint.get("updateFeedOther", "/v1/desktop/updates/:platform/*", {
      params: { platform: Schema.String },
      success: Redirect,
      error: NotFound
    }).annotate(OpenApi.Exclude, true)
  )
  .middleware(UserAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Desktop builds",
      description:
        "The JSON manifest of the latest build, a signed download, and the electron-updater feed. The bytes never pass through /api."
    })
  ) {}
