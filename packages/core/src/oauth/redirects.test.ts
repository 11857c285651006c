import { describe, expect, it } from "vitest"
import { redirectMatches, redirectTarget, redirectUriProblem } from "./redirects.ts"

describe("redirectUriProblem", () => {
  it.each([
    ["https://app.example/cb", undefined],
    ["http://127.0.0.1/cb", undefined],
    ["http://127.0.0.1:33418/callback", undefined],
    ["http://localhost:3000/cb", undefined],
    ["http://[::1]:9000/cb", undefined],
    // RFC 8252 §7.1: a native app's private-use scheme, reverse-domain style
    ["com.example.app:/oauth2redirect", undefined],
    ["com.example.app://callback", undefined],
    ["cursor://anysphere.cursor-mcp/oauth/callback", undefined],
    ["vscode://vscode.github-authentication/did-authenticate", undefined]
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
    `https://app.example/${"a".repeat(2050)}`,
    // one-word schemes without a reverse-domain name, and what browsers act on themselves
    "myapp://callback",
    "myapp:/cb",
    "cursor:callback",
    "javascript://a.example/%0Aalert(1)",
    "data://a.example/x",
    "file://host.example/etc/passwd",
    "blob://a.example/x",
    "vbscript://a.example/x",
    "view-source://a.example/x",
    "intent://a.example/x",
    "ftp://files.example/cb",
    "ws://app.example/cb",
    "http://app.example/cb",
    "com.example.app:/cb#frag",
    "com.example.app://user:pw@cb/x",
    "cursor://.example/cb"
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

describe("redirectMatches, private-use schemes", () => {
  const registered = ["cursor://anysphere.cursor-mcp/oauth/callback", "com.example.app:/cb"]
  it.each([
    ["cursor://anysphere.cursor-mcp/oauth/callback", true],
    ["cursor://anysphere.cursor-mcp/oauth/callback/", false],
    ["cursor://anysphere.cursor-mcp:8080/oauth/callback", false],
    ["cursor://other.cursor-mcp/oauth/callback", false],
    ["com.example.app:/cb", true],
    ["com.example.app:/cb?x=1", false],
    ["com.example.other:/cb", false]
  ])("%s → %s", (requested, expected) => expect(redirectMatches(registered, requested)).toBe(expected))

  it("[::1] redirects match on any port too", () => {
    expect(redirectMatches(["http://[::1]/cb"], "http://[::1]:40123/cb")).toBe(true)
    expect(redirectMatches(["http://[::1]:9000/cb"], "http://[::1]:40123/cb")).toBe(true)
    expect(redirectMatches(["http://[::1]/cb"], "http://127.0.0.1:40123/cb")).toBe(false)
  })
})

describe("redirectTarget", () => {
  it.each([
    ["https://claude.ai/api/mcp/auth_callback", { kind: "web", label: "claude.ai" }],
    ["http://127.0.0.1:33418/cb", { kind: "loopback", label: "127.0.0.1:33418" }],
    ["cursor://anysphere.cursor-mcp/oauth/callback", { kind: "app", label: "cursor://anysphere.cursor-mcp" }],
    ["com.example.app:/cb", { kind: "app", label: "com.example.app:" }]
  ])("%s → %j", (uri, expected) => expect(redirectTarget(uri)).toEqual(expected))
})
