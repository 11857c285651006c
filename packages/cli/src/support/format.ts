/** Human text for the API's resources; --json prints the resources themselves instead. */
import { priorityTag } from "./boardView.ts"
import { type Style, table } from "./output.ts"
import { actorLabel, memberLabel } from "./events.ts"
import type { BoardView, Card, CardLink, CommandResult, Member, ProjectLink, PullRequest } from "./types.ts"

export const examples = (...lines: ReadonlyArray<string>) => `\nExamples:\n${lines.map((l) => `  ${l}`).join("\n")}\n`

export const columnName = (board: BoardView | undefined, columnId: string) =>
  board?.columns.find((c) => c.id === columnId)?.name ?? columnId

/** `WEB-3  In Progress  high  Fix login` */
export const cardRows = (cards: ReadonlyArray<Card>, style: Style, board?: BoardView) =>
  table(
    cards.map((c) => [
      style.cyan(c.ref),
      ...(board !== undefined ? [columnName(board, c.columnId)] : []),
      priorityTag(c.priority, style) || style.dim(c.priority),
      c.title
    ]),
    style
  )

export const linkPhrase = (link: CardLink) => {
  const verb = {
    relates_to: ["relates to", "relates to"],
    blocks: ["blocks", "is blocked by"],
    duplicates: ["duplicates", "is duplicated by"],
    is_part_of: ["is part of", "has part"]
  }[link.linkType]
  return link.direction === "outgoing" ? verb[0] : verb[1]
}

export const cardDetails = (
  card: Card,
  board: BoardView | undefined,
  links: ReadonlyArray<CardLink>,
  style: Style,
  members: ReadonlyArray<Member> = [],
  pullRequests: ReadonlyArray<PullRequest> = []
): string => {
  const names = new Map(members.map((m) => [m.userId as string, m.fullName || m.email] as const))
  const byId = new Map(members.map((m) => [m.userId as string, m] as const))
  const out = [
    `${style.bold(style.cyan(card.ref))}  ${style.bold(card.title)}`,
    `${style.dim("column")}    ${columnName(board, card.columnId)} (position ${card.position})`,
    `${style.dim("priority")}  ${priorityTag(card.priority, style) || card.priority}`
  ]
  if (board !== undefined) out.push(`${style.dim("project")}   ${board.project.name}`)
  if (card.labels.length > 0)
    out.push(`${style.dim("labels")}    ${card.labels.map((l) => style.magenta(l.name)).join(", ")}`)
  if (card.dueAt !== null) out.push(`${style.dim("due")}       ${card.dueAt}`)
  // by name, an agent member with its mark; an id no member has (a former member) as the id
  if (card.assigneeIds.length > 0) {
    const named = card.assigneeIds.map((id) => {
      const m = byId.get(id)
      return m === undefined ? id : memberLabel(m)
    })
    out.push(`${style.dim("assignees")} ${named.join(", ")}`)
  }
  if (card.claim !== null)
    out.push(`${style.dim("claimed")}   by ${actorLabel(card.claim.actor, names)} until ${card.claim.leaseExpiresAt}`)
  if (card.source !== "api" && card.source !== "") out.push(`${style.dim("source")}    ${card.source}`)
  if (card.shippedAt !== null)
    out.push(`${style.dim("shipped")}   ${style.green(`to ${card.shippedTo}`)} at ${card.shippedAt}`)
  out.push(`${style.dim("id")}        ${card.id}`)
  if (card.description !== null && card.description !== "") out.push("", card.description)
  if (card.subtasks.length > 0) {
    out.push("", style.bold("Subtasks"))
    for (const [i, s] of card.subtasks.entries()) out.push(`  ${i + 1}. [${s.completed ? "x" : " "}] ${s.title}`)
  }
  if (links.length > 0) {
    out.push("", style.bold("Links"))
    for (const l of links) out.push(`  ${linkPhrase(l)} ${style.cyan(l.card.ref)} ${l.card.title}  ${style.dim(l.id)}`)
  }
  if (pullRequests.length > 0) {
    out.push("", style.bold("Pull requests"))
    for (const pr of pullRequests) out.push(`  ${pullRequestLine(pr, style)}`)
  }
  return out.join("\n")
}

/** `#42 Handle empty passwords  merged · checks success · approved · closes  https://…` */
export const pullRequestLine = (pr: PullRequest, style: Style): string => {
  const state = pr.state === "merged" ? style.magenta(pr.state) : pr.state === "open" ? style.green(pr.state) : pr.state
  const checks =
    pr.checks === null
      ? []
      : [
          `checks ${pr.checks === "failure" ? style.red(pr.checks) : pr.checks === "success" ? style.green(pr.checks) : pr.checks}`
        ]
  const review =
    pr.review === null
      ? []
      : [pr.review === "changes_requested" ? style.red("changes requested") : style.green("approved")]
  return `#${pr.number} ${pr.title}  ${[state, ...checks, ...review, ...(pr.closes ? ["closes"] : [])].join(" · ")}  ${style.dim(pr.url)}`
}

export const projectLinkRows = (links: ReadonlyArray<ProjectLink>, style: Style) =>
  table(
    links.map((l) => [
      l.relevance === null ? style.dim("unrated") : l.relevance === "high" ? style.green(l.relevance) : l.relevance,
      l.title ?? "",
      l.url,
      style.dim(l.id)
    ]),
    style
  )

export const projectLinkDetails = (link: ProjectLink, style: Style) => {
  const out = [
    style.bold(link.title ?? link.url),
    `${style.dim("url")}        ${link.url}`,
    `${style.dim("relevance")}  ${link.relevance ?? "unrated"}${link.score !== null ? ` (score ${link.score.toFixed(2)})` : ""}${
      link.evaluation_source !== null ? `, by ${link.evaluation_source}` : ""
    }`
  ]
  if (link.tags.length > 0) out.push(`${style.dim("tags")}       ${link.tags.join(", ")}`)
  if (link.note !== null) out.push(`${style.dim("note")}       ${link.note}`)
  if (link.reviewReason !== null) out.push(`${style.dim("reason")}     ${link.reviewReason}`)
  for (const e of link.evidence ?? []) out.push(`${style.dim("evidence")}   ${e.detail}`)
  out.push(`${style.dim("id")}         ${link.id}`)
  return out.join("\n")
}

/** What `board do` did, in a line or a list: the intent says what the result is. */
export const commandResultText = (r: CommandResult, style: Style): string => {
  switch (r.intent) {
    case "search":
      return r.result.cards.length === 0 ? "" : cardRows(r.result.cards, style)
    case "delete_card":
      return `deleted ${r.result.deleted.ref}`
    case "link_cards":
      return `${linkPhrase(r.result)} ${r.result.card.ref}`
    default:
      return `${style.cyan(r.result.ref)}  ${r.result.title}`
  }
}
