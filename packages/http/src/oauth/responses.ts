/**
 * The authorization server's answers: JSON that is never cached, public metadata cached for 5
 * minutes, the RFC 6749 error body, and HTML pages with their CSP (whose form-action names the
 * one redirect a consent form may end at).
 */
import type { OAuthError } from "@board/core"
import { HttpServerResponse } from "effect/http"

export const noStore = { "cache-control": "no-store", pragma: "no-cache" }
export const pageHeaders = {
  ...noStore,
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff"
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { ...noStore, ...headers } })
/** Public metadata, the same for everyone: cacheable for 5 minutes, so none of noStore's headers. */
export const discovery = (body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status: 200, headers: { "cache-control": "public, max-age=300" } })

/**
 * CSP's form-action also governs the redirects a form post leads to (Chromium enforces it), so
 * the consent form may go to this site and to the one redirect it ends at: that redirect's
 * origin, or its scheme for an app's private-use scheme and for [::1] (CSP host sources have no
 * IPv6 literals). Without it the browser stops at the 303 and the app never gets its code.
 */
export const formActionFor = (redirectUri: string | undefined): string => {
  if (redirectUri === undefined) return "'self'"
  const url = new URL(redirectUri)
  const web = url.protocol === "https:" || url.protocol === "http:"
  return `'self' ${web && !url.hostname.startsWith("[") ? url.origin : url.protocol}`
}

/** A page; `redirectUri` when its form may end at the client's redirect. */
export const page = (status: number, html: string, redirectUri?: string) =>
  HttpServerResponse.html(html).pipe(
    HttpServerResponse.setStatus(status),
    HttpServerResponse.setHeaders({
      ...pageHeaders,
      "content-security-policy": `default-src 'none'; style-src 'unsafe-inline'; form-action ${formActionFor(redirectUri)}; frame-ancestors 'none'`
    })
  )
export const oauthError = (e: OAuthError) =>
  json(
    e.status,
    { error: e.error, error_description: e.description },
    e.status === 401 ? { "www-authenticate": `Basic realm="board"` } : {}
  )
