/**
 * The consent page's browser state: the session cookie's name (its value is a consent sign-in's
 * secret, a web_sessions row of purpose 'consent': auth/WebSessions.ts, so a sign out ends it)
 * and a CSRF token bound to a random per-browser cookie, keyed from SECRET.
 */
import * as crypto from "node:crypto"

const hmac = (key: Uint8Array, value: string) => crypto.createHmac("sha256", key).update(value).digest("base64url")
const same = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}

export const cookieNames = (secure: boolean) => ({
  // __Host- pins the cookie to this origin over https (RFC 6265bis)
  session: secure ? "__Host-board_oauth_session" : "board_oauth_session",
  csrf: secure ? "__Host-board_oauth_csrf" : "board_oauth_csrf"
})

export const newBrowserNonce = (): string => crypto.randomBytes(18).toString("base64url")

/** The form's CSRF token for this browser's nonce cookie. */
export const csrfToken = (key: Uint8Array, nonce: string): string => hmac(key, `csrf:${nonce}`)

export const csrfValid = (key: Uint8Array, nonce: string | undefined, token: string | undefined): boolean =>
  nonce !== undefined && token !== undefined && nonce.length > 0 && same(token, csrfToken(key, nonce))
