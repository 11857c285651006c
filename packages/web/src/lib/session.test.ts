import { describe, expect, it } from "vitest"
import { safeNext } from "./session.ts"

const origin = "http://127.0.0.1:8080"

describe("safeNext: where sign-in may send a person", () => {
  it.each([
    ["/p/abc?card=WEB-1", "/p/abc?card=WEB-1"],
    ["/user/keys#grants", "/user/keys#grants"],
    ["/p/x/../../user/keys", "/user/keys"],
    ["/./p/abc", "/p/abc"],
    ["/p/abc?next=//evil.example", "/p/abc?next=//evil.example"],
    ["/p/a%2F%2Fb", "/p/a%2F%2Fb"]
  ])("keeps the app's own path %s", (next, expected) => {
    expect(safeNext(next, origin)).toBe(expected)
  })

  it.each([
    null,
    "",
    "https://evil.example/",
    "//evil.example/x",
    "/\\evil.example/x",
    "/\\/evil.example",
    // dot segments the parser removes, leaving `//evil.example` (another host to the browser)
    "/.//evil.example/x",
    "/..//evil.example/x",
    "/%2e//evil.example/x",
    "/%2E%2E//evil.example/x",
    "/./\\evil.example/x",
    "/p/..//evil.example",
    "javascript:alert(1)",
    "/signin?next=/x",
    "/signup"
  ])("sends %s home instead", (next) => {
    expect(safeNext(next, origin)).toBe("/")
  })
})
