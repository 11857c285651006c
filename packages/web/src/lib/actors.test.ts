import type { BoardEvent } from "../types.ts"
import { describe, expect, it } from "vitest"
import { actorText, actorView, agentMemberIds } from "./actors.ts"
import { describeEvent } from "./history.ts"

const ADA = "00000000-0000-4000-8000-00000000000a"
const members = new Map([[ADA, "Ada Lovelace"]])
type Actor = BoardEvent["actor"]
const actor = (a: Record<string, unknown>) => a as unknown as Actor

describe("actors as the pages show them (issue 28)", () => {
  it("an OAuth client named like a person is an agent acting for its person, never the name alone", () => {
    const alice = actor({ type: "agent", userId: ADA, name: "alice" })
    expect(actorView(alice, members)).toEqual({ name: "alice", agent: true, forPerson: "Ada Lovelace" })
    expect(actorText(alice, members)).toBe("alice (agent for Ada Lovelace)")
    expect(actorText(actor({ type: "agent", userId: ADA }), members)).toBe("An agent for Ada Lovelace")
    expect(
      actorText(actor({ type: "agent", userId: "00000000-0000-4000-8000-0000000000ff", name: "Bot" }), members)
    ).toBe("Bot (agent for a former member)")
  })

  it("an agent member acts for its creator (onBehalfOf), not for itself", () => {
    const BOT = "00000000-0000-4000-8000-0000000000b0"
    const withBot = new Map([...members, [BOT, "Claude"]])
    const claude = actor({ type: "agent", userId: BOT, name: "Claude", onBehalfOf: ADA })
    expect(actorView(claude, withBot)).toEqual({ name: "Claude", agent: true, forPerson: "Ada Lovelace" })
    expect(actorText(claude, withBot)).toBe("Claude (agent for Ada Lovelace)")
    expect(
      agentMemberIds([
        { userId: BOT, kind: "agent" },
        { userId: ADA, kind: "person" }
      ] as any)
    ).toEqual(new Set([BOT]))
  })

  it("a person, intake and the service read as before", () => {
    expect(actorText(actor({ type: "user", userId: ADA, name: "Ada Lovelace" }), members)).toBe("Ada Lovelace")
    expect(actorView(actor({ type: "user", userId: ADA, name: "Ada Lovelace" }), members).agent).toBe(false)
    expect(actorText(actor({ type: "intake", name: "Support form" }), members)).toBe("Support form")
    expect(actorText(actor({ type: "system" }), members)).toBe("The service")
  })

  it("history sentences name an agent as an agent", () => {
    const event = {
      id: "0".repeat(24),
      type: "card.moved",
      createdAt: "2026-11-26T06:00:00.000Z",
      workspaceId: "w",
      projectId: "p",
      actor: { type: "agent", userId: ADA, name: "alice" },
      data: { object: { ref: "WEB-3", columnId: "c2" }, previous: { columnId: "c1" } }
    } as unknown as BoardEvent
    const names = {
      columns: new Map([
        ["c1", "To Do"],
        ["c2", "Doing"]
      ]),
      members
    }
    expect(describeEvent(event, names)).toBe("alice (agent for Ada Lovelace) moved WEB-3 from To Do to Doing")
  })

  it("an agent member assigned to a card reads as an agent in the history", () => {
    const BOT = "00000000-0000-4000-8000-0000000000b0"
    const event = {
      id: "0".repeat(24),
      type: "card.assigned",
      createdAt: "2026-11-26T06:00:00.000Z",
      workspaceId: "w",
      projectId: "p",
      actor: { type: "user", userId: ADA, name: "Ada Lovelace" },
      data: { object: { ref: "WEB-3", assigneeIds: [BOT] }, previous: { assigneeIds: [] } }
    } as unknown as BoardEvent
    const names = { columns: new Map(), members: new Map([...members, [BOT, "Claude"]]), agents: new Set([BOT]) }
    expect(describeEvent(event, names)).toBe("Ada Lovelace assigned Claude (agent) on WEB-3")
  })
})
