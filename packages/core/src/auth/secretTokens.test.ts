import { describe, expect, it } from "vitest"
import { digestToken, isWellFormed, mintToken, tokenKindOf } from "./secretTokens.ts"

describe("secret tokens", () => {
  it("mints tokens of each kind that verify and are told apart by shape", () => {
    for (const kind of [
      "apiKey",
      "oauthAccess",
      "oauthRefresh",
      "intake",
      "authCode",
      "webSession",
      "invitation",
      "passwordReset"
    ] as const) {
      const token = mintToken(kind)
      expect(isWellFormed(kind, token)).toBe(true)
      expect(tokenKindOf(token)).toBe(kind)
    }
    expect(isWellFormed("apiKey", mintToken("oauthAccess"))).toBe(false)
    expect(isWellFormed("intake", mintToken("apiKey"))).toBe(false)
  })

  it("refuses a token with one character flipped", () => {
    const token = mintToken("apiKey")
    const i = 10
    const flipped = token.slice(0, i) + (token[i] === "a" ? "b" : "a") + token.slice(i + 1)
    expect(isWellFormed("apiKey", flipped)).toBe(false)
  })

  it("digests to 64 hex characters and never echoes the token", () => {
    const token = mintToken("apiKey")
    const digest = digestToken(token)
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
    expect(digest.includes(token.slice(4, 20))).toBe(false)
  })

  it("draws about 178 bits: 1000 tokens are distinct", () => {
    const set = new Set(Array.from({ length: 1000 }, () => mintToken("apiKey")))
    expect(set.size).toBe(1000)
  })
})
