/**
 * Single sign-on on the wire (the rules are the core's, core/src/auth/Oidc.ts; docs/sso.md), at
 * the origin's root beside /oauth, outside /api: browsers navigate here, no client calls it.
 * - `GET /auth/oidc/start?next=/p/…`: sets the flow cookie (HttpOnly, SameSite=Lax, 10 minutes)
 *   and sends the browser to the provider;
 * - `GET /auth/oidc/callback`: the provider sends the browser back here (the redirect URI to
 *   register: PUBLIC_URL/auth/oidc/callback); on success the same web session as a password
 *   sign-in (`board_session` + `board_csrf`, middleware/webSession.ts) and a 303 to `next`; on a
 *   refusal a page saying why and what to do, with a link back to the sign-in page.
 * Both are requests without a credential: the client address's budget is charged, as for login.
 */
import { AppConfig, Oidc, type OidcRefused, RateBudget, WebSessions } from "@board/core"
import { Effect, Layer } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { escapeHtml } from "../html.ts"
import { clientAddress } from "../middleware/budget.ts"
import { setSessionCookies, webCookiesFor } from "../middleware/webSession.ts"
import { noStore, page } from "../oauth/responses.ts"

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:1rem;color:#1a1a1a;background:#fff;overflow-wrap:anywhere}
main{max-width:32rem;margin:2rem auto}h1{font-size:1.5rem;line-height:1.25;margin:0 0 1rem}
.error{color:#a00;border:1px solid #a00;border-radius:4px;padding:.5rem .75rem}
a.button{display:inline-block;margin-top:1rem;padding:.5rem 1.25rem;border-radius:4px;background:#1a56db;color:#fff;text-decoration:none}`

export const renderSsoRefusal = (provider: string, message: string): string =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign-in with ${escapeHtml(provider)} did not complete — Board</title>
<style>${STYLE}</style>
</head><body><main>
<h1>Sign-in with ${escapeHtml(provider)} did not complete</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<a class="button" href="/signin">Back to sign in</a>
</main></body></html>`

export const OidcRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const oidc = yield* Oidc
    const [provider] = oidc.providers
    // without OIDC_ISSUER the paths do not exist (404 like any unknown path)
    if (provider === undefined) return
    const router = yield* HttpRouter.HttpRouter
    const webSessions = yield* WebSessions
    const budget = yield* RateBudget
    const config = yield* AppConfig
    const cookies = webCookiesFor(config.publicUrl)
    const flowCookie = cookies.secure ? "__Host-board_oidc" : "board_oidc"
    const flowAttributes = { httpOnly: true, secure: cookies.secure, sameSite: "lax" as const, path: "/" }

    const refusal = (e: OidcRefused) =>
      HttpServerResponse.expireCookieUnsafe(
        page(e.status, renderSsoRefusal(provider.name, e.message)),
        flowCookie,
        flowAttributes
      )

    const limited = <R>(
      request: HttpServerRequest.HttpServerRequest,
      self: Effect.Effect<HttpServerResponse.HttpServerResponse, OidcRefused, R>
    ) =>
      budget.charge(`ip:${clientAddress(request)}`).pipe(
        Effect.matchEffect({
          onFailure: (e) =>
            Effect.succeed(
              HttpServerResponse.setHeader(
                page(
                  429,
                  renderSsoRefusal(provider.name, `Too many sign-in attempts from your address: ${e.message}.`)
                ),
                "retry-after",
                String(e.retryAfterSeconds)
              )
            ),
          onSuccess: () => self
        }),
        // the person sees the page; the operator needs to know when the provider itself fails
        Effect.catchTag("OidcRefused", (e) =>
          e.status === 502
            ? Effect.as(Effect.logWarning(`single sign-on: ${e.message}`), refusal(e))
            : Effect.succeed(refusal(e))
        )
      )

    const start = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const next = new URL(request.url, config.publicUrl).searchParams.get("next") ?? undefined
        const started = yield* oidc.start(next)
        return HttpServerResponse.redirect(started.location, { status: 303, headers: noStore }).pipe(
          HttpServerResponse.setCookieUnsafe(flowCookie, started.flow, {
            ...flowAttributes,
            maxAge: `${started.maxAgeSeconds} seconds`
          })
        )
      })

    const callback = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const query = new URL(request.url, config.publicUrl).search
        const signedIn = yield* oidc.finish({ query, flow: request.cookies[flowCookie] })
        yield* setSessionCookies(cookies, yield* webSessions.open(signedIn.userId))
        return HttpServerResponse.expireCookieUnsafe(
          HttpServerResponse.redirect(`${config.publicUrl}${signedIn.next}`, { status: 303, headers: noStore }),
          flowCookie,
          flowAttributes
        )
      })

    yield* router.add("GET", "/auth/oidc/start", (request) => limited(request, start(request)))
    yield* router.add("GET", "/auth/oidc/callback", (request) => limited(request, callback(request)))
  })
)
