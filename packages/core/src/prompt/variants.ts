import type { PromptVariant } from "./types.ts"

/** What the closing checklist needs to know about the card. */
export interface ChecklistContext {
  readonly blockers: ReadonlyArray<string>
  readonly openSubtasks: number
  readonly isBug: boolean
  readonly isSecurity: boolean
  readonly hasReferences: boolean
}

export const heading = (variant: PromptVariant, ref: string): string => {
  switch (variant) {
    case "analysis":
      return `# Analyse ${ref}`
    case "draft":
      return `# Design a solution for ${ref}`
    case "execute":
      return `# Implement ${ref}`
  }
}

export const roleFraming = (variant: PromptVariant, project: string): string => {
  const who = `You are a senior software engineer on the project "${project}".`
  switch (variant) {
    case "analysis":
      return (
        `${who} Analyse the card below and plan the work; do not change any code yet. ` +
        "Understand the problem, find the code and data it touches, name the risks and open questions, " +
        "and propose an ordered plan."
      )
    case "draft":
      return (
        `${who} Design a solution for the card below. Propose a concrete design: the components ` +
        "and files to change, interface and data changes, and how it will be tested. Weigh at least one " +
        "alternative. Sketch code only where it makes the design clearer; do not implement it fully."
      )
    case "execute":
      return (
        `${who} Implement the card below fully and verify it. Keep the change focused on this card, ` +
        "follow the conventions of the codebase, run the tests, add the ones that are missing, and check " +
        "the result against the card before you report it done."
      )
  }
}

export const checklistTitle = (variant: PromptVariant): string => {
  switch (variant) {
    case "analysis":
      return "Your analysis should cover"
    case "draft":
      return "Your design should cover"
    case "execute":
      return "Before you report done"
  }
}

const when = (condition: boolean, item: string): ReadonlyArray<string> => (condition ? [item] : [])

export const checklist = (variant: PromptVariant, ctx: ChecklistContext): Array<string> => {
  const blockers = ctx.blockers.join(", ")
  switch (variant) {
    case "analysis":
      return [
        "Restate the problem in your own words and list the open questions",
        "Identify the code, data and users affected",
        ...when(ctx.isBug, "Describe how to reproduce the bug and where the root cause is likely to be"),
        ...when(ctx.isSecurity, "Outline the threat model: assets, attackers, entry points"),
        ...when(ctx.blockers.length > 0, `Explain how the blockers (${blockers}) constrain the plan`),
        ...when(ctx.openSubtasks > 0, "Map every open subtask onto a step of the plan"),
        ...when(ctx.hasReferences, "Note what the references add or rule out"),
        "Propose an ordered plan with its risks and a rough size"
      ]
    case "draft":
      return [
        `The design covers the description${ctx.openSubtasks > 0 ? " and every open subtask" : ""}`,
        "Alternatives considered, with the reason for the choice",
        "Interface, data and migration changes spelled out",
        ...when(ctx.isSecurity, "Threat model and the controls the design adds"),
        ...when(ctx.isBug, "How the design removes the root cause, not just the symptom"),
        ...when(ctx.blockers.length > 0, `What depends on the blockers (${blockers})`),
        "Test plan, including edge cases",
        "Risks, rollout and rollback"
      ]
    case "execute":
      return [
        ...when(ctx.blockers.length > 0, `Confirm the blockers (${blockers}) are resolved, or stop and report`),
        ...when(ctx.openSubtasks > 0, "Every open subtask is done"),
        ...when(ctx.isBug, "A regression test fails without the fix and passes with it"),
        ...when(ctx.isSecurity, "Authorisation checked on every path; no secrets in logs"),
        "Tests added or updated, and the full suite passes",
        "Type checks and linters pass",
        "Summarise what changed, how you verified it, and anything left for follow-up"
      ]
  }
}
