import { describe, expect, it } from "vitest"
import type { BoardEvent } from "../types.ts"
import { describeEvent } from "./history.ts"

const names = {
  columns: new Map([
    ["c1", "To Do"],
    ["c3", "Done"]
  ]),
  members: new Map<string, string>()
}
const event = (type: string, data: unknown, actor: BoardEvent["actor"] = { type: "system", name: "github" }) =>
  ({ id: "0", type, createdAt: "", workspaceId: "w", projectId: "p", actor, data }) as unknown as BoardEvent

describe("the forge's history sentences (issue 31)", () => {
  const pr = { ref: "WEB-12", repository: "acme/web", pullRequest: { number: 42, state: "merged", closes: true } }
  it("reads links, updates, the forge's moves and shipping", () => {
    expect(describeEvent(event("card.pull_request_linked", { object: pr }), names)).toBe(
      "WEB-12 was linked to acme/web#42 (closes it)"
    )
    expect(describeEvent(event("card.pull_request_updated", { object: pr, previous: { state: "open" } }), names)).toBe(
      "acme/web#42 was merged"
    )
    expect(
      describeEvent(
        event("card.moved", { object: { ref: "WEB-12", columnId: "c3" }, previous: { columnId: "c1" } }),
        names
      )
    ).toBe("WEB-12 was moved to Done by GitHub")
    // the automation's move names the pull request that caused it (data.cause)
    expect(
      describeEvent(
        event("card.moved", {
          object: { ref: "WEB-12", columnId: "c3" },
          previous: { columnId: "c1" },
          cause: { repository: "acme/web", number: 42, action: "merged" }
        }),
        names
      )
    ).toBe("WEB-12 was moved to Done by GitHub (acme/web#42 merged)")
    expect(
      describeEvent(event("card.pull_request_linked", { object: { ...pr, pullRequest: { number: 42 } } }), names)
    ).toBe("WEB-12 was linked to acme/web#42")
    expect(
      describeEvent(
        event("card.commit_linked", {
          object: { ref: "WEB-12", repository: "acme/web", commit: { sha: "2222222abc", closes: false } }
        }),
        names
      )
    ).toBe("WEB-12 was linked to commit 2222222 of acme/web")
    expect(describeEvent(event("card.shipped", { object: { ref: "WEB-12", shippedTo: "production" } }), names)).toBe(
      "WEB-12 shipped to production"
    )
  })
})
