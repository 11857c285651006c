import { describe, expect, it } from "vitest"
import { isBlobKey, isVersion, parseFeedPath } from "./releaseRules.ts"

describe("isVersion", () => {
  it.each(["0.0.0", "1.2.3", "10.20.30", "123456789.0.1"])("accepts %s", (v) => expect(isVersion(v)).toBe(true))
  it.each([
    "v1.2.3",
    "1.2.3.4",
    " 1.2.3",
    "1.2.3 ",
    "1.2",
    "01.2.3",
    "1.02.3",
    "1.2.3-beta",
    "1.2.3+build",
    "1..3",
    "",
    "1.2.x",
    "1234567890.0.0"
  ])("refuses %j", (v) => expect(isVersion(v)).toBe(false))
})

describe("parseFeedPath", () => {
  it.each([
    ["darwin-arm64/latest-mac.yml", { kind: "channel", platform: "darwin-arm64" }],
    [
      "darwin-arm64/1.2.3/App-1.2.3-arm64-mac.zip",
      { kind: "artifact", platform: "darwin-arm64", version: "1.2.3", file: "App-1.2.3-arm64-mac.zip" }
    ],
    [
      "darwin-arm64/1.2.3/App%201.2.3.dmg",
      { kind: "artifact", platform: "darwin-arm64", version: "1.2.3", file: "App 1.2.3.dmg" }
    ],
    [
      "darwin-arm64/1.2.3/App.zip.blockmap",
      { kind: "artifact", platform: "darwin-arm64", version: "1.2.3", file: "App.zip.blockmap" }
    ],
    [
      "darwin-arm64/1.2.3/latest-mac.yml",
      { kind: "artifact", platform: "darwin-arm64", version: "1.2.3", file: "latest-mac.yml" }
    ]
  ])("%s resolves", (raw, expected) => expect(parseFeedPath(raw)).toEqual(expected))

  it.each([
    "darwin-arm64",
    "darwin-arm64/",
    "darwin-arm64/latest.yml",
    "darwin-arm64/1.2.3/App.exe",
    "darwin-arm64/1.2.3/App.ZIP.txt",
    "darwin-arm64/1.2.3/a/App.zip",
    "darwin-arm64/../latest-mac.yml",
    "darwin-arm64/1.2.3/..",
    "darwin-arm64/%2e%2e/latest-mac.yml",
    "darwin-arm64/1.2.3%2FApp.zip",
    "darwin-arm64/1.2.3/..%2FApp.zip",
    "darwin-arm64/1.2.3/%E0%A4%A.zip",
    "darwin-arm64/1.2.3/.App.zip",
    "darwin-arm64/1.2.3/App%00.zip",
    "Darwin/latest-mac.yml",
    "darwin%2Farm64/latest-mac.yml",
    "darwin-arm64/v1.2.3/App.zip"
  ])("%s is not in the feed", (raw) => expect(parseFeedPath(raw)).toBeUndefined())
})

describe("isBlobKey", () => {
  it.each(["darwin-arm64/1.2.3/App.zip", "a", "a/b"])("%s is a key", (k) => expect(isBlobKey(k)).toBe(true))
  it.each(["", "/a", "a/", "a//b", "a/../b", "a/b/c/d", "a/.b", "a\\b", "a/b c "])("%j is not", (k) =>
    expect(isBlobKey(k)).toBe(false)
  )
})
