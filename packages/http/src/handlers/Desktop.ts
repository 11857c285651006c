import { DesktopReleases } from "@board/core"
import { Effect } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { orHttpError } from "../errors.ts"

/** The path below this prefix is handed to the core raw (still percent-encoded). */
const FEED_PREFIX = "/api/v1/desktop/updates/"

const redirect = (url: string) =>
  HttpServerResponse.redirect(url, { status: 302, headers: { "cache-control": "no-store" } })

export const DesktopHandlers = HttpApiBuilder.group(Api, "desktop", (handlers) =>
  Effect.gen(function* () {
    const releases = yield* DesktopReleases
    // every feed route: the core reads the raw target (the router has already decoded `%2F` and
    // `%2e`, which must not resolve), so all of them answer by one rule
    const feed = ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) => {
      const target = request.url.split("?")[0]!
      const raw = target.startsWith(FEED_PREFIX) ? target.slice(FEED_PREFIX.length) : ""
      return releases.feed(raw).pipe(
        Effect.map((link) => redirect(link.url)),
        orHttpError
      )
    }
    return handlers
      .handle("latestRelease", ({ query }) => releases.latest(query.platform).pipe(orHttpError))
      .handle("download", ({ query }) =>
        releases.download(query.platform).pipe(
          Effect.map((link) =>
            query.redirect === "false"
              ? HttpServerResponse.jsonUnsafe(link, { headers: { "cache-control": "no-store" } })
              : redirect(link.url)
          ),
          orHttpError
        )
      )
      .handle("updateFeedChannel", feed)
      .handle("updateFeedFile", feed)
      .handle("updateFeedOther", feed)
  })
)
