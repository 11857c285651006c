import { compareRefs } from "../links/boardIndex.ts"
import { focusAreas } from "./focusAreas.ts"
import type { PromptCardLink, PromptComment, PromptInput, PromptReference, PromptVariant } from "./types.ts"
import { checklist, checklistTitle, heading, roleFraming } from "./variants.ts"

export type {
  CardLinkType,
  Priority,
  PromptCardLink,
  PromptComment,
  PromptInput,
  PromptReference,
  PromptSubtask,
  PromptVariant
} from "./types.ts"
export { PROMPT_VARIANTS } from "./types.ts"

// Titles and notes end up inside list items; a stray newline would break the list.
const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim()

const quoted = (title: string): string => `"${oneLine(title)}"`

type Relation = "blocked_by" | "blocks" | "part_of" | "has_part" | "duplicates" | "duplicated_by" | "relates_to"

// Blockers first: they decide whether the work can start at all.
const RELATION_ORDER: ReadonlyArray<Relation> = [
  "blocked_by",
  "blocks",
  "part_of",
  "has_part",
  "duplicates",
  "duplicated_by",
  "relates_to"
]

const relationOf = (link: PromptCardLink): Relation => {
  const outgoing = link.direction === "outgoing"
  switch (link.linkType) {
    case "blocks":
      return outgoing ? "blocks" : "blocked_by"
    case "is_part_of":
      return outgoing ? "part_of" : "has_part"
    case "duplicates":
      return outgoing ? "duplicates" : "duplicated_by"
    case "relates_to":
      return "relates_to"
  }
}

const linkLine = (self: string, link: PromptCardLink, relation: Relation): string => {
  const other = `${oneLine(link.ref)} ${quoted(link.title)}`
  switch (relation) {
    case "blocked_by":
      return `- **Blocker:** blocked by ${other}. ${self} cannot be finished until ${oneLine(link.ref)} is done.`
    case "blocks":
      return `- Blocks ${other}: that card waits for this one.`
    case "part_of":
      return `- Part of ${other}`
    case "has_part":
      return `- Has part ${other}`
    case "duplicates":
      return `- Duplicates ${other}: check whether this card is still needed.`
    case "duplicated_by":
      return `- Duplicated by ${other}`
    case "relates_to":
      return `- Relates to ${other}`
  }
}

const sortedLinks = (links: ReadonlyArray<PromptCardLink>) =>
  links
    .map((link) => ({ link, relation: relationOf(link) }))
    .sort(
      (a, b) =>
        RELATION_ORDER.indexOf(a.relation) - RELATION_ORDER.indexOf(b.relation) ||
        compareRefs(a.link.ref, b.link.ref) ||
        (a.link.title < b.link.title ? -1 : a.link.title > b.link.title ? 1 : 0)
    )

const referenceItem = (reference: PromptReference): string => {
  const title = reference.title === null ? "" : oneLine(reference.title)
  const note = reference.note === null ? "" : oneLine(reference.note)
  const head = title === "" ? `- ${reference.url}` : `- ${title}: ${reference.url}`
  return note === "" ? head : `${head}\n  ${note}`
}

const section = (title: string, body: string): string => `## ${title}\n\n${body}`

/** A comment's body in the prompt, at most: the latest comments inform the work, they do not replace the card. */
export const PROMPT_COMMENT_CHARS = 1_000

/** A comment as a quoted block under its author and time, so its Markdown cannot break the prompt's own. */
const commentItem = (comment: PromptComment): string => {
  const chars = Array.from(comment.body.replace(/\r\n?/g, "\n").trim())
  const body =
    chars.length > PROMPT_COMMENT_CHARS ? `${chars.slice(0, PROMPT_COMMENT_CHARS).join("")}…` : chars.join("")
  const quotedBody = body
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n")
  return `**${oneLine(comment.author)}**, ${comment.createdAt}:\n${quotedBody}`
}

const byName = (a: string, b: string): number => {
  const la = a.toLowerCase()
  const lb = b.toLowerCase()
  return la < lb ? -1 : la > lb ? 1 : a < b ? -1 : a > b ? 1 : 0
}

/**
 * A Markdown prompt that hands one card to a coding agent. Same input, same
 * text: nothing depends on the clock or on the order labels and links were
 * loaded in. Sections with nothing to say are left out.
 */
export const buildPrompt = (input: PromptInput, variant: PromptVariant): string => {
  const { card } = input
  const ref = oneLine(card.ref)
  const labels = card.labels
    .map(oneLine)
    .filter((l) => l !== "")
    .sort(byName)
  const description = (card.description ?? "").replace(/\r\n?/g, "\n").trim()
  const focus = focusAreas({ title: card.title, priority: card.priority, labels })
  const links = sortedLinks(input.links)
  const blockers = links.filter((l) => l.relation === "blocked_by").map((l) => oneLine(l.link.ref))
  const done = card.subtasks.filter((s) => s.completed).length

  const sections: Array<string> = [
    heading(variant, ref),
    roleFraming(variant, oneLine(input.project.name)),
    section(
      "Card",
      [
        `- Ref: ${ref}`,
        `- Title: ${oneLine(card.title)}`,
        `- Priority: ${card.priority}`,
        ...(labels.length > 0 ? [`- Labels: ${labels.join(", ")}`] : [])
      ].join("\n")
    )
  ]
  if (description !== "") sections.push(section("Description", description))
  if (focus.length > 0) sections.push(section("Focus areas", focus.map((f) => `- ${f.text}`).join("\n")))
  if (card.subtasks.length > 0) {
    sections.push(
      section(
        `Subtasks (${done} of ${card.subtasks.length} done)`,
        card.subtasks.map((s) => `- [${s.completed ? "x" : " "}] ${oneLine(s.title)}`).join("\n")
      )
    )
  }
  if (links.length > 0) {
    sections.push(section("Linked cards", links.map((l) => linkLine(ref, l.link, l.relation)).join("\n")))
  }
  if (input.references.length > 0) {
    sections.push(section("References", input.references.map(referenceItem).join("\n")))
  }
  const comments = input.comments
  if (comments !== undefined && comments.latest.length > 0) {
    const title =
      comments.total > comments.latest.length
        ? `Comments (the latest ${comments.latest.length} of ${comments.total}, oldest first)`
        : "Comments (oldest first)"
    sections.push(section(title, comments.latest.map(commentItem).join("\n\n")))
  }
  const items = checklist(variant, {
    blockers,
    openSubtasks: card.subtasks.length - done,
    isBug: focus.some((f) => f.id === "bug"),
    isSecurity: focus.some((f) => f.id === "security"),
    hasReferences: input.references.length > 0
  })
  sections.push(section(checklistTitle(variant), items.map((item) => `- [ ] ${item}`).join("\n")))
  return `${sections.join("\n\n")}\n`
}
