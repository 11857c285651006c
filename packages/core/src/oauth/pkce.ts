import * as crypto from "node:crypto"

/** RFC 7636: a verifier is 43–128 characters of the unreserved set. */
export const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/
/** An S256 challenge has the same shape (43 base64url characters for SHA-256). */
export const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/

export const s256 = (verifier: string): string =>
  crypto.createHash("sha256").update(verifier, "ascii").digest("base64url")

/** Constant-time check of a verifier against the stored S256 challenge. */
export const verifierMatches = (verifier: string, challenge: string): boolean => {
  if (!VERIFIER.test(verifier)) return false
  const a = Buffer.from(s256(verifier))
  const b = Buffer.from(challenge)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}
