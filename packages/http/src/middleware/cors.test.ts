import { describe, expect, it } from "vitest"
import { corsFor } from "./cors.ts"

const allowed = ["https://app.example.com", "http://localhost:3000"]

describe("corsFor", () => {
  it("echoes only an exact allowed origin, with Vary", () => {
    expect(corsFor(allowed, "GET", "/api/v1/workspaces", "https://app.example.com", undefined).headers).toMatchObject({
      "access-control-allow-origin": "https://app.example.com",
      vary: "Origin"
    })
  })

  it.each([
    "https://evil.example.com",
    "null",
    "https://app.example.com.evil.io",
    "http://app.example.com",
    "https://APP.example.com"
  ])("gives %s no allow-origin", (origin) => {
    const d = corsFor(allowed, "GET", "/api/v1/workspaces", origin, undefined)
    expect(d.headers["access-control-allow-origin"]).toBeUndefined()
    expect(d.headers.vary).toBe("Origin")
  })

  it("never answers *, even with no list", () => {
    expect(corsFor([], "GET", "/api/v1/workspaces", "https://app.example.com", undefined).headers).toEqual({})
  })

  it("answers preflights for allowed origins", () => {
    const d = corsFor(allowed, "OPTIONS", "/api/v1/cards", "http://localhost:3000", "POST")
    expect(d.preflight).toBe(true)
    expect(d.headers["access-control-allow-methods"]).toContain("POST")
    expect(d.headers["access-control-allow-headers"]).toContain("X-API-Key")
  })

  it("gives the intake endpoint no CORS at all", () => {
    expect(corsFor(allowed, "POST", "/api/v1/intake", "https://app.example.com", undefined)).toEqual({
      headers: {},
      preflight: false
    })
    expect(corsFor(allowed, "OPTIONS", "/api/v1/intake", "https://app.example.com", "POST")).toEqual({
      headers: {},
      preflight: false
    })
  })
})
