/**
 * Session JWTs from signup and login: HS256 pinned, and `exp`, `iat`, `iss`, `aud` and a type
 * claim all required (RFC 8725), so a token minted for another purpose never passes here.
 */
import { Effect } from "effect"
import * as jose from "jose"

export const SESSION_TTL_SECONDS = 3600
const TOKEN_TYPE = "session+jwt"

export interface SessionClaims {
  readonly userId: string
  readonly expiresAt: Date
}

export const signSession = (key: Uint8Array, issuer: string, userId: string, nowMs: number) =>
  Effect.promise(() => {
    const iat = Math.floor(nowMs / 1000)
    return new jose.SignJWT({ typ: TOKEN_TYPE })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject(userId)
      .setIssuer(issuer)
      .setAudience(`${issuer}/api`)
      .setIssuedAt(iat)
      .setExpirationTime(iat + SESSION_TTL_SECONDS)
      .sign(key)
  })

/** Undefined for anything that is not a live session token of this server. */
export const verifySession = (key: Uint8Array, issuer: string, token: string, nowMs: number) =>
  Effect.promise(async (): Promise<SessionClaims | undefined> => {
    try {
      const { payload } = await jose.jwtVerify(token, key, {
        algorithms: ["HS256"],
        issuer,
        audience: `${issuer}/api`,
        requiredClaims: ["exp", "iat", "sub", "typ"],
        currentDate: new Date(nowMs),
        clockTolerance: 5
      })
      if (payload.typ !== TOKEN_TYPE || typeof payload.sub !== "string") return undefined
      if (payload.iat! > Math.floor(nowMs / 1000) + 5) return undefined
      return { userId: payload.sub, expiresAt: new Date(payload.exp! * 1000) }
    } catch {
      return undefined
    }
  })
