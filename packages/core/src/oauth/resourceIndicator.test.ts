import { describe, expect, it } from "vitest"
import { namesResource } from "./resourceIndicator.ts"

const own = "https://board.example/api"

describe("namesResource", () => {
  it.each([
    ["https://board.example/api", true],
    ["https://board.example/api/", true],
    ["https://board.example/api/mcp", true],
    ["https://BOARD.example/api/mcp", true],
    ["HTTPS://board.example:443/api/v1", true],
    ["https://board.example/apix", false],
    ["https://board.example/", false],
    ["https://board.example/api/../admin", false],
    ["https://board.example/api/%2e%2e/admin", false],
    ["https://board.example/API", false],
    ["http://board.example/api", false],
    ["https://board.example:8443/api", false],
    ["https://other.example/api", false],
    ["https://board.example.evil/api", false],
    ["https://board.example@evil.example/api", false],
    ["https://board.example/api?x=1", false],
    ["https://board.example/api#x", false],
    ["/api", false],
    ["not a url", false]
  ])("%s → %s", (given, expected) => expect(namesResource(given, own)).toBe(expected))
})
