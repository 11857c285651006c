import type { Priority } from "./types.ts"

export type FocusId =
  | "security"
  | "bug"
  | "data"
  | "performance"
  | "api"
  | "ui"
  | "refactor"
  | "tests"
  | "dependencies"
  | "operations"
  | "docs"
  | "feature"
  | "priority"

export interface FocusArea {
  readonly id: FocusId
  readonly text: string
}

interface FocusRule {
  readonly id: FocusId
  /** Matched against whole label names and the words inside them. */
  readonly labels: ReadonlyArray<string>
  /** Matched against the words of the card title; narrower, since titles are prose. */
  readonly titleWords: ReadonlyArray<string>
  readonly text: string
}

// Order is the order in the prompt: the most safety-relevant advice comes first.
const RULES: ReadonlyArray<FocusRule> = [
  {
    id: "security",
    labels: ["security", "vulnerability", "auth", "authentication", "authorization", "privacy", "cve"],
    titleWords: ["security", "vulnerability", "xss", "csrf", "injection", "cve", "permission", "permissions"],
    text:
      "Security: threat-model the change first (who can reach it, what input they control, what they " +
      "could read or change), check authorisation on every path, and never log secrets or personal data."
  },
  {
    id: "bug",
    labels: ["bug", "defect", "regression", "incident", "hotfix"],
    titleWords: ["bug", "fix", "crash", "crashes", "broken", "regression", "fails", "failing"],
    text:
      "Bug: reproduce it first and write down the steps, find the root cause rather than the symptom, " +
      "and add a regression test that fails before the fix and passes after."
  },
  {
    id: "data",
    labels: ["database", "db", "migration", "schema", "sql", "data"],
    titleWords: ["migration", "migrate", "schema", "database"],
    text:
      "Data: keep migrations additive or reversible and safe on a live table, and check them against " +
      "realistic data volumes."
  },
  {
    id: "performance",
    labels: ["performance", "perf", "latency", "scalability"],
    titleWords: ["slow", "performance", "latency", "speed", "faster", "timeout", "timeouts"],
    text: "Performance: measure before and after with a repeatable benchmark and report the numbers."
  },
  {
    id: "api",
    labels: ["api", "backend", "integration"],
    titleWords: ["api", "endpoint", "webhook"],
    text:
      "API: keep the contract backward compatible, validate input at the boundary, and update the " +
      "API documentation."
  },
  {
    id: "ui",
    labels: ["frontend", "ui", "ux", "design", "accessibility", "a11y"],
    titleWords: ["ui", "page", "screen", "button", "layout", "accessibility"],
    text: "UI: cover the loading, empty and error states, and check keyboard and screen-reader access."
  },
  {
    id: "refactor",
    labels: ["refactor", "refactoring", "tech-debt", "debt", "cleanup", "chore"],
    titleWords: ["refactor", "cleanup", "simplify", "extract"],
    text:
      "Refactor: keep behaviour unchanged; add characterisation tests where coverage is thin before " + "moving code."
  },
  {
    id: "tests",
    labels: ["test", "tests", "testing", "flaky", "qa"],
    titleWords: ["flaky", "test", "tests"],
    text:
      "Tests: make them deterministic (no sleeps, real clocks or shared state) and fix the cause of " +
      "flakiness rather than retrying."
  },
  {
    id: "dependencies",
    labels: ["dependencies", "dependency", "deps", "upgrade"],
    titleWords: ["upgrade", "bump", "dependency", "dependencies"],
    text: "Dependencies: read the changelogs for breaking changes and upgrade one thing at a time."
  },
  {
    id: "operations",
    labels: ["infra", "infrastructure", "ci", "devops", "deploy", "ops"],
    titleWords: ["deploy", "deployment", "pipeline", "ci", "infrastructure"],
    text: "Operations: make the change observable and know the rollback before rolling out."
  },
  {
    id: "docs",
    labels: ["docs", "documentation"],
    titleWords: ["docs", "documentation", "readme"],
    text: "Docs: keep examples runnable and in step with the code they describe."
  },
  {
    id: "feature",
    labels: ["feature", "enhancement", "story"],
    titleWords: [],
    text: "Feature: pin down the acceptance criteria before building and cover the edge cases with tests."
  }
]

const PRIORITY_FOCUS: Partial<Record<Priority, string>> = {
  urgent: "Urgent: ship the smallest safe change first and leave clean-ups to follow-up cards.",
  high: "High priority: keep the scope tight and flag early anything that could delay delivery."
}

const words = (text: string): Set<string> =>
  new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== "")
  )

/** Advice that fits the card, in a fixed order; empty when nothing applies. */
export const focusAreas = (card: {
  readonly title: string
  readonly priority: Priority
  readonly labels: ReadonlyArray<string>
}): Array<FocusArea> => {
  const labelKeys = new Set<string>()
  for (const label of card.labels) {
    labelKeys.add(label.trim().toLowerCase())
    for (const word of words(label)) labelKeys.add(word)
  }
  const titleWords = words(card.title)
  const fromRules = RULES.filter(
    (rule) => rule.labels.some((l) => labelKeys.has(l)) || rule.titleWords.some((w) => titleWords.has(w))
  ).map((rule): FocusArea => ({ id: rule.id, text: rule.text }))
  const fromPriority = PRIORITY_FOCUS[card.priority]
  return fromPriority === undefined ? fromRules : [{ id: "priority", text: fromPriority }, ...fromRules]
}
