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
    ).toBe("WEB-12 was moved from To Do to Done by GitHub")
    expect(describeEvent(event("card.shipped", { object: { ref: "WEB-12", shippedTo: "production" } }), names)).toBe(
      "WEB-12 shipped to production"
    )
  })
})
