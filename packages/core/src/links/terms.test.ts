import { describe, expect, it } from "vitest"
import { extractUrls, stripUrls } from "./extractUrls.ts"
import { termSet, tokenize, urlPathTerms } from "./terms.ts"

describe("tokenize", () => {
  it.each([
    ["Fix the login bug", ["fix", "login", "bug"]],
    ["OAuth2/OIDC: token-refresh", ["oauth2", "oidc", "token", "refresh"]],
    ["a an to of by it UI", []],
    ["Tests, queries and statuses", ["test", "query", "statuse"]],
    ["status process analysis", ["status", "process", "analysis"]],
    ["processes classes causes", ["process", "class", "cause"]],
    ["2024 12345 v2 abc", ["abc"]],
    ["Café crème", ["café", "crème"]],
    ["https www html index", []],
    ["card todo done new task", []],
    [`${"x".repeat(41)} keep`, ["keep"]],
    ["login login LOGIN", ["login", "login", "login"]]
  ])("%j", (text, expected) => {
    expect(tokenize(text)).toEqual(expected)
  })

  it("termSet merges texts and skips missing ones", () => {
    expect([...termSet("login page", null, undefined, "", "Login flow")]).toEqual(["login", "page", "flow"])
  })
})

describe("urlPathTerms", () => {
  it.each([
    ["https://blog.io/posts/oauth-login-flow", ["post", "oauth", "login", "flow"]],
    ["https://blog.io/caf%C3%A9/menu.html?x=search#top", ["café", "menu"]],
    ["https://github.com", []],
    ["https://a.io/%zz/broken", ["broken"]],
    ["not a url", []]
  ])("%s", (url, expected) => {
    expect(urlPathTerms(url)).toEqual(expected)
  })
})

describe("extractUrls", () => {
  it.each([
    ["See https://a.com/x.", ["https://a.com/x"]],
    ["[guide](https://a.com/guide/) and <https://b.org>", ["https://a.com/guide/", "https://b.org"]],
    ["(see https://en.wikipedia.org/wiki/Foo_(bar))", ["https://en.wikipedia.org/wiki/Foo_(bar)"]],
    ["HTTP://A.COM, http://b.com/?q=1!", ["HTTP://A.COM", "http://b.com/?q=1"]],
    ["\"https://a.com/q\" 'https://b.com'", ["https://a.com/q", "https://b.com"]],
    ["ftp://a.com mailto:x@y.z https:// http://", []],
    ["no links here", []]
  ])("%j", (text, expected) => {
    expect(extractUrls(text)).toEqual(expected)
  })

  it("stripUrls blanks the URLs out", () => {
    expect(stripUrls("read https://github.com/x now")).toBe("read   now")
  })
})
