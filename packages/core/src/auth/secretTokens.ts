/**
 * Scanner-friendly secrets (GitHub's format): prefix + 30 base62 random characters (about 178
 * bits) + a 6-character base62 CRC32 checksum, so a mistyped token is refused before any
 * database lookup. Only the SHA-256 digest is ever stored.
 */
import * as crypto from "node:crypto"
import * as zlib from "node:zlib"

/** `webSession`: the web board's session cookie (auth/WebSessions.ts), never sent as a header. */
/** `invitation`: a workspace invitation's link; `passwordReset`: a password reset link (auth/PasswordResets.ts). */
export type TokenKind =
  | "apiKey"
  | "oauthAccess"
  | "oauthRefresh"
  | "intake"
  | "authCode"
  | "webSession"
  | "invitation"
  | "passwordReset"

export const tokenPrefixes: Record<TokenKind, string> = {
  apiKey: "svc_",
  oauthAccess: "svc_at_",
  oauthRefresh: "svc_rt_",
  intake: "svc_in_",
  authCode: "svc_ac_",
  webSession: "svc_ws_",
  invitation: "svc_inv_",
  passwordReset: "svc_pr_"
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
const RANDOM_LENGTH = 30
const CHECKSUM_LENGTH = 6

const base62 = (value: number, width: number): string => {
  let out = ""
  let v = value
  for (let i = 0; i < width; i++) {
    out = ALPHABET[v % 62] + out
    v = Math.floor(v / 62)
  }
  return out
}

const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length * 2)) {
      // rejection sampling keeps the alphabet uniform
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62]
    }
  }
  return out
}

const checksum = (body: string) => base62(zlib.crc32(body) >>> 0, CHECKSUM_LENGTH)

export const mintToken = (kind: TokenKind): string => {
  const body = randomBase62(RANDOM_LENGTH)
  return `${tokenPrefixes[kind]}${body}${checksum(body)}`
}

const shapes: Record<TokenKind, RegExp> = {
  apiKey: /^svc_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/,
  oauthAccess: /^svc_at_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/,
  oauthRefresh: /^svc_rt_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/,
  intake: /^svc_in_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/,
  authCode: /^svc_ac_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/,
  webSession: /^svc_ws_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/,
  invitation: /^svc_inv_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/,
  passwordReset: /^svc_pr_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/
}

/** Every kind, the prefixed ones before `svc_` alone. */
const KINDS = [
  "oauthAccess",
  "oauthRefresh",
  "intake",
  "authCode",
  "webSession",
  "invitation",
  "passwordReset",
  "apiKey"
] as const

/** True when `token` has the kind's exact shape and a valid checksum. */
export const isWellFormed = (kind: TokenKind, token: string): boolean => {
  const m = shapes[kind].exec(token)
  return m !== null && checksum(m[1]!) === m[2]
}

/** Which kind a token claims to be by its shape alone (checksum not checked). */
export const tokenKindOf = (token: string): TokenKind | undefined => {
  for (const kind of KINDS) {
    if (shapes[kind].test(token)) return kind
  }
  return undefined
}

/** The kind a token's prefix claims, well-formed or not (`svc_at_typo` claims an access token). */
export const claimedKindOf = (token: string): TokenKind | undefined => {
  for (const kind of KINDS) {
    if (token.startsWith(tokenPrefixes[kind])) return kind
  }
  return undefined
}

export const digestToken = (token: string): string => crypto.createHash("sha256").update(token, "utf8").digest("hex")
