import { describe, expect, it } from "vitest"
import { redirectMatches, redirectUriProblem } from "./redirects.ts"

describe("redirectUriProblem", () => {
  it.each([
    ["https://app.example/cb", undefined],
    ["http://127.0.0.1/cb", undefined],
    ["http://127.0.0.1:33418/callback", undefined],
    ["http://localhost:3000/cb", undefined],
    ["http://[::1]:9000/cb", undefined]
  ])("accepts %s", (uri, expected) => expect(redirectUriProblem(uri)).toBe(expected))

  it.each([
    "http://example.com/cb",
    "javascript:alert(1)",
    "data:text/html,hi",
    "file:///etc/passwd",
    "/relative/cb",
    "https://*.example.com/cb",
    "https://app.example/cb#frag",
    "https://user:pw@app.example/cb",
    `https://app.example/${"a".repeat(2050)}`
  ])("refuses %s", (uri) => expect(redirectUriProblem(uri)).toEqual(expect.any(String)))
})

describe("redirectMatches", () => {
  const registered = ["https://app.example/cb", "http://127.0.0.1/cb", "http://localhost/cb?x=1"]
  it.each([
    ["https://app.example/cb", true],
    ["https://app.example/cb/", false],
    ["https://APP.example/cb", false],
    ["https://app.example/cb?x=1", false],
    ["https://app.example@evil.example/cb", false],
    ["https://app.example.evil/cb", false],
    ["https://app.example/cb/../x", false],
    ["https://app.example/%63b", false],
    ["http://app.example/cb", false],
    ["http://127.0.0.1:53123/cb", true],
    ["http://127.0.0.1/cb", true],
    ["http://localhost:53123/cb", false],
    ["http://127.0.0.1:53123/cb2", false],
    ["http://127.0.0.1:53123/cb?y=2", false],
    ["http://localhost:8080/cb?x=1", true],
    ["http://localhost:8080/cb?x=2", false]
  ])("%s → %s", (requested, expected) => expect(redirectMatches(registered, requested)).toBe(expected))
})
