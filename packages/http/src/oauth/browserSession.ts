/**
 * The consent page's browser state, without a table: a signed session cookie (user id and
 * expiry) and a CSRF token bound to a random per-browser cookie. Keys come from SECRET.
 */
import * as crypto from "node:crypto"

export const SESSION_SECONDS = 30 * 60

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

export const signSession = (key: Uint8Array, userId: string, nowMs: number): string => {
  const value = `${userId}.${Math.floor(nowMs / 1000) + SESSION_SECONDS}`
  return `${value}.${hmac(key, `session:${value}`)}`
}

export const verifySession = (key: Uint8Array, cookie: string | undefined, nowMs: number): string | undefined => {
  if (cookie === undefined) return undefined
  const parts = cookie.split(".")
  if (parts.length !== 3) return undefined
  const [userId, exp, sig] = parts as [string, string, string]
  if (!same(sig, hmac(key, `session:${userId}.${exp}`))) return undefined
  return Number(exp) * 1000 > nowMs ? userId : undefined
}

export const newBrowserNonce = (): string => crypto.randomBytes(18).toString("base64url")

/** The form's CSRF token for this browser's nonce cookie. */
export const csrfToken = (key: Uint8Array, nonce: string): string => hmac(key, `csrf:${nonce}`)

export const csrfValid = (key: Uint8Array, nonce: string | undefined, token: string | undefined): boolean =>
  nonce !== undefined && token !== undefined && nonce.length > 0 && same(token, csrfToken(key, nonce))
