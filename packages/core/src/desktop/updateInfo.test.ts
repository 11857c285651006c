import { describe, expect, it } from "vitest"
import * as yaml from "js-yaml"
import { renderUpdateInfo } from "./updateInfo.ts"

describe("renderUpdateInfo", () => {
  const files = [
    { name: "App 1.2.3-arm64.dmg", sha512: `${"d".repeat(86)}==`, size: 20 },
    { name: "App-1.2.3-arm64-mac.zip", sha512: `${"z".repeat(86)}==`, size: 10 },
    { name: "App-1.2.3-arm64-mac.zip.blockmap", sha512: `${"b".repeat(86)}==`, size: 5 }
  ]

  it("writes electron-builder's UpdateInfo: the zip first, relative urls, path and sha512 of the zip", () => {
    const info = yaml.load(
      renderUpdateInfo({ version: "1.2.3", files, releaseDate: "2026-01-02T03:04:05.000Z", releaseNotes: "Notes" })
    )
    expect(info).toEqual({
      version: "1.2.3",
      files: [
        { url: "1.2.3/App-1.2.3-arm64-mac.zip", sha512: files[1]!.sha512, size: 10 },
        { url: "1.2.3/App 1.2.3-arm64.dmg", sha512: files[0]!.sha512, size: 20 }
      ],
      path: "1.2.3/App-1.2.3-arm64-mac.zip",
      sha512: files[1]!.sha512,
      releaseDate: "2026-01-02T03:04:05.000Z",
      releaseNotes: "Notes"
    })
  })

  it("no release note can change the document's structure", () => {
    const notes = "line\nversion: 9.9.9\n\"quoted\" 'x' #comment: {a: b}\u0085\u2028\ufeff\u0007 end"
    const info = yaml.load(
      renderUpdateInfo({ version: "1.2.3", files, releaseDate: "2026-01-02T03:04:05.000Z", releaseNotes: notes })
    ) as any
    expect(info.version).toBe("1.2.3")
    expect(info.releaseNotes).toBe(notes)
  })
})
