import { describe, expect, it } from "vitest"
import { branchMentions, mentionsIn } from "./refs.ts"

describe("card refs in forge text", () => {
  it("closes only after a closing word, any case, with or without a colon", () => {
    for (const text of [
      "Closes WEB-12",
      "fixes web-12",
      "Resolved: WEB-12",
      "close WEB-12",
      "FIXED WEB-12",
      "fix:  web-12"
    ])
      expect(mentionsIn("WEB", text)).toEqual([{ ref: "WEB-12", closes: true }])
    for (const text of [
      "see WEB-12",
      "WEB-12",
      "prefix WEB-12",
      "closing WEB-12",
      "fixesWEB-12 nope",
      "Fixes #3 and WEB-12"
    ])
      expect(mentionsIn("WEB", text).filter((m) => m.ref === "WEB-12")).toEqual(
        text === "fixesWEB-12 nope" ? [] : [{ ref: "WEB-12", closes: false }]
      )
  })

  it("takes whole words only, of the project's prefix only", () => {
    expect(mentionsIn("WEB", "xWEB-12 WEB-123 WEB-12_ API-12 WEB-12a")).toEqual([{ ref: "WEB-123", closes: false }])
    expect(mentionsIn("WEB", "(WEB-7), [web-8]. WEB-7")).toEqual([
      { ref: "WEB-7", closes: false },
      { ref: "WEB-8", closes: false }
    ])
    expect(mentionsIn("WEB", "see WEB-7 and fixes WEB-7")).toEqual([{ ref: "WEB-7", closes: true }])
  })

  it("reads branch names and never gives them close intent", () => {
    expect(branchMentions("WEB", "web-12-fix-login")).toEqual([{ ref: "WEB-12", closes: false }])
    expect(branchMentions("WEB", "feature/WEB-3")).toEqual([{ ref: "WEB-3", closes: false }])
    expect(branchMentions("WEB", "fix-web-12")).toEqual([{ ref: "WEB-12", closes: false }])
    expect(branchMentions("WEB", "web12")).toEqual([])
  })
})
