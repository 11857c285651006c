/**
 * The web board's session on the wire (issue 21; the rules are the core's, auth/WebSessions.ts):
 * two cookies, set by login and signup when the request comes from the app's own origin
 * (PUBLIC_URL's origin) and cleared by sign out:
 * - `board_session`: the session's secret; HttpOnly, so the app's script never holds it;
 * - `board_csrf`: the session's CSRF token, readable by the app, which echoes it in
 *   X-CSRF-Token on every change (a page of another origin cannot read it).
 * Both are SameSite=Lax and Path=/; on https they are Secure and carry the `__Host-` prefix
 * (no Domain attribute, so no subdomain can set or read them).
 */
import type { BrowserCredential, OpenedWebSession } from "@board/core"
import { Effect } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"

export interface WebCookies {
  readonly session: string
  readonly csrf: string
  readonly secure: boolean
  /** PUBLIC_URL's origin: the app's, and the only one the cookie is accepted from. */
  readonly appOrigin: string
}

export const webCookiesFor = (publicUrl: string): WebCookies => {
  const url = new URL(publicUrl)
  const secure = url.protocol === "https:"
  return {
    session: secure ? "__Host-board_session" : "board_session",
    csrf: secure ? "__Host-board_csrf" : "board_csrf",
    secure,
    appOrigin: url.origin
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"])

/** Where a request says it comes from (see BrowserCredential.site). */
export const siteOf = (request: HttpServerRequest.HttpServerRequest, appOrigin: string): BrowserCredential["site"] => {
  const origin = request.headers.origin
  if (origin !== undefined && origin !== "") return origin === appOrigin ? "app" : "elsewhere"
  const fetchSite = request.headers["sec-fetch-site"]
  if (fetchSite === "same-origin") return "app"
  // `none` is a person opening the URL themselves (a read); anything else is another site
  if (fetchSite === undefined || fetchSite === "" || fetchSite === "none") return "unstated"
  return "elsewhere"
}

/** Whether the request comes from the app itself: login and signup open a web session only then. */
export const fromApp = (request: HttpServerRequest.HttpServerRequest, cookies: WebCookies): boolean =>
  request.headers.origin === cookies.appOrigin

/** The session cookie with what the request says about itself, or nothing without the cookie. */
export const browserCredential = (
  request: HttpServerRequest.HttpServerRequest,
  cookies: WebCookies
): BrowserCredential | undefined => {
  const session = request.cookies[cookies.session]
  if (session === undefined || session === "") return undefined
  const csrf = request.headers["x-csrf-token"]
  return {
    session,
    csrfToken: csrf === undefined || csrf === "" ? undefined : csrf,
    stateChanging: !SAFE_METHODS.has(request.method),
    site: siteOf(request, cookies.appOrigin)
  }
}

const attributes = (cookies: WebCookies, maxAgeSeconds: number, httpOnly: boolean) => ({
  path: "/",
  sameSite: "lax" as const,
  secure: cookies.secure,
  httpOnly,
  maxAge: `${maxAgeSeconds} seconds` as const
})

/** Sets both cookies of a just-opened session on the response this request ends with. */
export const setSessionCookies = (cookies: WebCookies, opened: OpenedWebSession) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(
      response.pipe(
        HttpServerResponse.setCookieUnsafe(
          cookies.session,
          opened.secret,
          attributes(cookies, opened.maxAgeSeconds, true)
        ),
        HttpServerResponse.setCookieUnsafe(
          cookies.csrf,
          opened.csrfToken,
          attributes(cookies, opened.maxAgeSeconds, false)
        )
      )
    )
  )

/** Clears both cookies (sign out, or a session that has ended). */
export const clearSessionCookies = (cookies: WebCookies) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(
      response.pipe(
        HttpServerResponse.setCookieUnsafe(cookies.session, "", attributes(cookies, 0, true)),
        HttpServerResponse.setCookieUnsafe(cookies.csrf, "", attributes(cookies, 0, false))
      )
    )
  )
