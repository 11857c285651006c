/**
 * SPEC.md's "Desktop builds": the manifest, the signed download redirect and the
 * electron-updater feed. All take an API key or an OAuth token and spend the user's budget.
 */
import { Timestamp } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters } from "../schemas.ts"

// SPEC.md: a bare X.Y.Z version and a digest of 64 lowercase hex characters
const Version = Schema.String.check(Schema.isPattern(/^[0-9]+\.[0-9]+\.[0-9]+$/u))
const Sha256 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/u))

export const DesktopManifest = Schema.Struct({
  version: Version,
  notes: Schema.String,
  sha256: Sha256,
  sizeBytes: Schema.Int,
  publishedAt: Timestamp
})

export const DesktopDownload = Schema.Struct({
  url: Schema.String.annotate({ format: "uri" }),
  expiresIn: Schema.Int,
  version: Version,
  sha256: Sha256,
  sizeBytes: Schema.Int
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
    }).annotate(OpenApi.Transform, platformShape)
  )
  .add(
    HttpApiEndpoint.get("download", "/v1/desktop/download", {
      query: {
        platform: Platform,
        redirect: Schema.optionalKey(Schema.Literal("false").annotate({ message: "the only allowed value is false" }))
      },
      success: [Redirect, DesktopDownload],
      error: NotFound
    }).annotate(OpenApi.Transform, platformShape)
  )
  // `{file}` is `latest-mac.yml` or `<version>/<artifact>`: two segments deep, so the route is a
  // wildcard and the core reads the raw path (FindMyWay decodes `%2F` and `%2e` before matching)
  .add(
    HttpApiEndpoint.get("updateFeed", "/v1/desktop/updates/:platform/*", {
      params: { platform: Schema.String },
      success: Redirect,
      error: NotFound
    })
      .annotate(OpenApi.Transform, platformShape)
      .annotate(
        OpenApi.Description,
        "`{platform}` is lowercase letters, digits, - and _; the rest of the path, `{file}`, is `latest-mac.yml` or `<version>/<artifact>` ending .yml, .zip, .blockmap or .dmg; anything else is 404."
      )
  )
  .middleware(UserAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Desktop builds",
      description:
        "The JSON manifest of the latest build, a signed download, and the electron-updater feed. The bytes never pass through /api."
    })
  ) {}
