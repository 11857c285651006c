/**
 * The compact text of tool results: what a model reads first, one line per item, ids only where
 * the next call needs them. The structured content beside it carries every field.
 */
import type {
  BoardView,
  Comment,
  CardLinkView,
  CardView,
  CommandResult,
  EventPage,
  LinkPage,
  ProjectLinkView,
  ProjectView,
  PullRequest,
  SubtaskView,
  WorkspaceView
} from "@board/core"

const q = (text: string): string => JSON.stringify(text)

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** `WEB-3 "Fix login" [high] {bug, ui} (1/3 subtasks)` */
export const cardLine = (card: CardView): string => {
  const labels = card.labels.length > 0 ? ` {${card.labels.map((l) => l.name).join(", ")}}` : ""
  const done = card.subtasks.filter((s) => s.completed).length
  const subtasks = card.subtasks.length > 0 ? ` (${done}/${card.subtasks.length} subtasks)` : ""
  const shipped = card.shippedTo === null ? "" : ` (shipped to ${card.shippedTo})`
  return `${card.ref} ${q(card.title)} [${card.priority}]${labels}${subtasks}${shipped}`
}

/** `#42 "Handle empty passwords" merged, checks failure, changes_requested, closes the card: https://…` */
export const pullRequestLine = (pr: PullRequest): string =>
  `#${pr.number} ${q(pr.title)} ${[
    pr.state,
    ...(pr.checks === null ? [] : [`checks ${pr.checks}`]),
    ...(pr.review === null ? [] : [pr.review]),
    ...(pr.closes ? ["closes the card"] : [])
  ].join(", ")}: ${pr.url}`

export const subtaskLine = (s: SubtaskView): string => `[${s.completed ? "x" : " "}] ${q(s.title)} (id ${s.id})`

export const linkLine = (l: CardLinkView): string =>
  l.direction === "outgoing"
    ? `this card ${l.linkType} ${l.card.ref} ${q(l.card.title)}`
    : `${l.card.ref} ${q(l.card.title)} ${l.linkType} this card`

export const workspacesText = (workspaces: ReadonlyArray<WorkspaceView>): string =>
  workspaces.length === 0
    ? "You have no workspaces."
    : [
        `${plural(workspaces.length, "workspace")}:`,
        ...workspaces.map((w) => `- ${q(w.name)} (id ${w.id}, ${w.role})`)
      ].join("\n")

export const projectsText = (projects: ReadonlyArray<ProjectView>): string =>
  projects.length === 0
    ? "This workspace has no projects."
    : [
        `${plural(projects.length, "project")}:`,
        ...projects.map((p) => `- ${q(p.name)} (id ${p.id}, refs ${p.refPrefix}-n)`)
      ].join("\n")

export const boardText = (board: BoardView): string => {
  const lines = [
    `Board ${q(board.project.name)} (project ${board.project.id}): ${plural(board.columns.length, "column")}, ${plural(board.cards.length, "card")}`
  ]
  for (const column of board.columns) {
    const cards = board.cards.filter((c) => c.columnId === column.id)
    lines.push(`${column.name} [${column.kind}] (${cards.length}):`)
    for (const card of cards) lines.push(`  ${cardLine(card)}`)
  }
  if (board.labels.length > 0) lines.push(`Labels: ${board.labels.map((l) => l.name).join(", ")}`)
  return lines.join("\n")
}

/** `Ann Lee (agent), 2026-05-01T10:00:00.000Z: the body` on one line, cut at `max` characters. */
export const commentLine = (c: Comment, max = 500): string => {
  const who = `${c.author.name ?? c.author.type}${c.author.type === "user" ? "" : ` (${c.author.type})`}`
  const body = Array.from(c.body.replace(/\s+/g, " ").trim())
  return `${who}, ${c.createdAt}: ${body.length > max ? `${body.slice(0, max).join("")}…` : body.join("")}`
}

export const cardText = (
  card: CardView,
  column: string | undefined,
  links: ReadonlyArray<CardLinkView> = [],
  comments?: { readonly comments: ReadonlyArray<Comment>; readonly total: number },
  pullRequests: ReadonlyArray<PullRequest> = []
): string => {
  const lines = [
    `${cardLine(card)}${column === undefined ? "" : ` in ${q(column)}`}`,
    `id ${card.id}, project ${card.projectId}`
  ]
  if (card.archivedAt !== null) lines.push(`Archived ${card.archivedAt} (off the board; restore_card brings it back)`)
  if (card.assigneeIds.length > 0) lines.push(`Assignees (user ids): ${card.assigneeIds.join(", ")}`)
  if (card.dueAt !== null) lines.push(`Due: ${card.dueAt}`)
  if (card.description !== null && card.description !== "") lines.push(`Description: ${card.description}`)
  if (card.subtasks.length > 0) lines.push("Subtasks:", ...card.subtasks.map((s) => `  ${subtaskLine(s)}`))
  if (links.length > 0) lines.push("Links:", ...links.map((l) => `  ${linkLine(l)}`))
  if (card.shippedAt !== null) lines.push(`Shipped to ${card.shippedTo} at ${card.shippedAt}`)
  if (pullRequests.length > 0) lines.push("Pull requests:", ...pullRequests.map((p) => `  ${pullRequestLine(p)}`))
  if (comments !== undefined && comments.comments.length > 0) {
    const shown = comments.comments.length
    lines.push(
      shown < comments.total ? `Comments (the latest ${shown} of ${comments.total}):` : "Comments:",
      ...comments.comments.map((c) => `  ${commentLine(c)}`)
    )
  }
  return lines.join("\n")
}

export const cardsText = (cards: ReadonlyArray<CardView>, what: string): string =>
  cards.length === 0
    ? `No card matches ${what}.`
    : [`${plural(cards.length, "card")} match ${what}:`, ...cards.map((c) => `- ${cardLine(c)} (id ${c.id})`)].join(
        "\n"
      )

export const columnName = (
  columns: ReadonlyArray<{ readonly id: string; readonly name: string }>,
  id: string
): string | undefined => columns.find((c) => c.id === id)?.name

const projectLinkLine = (l: ProjectLinkView): string =>
  `- [${l.relevance ?? "unrated"}] ${l.url}${l.title === null ? "" : ` ${q(l.title)}`}${l.tags.length > 0 ? ` #${l.tags.join(" #")}` : ""} (id ${l.id})`

export const submittedText = (created: boolean, link: ProjectLinkView): string =>
  `${created ? "Stored" : "Already stored"}: ${link.normalizedUrl}, relevance ${link.relevance ?? "unrated"}` +
  `${link.score === null ? "" : ` (score ${link.score})`} (id ${link.id})`

export const linkPageText = (page: LinkPage): string =>
  page.links.length === 0
    ? `No links (${page.total} in all).`
    : [
        `Links ${page.offset + 1}-${page.offset + page.links.length} of ${page.total}:`,
        ...page.links.map(projectLinkLine)
      ].join("\n")

export const commandText = (result: CommandResult): string => {
  const done = result.actions.length === 0 ? "nothing changed" : result.actions.map((a) => a.type).join(", ")
  const lines = [`Understood as ${result.intent}: ${done}.`]
  switch (result.intent) {
    case "search":
      lines.push(...result.result.cards.map((c) => `- ${cardLine(c)} (id ${c.id})`))
      break
    case "link_cards":
      lines.push(linkLine(result.result))
      break
    case "delete_card":
      break
    default:
      lines.push(cardLine(result.result))
  }
  return lines.join("\n")
}

/** One event a line, oldest first, and the cursor for the next call. */
export const eventsText = (page: EventPage, what: string): string => {
  if (page.events.length === 0) return `No ${what} events${page.next === null ? "" : " on this page"}.`
  const lines = page.events.map((e) => {
    const o = (e.data.object ?? {}) as Record<string, unknown>
    const name = typeof o.title === "string" ? o.title : typeof o.name === "string" ? o.name : ""
    const ref = typeof o.ref === "string" ? `${o.ref} ` : ""
    return `${e.id} ${e.createdAt} ${e.type} by ${e.actor.name ?? e.actor.type}: ${ref}${q(name)}`
  })
  const more =
    page.next === null
      ? `That is all; pass after: "${page.events.at(-1)!.id}" later for newer events.`
      : `More: pass after: "${page.next}".`
  return `${plural(page.events.length, "event")} ${what}:\n${lines.join("\n")}\n${more}`
}

/** `Session 3f…: WEB-3 active, lease until 2026-…Z` */
export const sessionLine = (s: { id: string; status: string; leaseExpiresAt: string }, ref: string): string =>
  `Session ${s.id} on ${ref}: ${s.status}, lease until ${s.leaseExpiresAt}.`
