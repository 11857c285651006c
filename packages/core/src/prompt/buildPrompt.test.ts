import { describe, expect, it } from "vitest"
import { buildPrompt, PROMPT_VARIANTS } from "./buildPrompt.ts"
import type { PromptInput } from "./buildPrompt.ts"
import { focusAreas } from "./focusAreas.ts"

const rich: PromptInput = {
  card: {
    ref: "WEB-12",
    title: "Fix login redirect loop",
    description: "After the OAuth callback, users land on /login again.\r\n\r\nSeen on Safari only.\n",
    priority: "urgent",
    labels: ["security", "Bug"],
    subtasks: [
      { title: "Reproduce on Safari", completed: true },
      { title: "Write regression test", completed: false },
      { title: "Fix cookie\nSameSite flag", completed: false }
    ]
  },
  project: { name: "Acme Web" },
  links: [
    { direction: "outgoing", linkType: "relates_to", ref: "WEB-7", title: "Session timeout" },
    { direction: "outgoing", linkType: "blocks", ref: "WEB-20", title: "Launch v2" },
    { direction: "incoming", linkType: "blocks", ref: "WEB-3", title: "Upgrade auth library" },
    { direction: "incoming", linkType: "duplicates", ref: "WEB-30", title: "Login loops forever" },
    { direction: "outgoing", linkType: "is_part_of", ref: "WEB-1", title: "Auth epic" }
  ],
  references: [
    {
      url: "https://datatracker.ietf.org/doc/html/rfc9700",
      title: "OAuth 2.0 Security Best Current Practice",
      note: "Section 4.1 covers\nredirect handling."
    },
    { url: "https://web.dev/articles/samesite-cookies-explained", title: null, note: null }
  ]
}

const bare: PromptInput = {
  card: { ref: "OPS-1", title: "Tidy the wiki", description: null, priority: "medium", labels: [], subtasks: [] },
  project: { name: "Ops" },
  links: [],
  references: []
}

describe("buildPrompt on a rich card", () => {
  it("analysis", () => {
    expect(buildPrompt(rich, "analysis")).toMatchInlineSnapshot(`
      "# Analyse WEB-12

      You are a senior software engineer on the project "Acme Web". Analyse the card below and plan the work; do not change any code yet. Understand the problem, find the code and data it touches, name the risks and open questions, and propose an ordered plan.

      ## Card

      - Ref: WEB-12
      - Title: Fix login redirect loop
      - Priority: urgent
      - Labels: Bug, security

      ## Description

      After the OAuth callback, users land on /login again.

      Seen on Safari only.

      ## Focus areas

      - Urgent: ship the smallest safe change first and leave clean-ups to follow-up cards.
      - Security: threat-model the change first (who can reach it, what input they control, what they could read or change), check authorisation on every path, and never log secrets or personal data.
      - Bug: reproduce it first and write down the steps, find the root cause rather than the symptom, and add a regression test that fails before the fix and passes after.

      ## Subtasks (1 of 3 done)

      - [x] Reproduce on Safari
      - [ ] Write regression test
      - [ ] Fix cookie SameSite flag

      ## Linked cards

      - **Blocker:** blocked by WEB-3 "Upgrade auth library". WEB-12 cannot be finished until WEB-3 is done.
      - Blocks WEB-20 "Launch v2": that card waits for this one.
      - Part of WEB-1 "Auth epic"
      - Duplicated by WEB-30 "Login loops forever"
      - Relates to WEB-7 "Session timeout"

      ## References

      - OAuth 2.0 Security Best Current Practice: https://datatracker.ietf.org/doc/html/rfc9700
        Section 4.1 covers redirect handling.
      - https://web.dev/articles/samesite-cookies-explained

      ## Your analysis should cover

      - [ ] Restate the problem in your own words and list the open questions
      - [ ] Identify the code, data and users affected
      - [ ] Describe how to reproduce the bug and where the root cause is likely to be
      - [ ] Outline the threat model: assets, attackers, entry points
      - [ ] Explain how the blockers (WEB-3) constrain the plan
      - [ ] Map every open subtask onto a step of the plan
      - [ ] Note what the references add or rule out
      - [ ] Propose an ordered plan with its risks and a rough size
      "
    `)
  })

  it("draft", () => {
    expect(buildPrompt(rich, "draft")).toMatchInlineSnapshot(`
      "# Design a solution for WEB-12

      You are a senior software engineer on the project "Acme Web". Design a solution for the card below. Propose a concrete design: the components and files to change, interface and data changes, and how it will be tested. Weigh at least one alternative. Sketch code only where it makes the design clearer; do not implement it fully.

      ## Card

      - Ref: WEB-12
      - Title: Fix login redirect loop
      - Priority: urgent
      - Labels: Bug, security

      ## Description

      After the OAuth callback, users land on /login again.

      Seen on Safari only.

      ## Focus areas

      - Urgent: ship the smallest safe change first and leave clean-ups to follow-up cards.
      - Security: threat-model the change first (who can reach it, what input they control, what they could read or change), check authorisation on every path, and never log secrets or personal data.
      - Bug: reproduce it first and write down the steps, find the root cause rather than the symptom, and add a regression test that fails before the fix and passes after.

      ## Subtasks (1 of 3 done)

      - [x] Reproduce on Safari
      - [ ] Write regression test
      - [ ] Fix cookie SameSite flag

      ## Linked cards

      - **Blocker:** blocked by WEB-3 "Upgrade auth library". WEB-12 cannot be finished until WEB-3 is done.
      - Blocks WEB-20 "Launch v2": that card waits for this one.
      - Part of WEB-1 "Auth epic"
      - Duplicated by WEB-30 "Login loops forever"
      - Relates to WEB-7 "Session timeout"

      ## References

      - OAuth 2.0 Security Best Current Practice: https://datatracker.ietf.org/doc/html/rfc9700
        Section 4.1 covers redirect handling.
      - https://web.dev/articles/samesite-cookies-explained

      ## Your design should cover

      - [ ] The design covers the description and every open subtask
      - [ ] Alternatives considered, with the reason for the choice
      - [ ] Interface, data and migration changes spelled out
      - [ ] Threat model and the controls the design adds
      - [ ] How the design removes the root cause, not just the symptom
      - [ ] What depends on the blockers (WEB-3)
      - [ ] Test plan, including edge cases
      - [ ] Risks, rollout and rollback
      "
    `)
  })

  it("execute", () => {
    expect(buildPrompt(rich, "execute")).toMatchInlineSnapshot(`
      "# Implement WEB-12

      You are a senior software engineer on the project "Acme Web". Implement the card below fully and verify it. Keep the change focused on this card, follow the conventions of the codebase, run the tests, add the ones that are missing, and check the result against the card before you report it done.

      ## Card

      - Ref: WEB-12
      - Title: Fix login redirect loop
      - Priority: urgent
      - Labels: Bug, security

      ## Description

      After the OAuth callback, users land on /login again.

      Seen on Safari only.

      ## Focus areas

      - Urgent: ship the smallest safe change first and leave clean-ups to follow-up cards.
      - Security: threat-model the change first (who can reach it, what input they control, what they could read or change), check authorisation on every path, and never log secrets or personal data.
      - Bug: reproduce it first and write down the steps, find the root cause rather than the symptom, and add a regression test that fails before the fix and passes after.

      ## Subtasks (1 of 3 done)

      - [x] Reproduce on Safari
      - [ ] Write regression test
      - [ ] Fix cookie SameSite flag

      ## Linked cards

      - **Blocker:** blocked by WEB-3 "Upgrade auth library". WEB-12 cannot be finished until WEB-3 is done.
      - Blocks WEB-20 "Launch v2": that card waits for this one.
      - Part of WEB-1 "Auth epic"
      - Duplicated by WEB-30 "Login loops forever"
      - Relates to WEB-7 "Session timeout"

      ## References

      - OAuth 2.0 Security Best Current Practice: https://datatracker.ietf.org/doc/html/rfc9700
        Section 4.1 covers redirect handling.
      - https://web.dev/articles/samesite-cookies-explained

      ## Before you report done

      - [ ] Confirm the blockers (WEB-3) are resolved, or stop and report
      - [ ] Every open subtask is done
      - [ ] A regression test fails without the fix and passes with it
      - [ ] Authorisation checked on every path; no secrets in logs
      - [ ] Tests added or updated, and the full suite passes
      - [ ] Type checks and linters pass
      - [ ] Summarise what changed, how you verified it, and anything left for follow-up
      "
    `)
  })
})

describe("buildPrompt on a bare card", () => {
  it("analysis", () => {
    expect(buildPrompt(bare, "analysis")).toMatchInlineSnapshot(`
      "# Analyse OPS-1

      You are a senior software engineer on the project "Ops". Analyse the card below and plan the work; do not change any code yet. Understand the problem, find the code and data it touches, name the risks and open questions, and propose an ordered plan.

      ## Card

      - Ref: OPS-1
      - Title: Tidy the wiki
      - Priority: medium

      ## Your analysis should cover

      - [ ] Restate the problem in your own words and list the open questions
      - [ ] Identify the code, data and users affected
      - [ ] Propose an ordered plan with its risks and a rough size
      "
    `)
  })

  it("draft", () => {
    expect(buildPrompt(bare, "draft")).toMatchInlineSnapshot(`
      "# Design a solution for OPS-1

      You are a senior software engineer on the project "Ops". Design a solution for the card below. Propose a concrete design: the components and files to change, interface and data changes, and how it will be tested. Weigh at least one alternative. Sketch code only where it makes the design clearer; do not implement it fully.

      ## Card

      - Ref: OPS-1
      - Title: Tidy the wiki
      - Priority: medium

      ## Your design should cover

      - [ ] The design covers the description
      - [ ] Alternatives considered, with the reason for the choice
      - [ ] Interface, data and migration changes spelled out
      - [ ] Test plan, including edge cases
      - [ ] Risks, rollout and rollback
      "
    `)
  })

  it("execute", () => {
    expect(buildPrompt(bare, "execute")).toMatchInlineSnapshot(`
      "# Implement OPS-1

      You are a senior software engineer on the project "Ops". Implement the card below fully and verify it. Keep the change focused on this card, follow the conventions of the codebase, run the tests, add the ones that are missing, and check the result against the card before you report it done.

      ## Card

      - Ref: OPS-1
      - Title: Tidy the wiki
      - Priority: medium

      ## Before you report done

      - [ ] Tests added or updated, and the full suite passes
      - [ ] Type checks and linters pass
      - [ ] Summarise what changed, how you verified it, and anything left for follow-up
      "
    `)
  })
})

describe("buildPrompt rules", () => {
  it.each(PROMPT_VARIANTS)("%s leaves out empty sections", (variant) => {
    const prompt = buildPrompt({ ...bare, card: { ...bare.card, description: "  \n " } }, variant)
    for (const absent of [
      "## Description",
      "## Focus areas",
      "## Subtasks",
      "## Linked cards",
      "## References",
      "Labels:"
    ]) {
      expect(prompt).not.toContain(absent)
    }
    expect(prompt).not.toMatch(/##[^\n]*\n\n(?=##|$)/)
  })

  it("does not depend on the order of labels and links", () => {
    const shuffled: PromptInput = {
      ...rich,
      card: { ...rich.card, labels: [...rich.card.labels].reverse() },
      links: [...rich.links].reverse()
    }
    for (const variant of PROMPT_VARIANTS) expect(buildPrompt(shuffled, variant)).toBe(buildPrompt(rich, variant))
  })

  it("calls out an incoming blocks link as a blocker and an outgoing one as blocking", () => {
    const prompt = buildPrompt(rich, "execute")
    expect(prompt).toContain(
      '- **Blocker:** blocked by WEB-3 "Upgrade auth library". WEB-12 cannot be finished until WEB-3 is done.'
    )
    expect(prompt).toContain('- Blocks WEB-20 "Launch v2": that card waits for this one.')
    expect(prompt).toContain("- [ ] Confirm the blockers (WEB-3) are resolved, or stop and report")
  })

  it("orders linked cards by relation, then by ref number", () => {
    const prompt = buildPrompt(
      {
        ...bare,
        links: [
          { direction: "incoming", linkType: "blocks", ref: "WEB-10", title: "Ten" },
          { direction: "outgoing", linkType: "relates_to", ref: "WEB-2", title: "Two" },
          { direction: "incoming", linkType: "blocks", ref: "WEB-9", title: "Nine" },
          { direction: "incoming", linkType: "is_part_of", ref: "WEB-5", title: "Five" }
        ]
      },
      "draft"
    )
    const linked = prompt.split("## Linked cards\n\n")[1].split("\n\n")[0].split("\n")
    expect(linked.map((l) => /WEB-\d+/.exec(l)?.[0])).toEqual(["WEB-9", "WEB-10", "WEB-5", "WEB-2"])
    expect(prompt).toContain("- [ ] What depends on the blockers (WEB-9, WEB-10)")
    expect(prompt).toContain('- Has part WEB-5 "Five"')
  })
})

describe("focusAreas", () => {
  it.each([
    [{ title: "Tidy up", priority: "low", labels: [] }, []],
    [{ title: "Tidy up", priority: "urgent", labels: [] }, ["priority"]],
    [{ title: "Tidy up", priority: "high", labels: ["BUG"] }, ["priority", "bug"]],
    [{ title: "Fix crash on save", priority: "medium", labels: [] }, ["bug"]],
    [{ title: "Prevent XSS in comments", priority: "medium", labels: ["frontend"] }, ["security", "ui"]],
    [{ title: "Pay down", priority: "medium", labels: ["tech-debt"] }, ["refactor"]],
    [{ title: "Speed", priority: "medium", labels: ["Performance", "DB"] }, ["data", "performance"]],
    [{ title: "Add export", priority: "medium", labels: ["feature", "api"] }, ["api", "feature"]],
    [{ title: "Bump React", priority: "medium", labels: ["docs"] }, ["dependencies", "docs"]]
  ] as const)("%j -> %j", (card, ids) => {
    expect(focusAreas(card).map((f) => f.id)).toEqual(ids)
  })
})

describe("buildPrompt with comments", () => {
  const withComments: PromptInput = {
    ...bare,
    comments: {
      latest: [
        { author: "Ada Lovelace", createdAt: "2026-05-01T10:00:00.000Z", body: "Which page?\r\n\r\n- the *old* one" },
        { author: "Test Agent", createdAt: "2026-05-01T10:05:00.000Z", body: `x${"y".repeat(1_500)}` }
      ],
      total: 12
    }
  }

  it("quotes the latest comments in every variant, after the card, with author and time, long bodies cut", () => {
    for (const variant of PROMPT_VARIANTS) {
      const prompt = buildPrompt(withComments, variant)
      const section = prompt.slice(prompt.indexOf("## Comments"))
      expect(section).toMatch(
        /^## Comments \(the latest 2 of 12, oldest first\)\n\n\*\*Ada Lovelace\*\*, 2026-05-01T10:00:00\.000Z:\n> Which page\?\n>\n> - the \*old\* one\n\n\*\*Test Agent\*\*, 2026-05-01T10:05:00\.000Z:\n> xy{999}…\n\n## /
      )
    }
  })

  it("leaves the section out without comments, and says nothing of a total when all are shown", () => {
    expect(buildPrompt({ ...bare, comments: { latest: [], total: 0 } }, "execute")).toBe(buildPrompt(bare, "execute"))
    const all = buildPrompt({ ...bare, comments: { latest: withComments.comments!.latest, total: 2 } }, "draft")
    expect(all).toContain("## Comments (oldest first)\n")
  })
})
