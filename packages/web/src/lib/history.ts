/**
 * A card's history (`GET /v1/cards/{id}/history`) as sentences a person reads: "Ada moved WEB-3
 * from To Do to Doing". Events carry the resource after the change (`data.object`) and the
 * changed fields' old values (`data.previous`); column and member names come from the board.
 */
import type { BoardEvent } from "../types.ts"
import { actorText } from "./actors.ts"

export interface HistoryNames {
  readonly columns: ReadonlyMap<string, string>
  readonly members: ReadonlyMap<string, string>
  /** The agent members' ids (issue 30): an assigned agent reads "Claude (agent)". */
  readonly agents?: ReadonlySet<string>
}

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj => (v !== null && typeof v === "object" ? (v as Obj) : {})
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined)

const FIELD_NAMES: Record<string, string> = {
  title: "title",
  description: "description",
  priority: "priority",
  dueAt: "due date",
  assigneeIds: "assignees"
}

const labelNames = (v: unknown): Array<string> => (Array.isArray(v) ? v.map((l) => str(obj(l).name) ?? "?") : [])

const quoted = (s: string | undefined) => (s === undefined ? "" : ` “${s}”`)

/** One event of a card's history as a sentence (without the time, which the list shows). */
export const describeEvent = (event: BoardEvent, names: HistoryNames): string => {
  // an agent reads "Claude (agent for Ada)", never "Claude" alone (lib/actors.ts)
  const who = actorText(event.actor, names.members)
  const object = obj(event.data.object)
  const previous = obj(event.data.previous)
  const ref = str(object.ref) ?? str(obj(object.card).ref) ?? "the card"
  const column = (id: unknown) => (typeof id === "string" ? (names.columns.get(id) ?? "a deleted column") : "?")
  switch (event.type) {
    case "card.created":
      return `${who} created ${ref} in ${column(object.columnId)}`
    case "card.moved":
      // a forge's automation: "WEB-12 was moved to Done by GitHub (acme/web#42 merged)"
      if (event.actor.type === "system" && event.actor.name !== undefined && typeof previous.columnId === "string") {
        const cause = obj((event.data as Obj).cause)
        const why =
          typeof cause.repository === "string" && typeof cause.number === "number"
            ? ` (${cause.repository}#${cause.number} ${str(cause.action) ?? "changed"})`
            : ""
        return `${ref} was moved to ${column(object.columnId)} by ${who}${why}`
      }
      if (typeof previous.columnId === "string")
        return `${who} moved ${ref} from ${column(previous.columnId)} to ${column(object.columnId)}`
      return `${who} reordered ${ref} in ${column(object.columnId)}`
    case "card.updated": {
      const fields = Object.keys(previous)
        .map((f) => FIELD_NAMES[f] ?? f)
        .filter((f) => f !== "")
      if (previous.priority !== undefined && fields.length === 1)
        return `${who} changed the priority of ${ref} from ${String(previous.priority)} to ${String(object.priority)}`
      if (previous.title !== undefined && fields.length === 1)
        return `${who} renamed ${ref} from “${String(previous.title)}” to “${String(object.title)}”`
      return fields.length === 0 ? `${who} edited ${ref}` : `${who} changed the ${fields.join(", ")} of ${ref}`
    }
    case "card.assigned": {
      const before = new Set(Array.isArray(previous.assigneeIds) ? (previous.assigneeIds as Array<string>) : [])
      const after = Array.isArray(object.assigneeIds) ? (object.assigneeIds as Array<string>) : []
      const added = after.filter((id) => !before.has(id))
      const removed = [...before].filter((id) => !after.includes(id))
      const name = (id: string) => {
        const n = names.members.get(id) ?? "a former member"
        return names.agents?.has(id) === true ? `${n} (agent)` : n
      }
      const parts: Array<string> = []
      if (added.length > 0) parts.push(`assigned ${added.map(name).join(", ")}`)
      if (removed.length > 0) parts.push(`unassigned ${removed.map(name).join(", ")}`)
      return `${who} ${parts.length > 0 ? parts.join(" and ") : "changed the assignees"} on ${ref}`
    }
    case "card.label_added": {
      const before = new Set(labelNames(previous.labels))
      const added = labelNames(object.labels).filter((n) => !before.has(n))
      return `${who} added the label${quoted(added.join(", ") || undefined)} to ${ref}`
    }
    case "card.label_removed": {
      const after = new Set(labelNames(object.labels))
      const removed = labelNames(previous.labels).filter((n) => !after.has(n))
      return `${who} removed the label${quoted(removed.join(", ") || undefined)} from ${ref}`
    }
    case "card.deleted":
      return `${who} deleted ${ref}`
    case "card.archived":
      return `${who} archived ${ref}`
    case "card.restored":
      return `${who} restored ${ref} to ${column(object.columnId)}`
    case "subtask.created":
      return `${who} added the subtask${quoted(str(object.title))}`
    case "subtask.toggled":
      return `${who} marked the subtask${quoted(str(object.title))} ${object.completed === true ? "done" : "not done"}`
    case "subtask.deleted":
      return `${who} deleted the subtask${quoted(str(object.title))}`
    case "card_link.created":
      return `${who} linked ${str(obj(object.card).ref) ?? "a card"} (${String(object.linkType ?? "").replaceAll("_", " ")})`
    case "card_link.deleted":
      return `${who} removed the link to ${str(obj(object.card).ref) ?? "a card"}`
    case "comment.created":
      return `${who} commented`
    case "comment.updated":
      return `${who} edited a comment`
    case "comment.deleted":
      return `${who} deleted a comment`
    case "agent_session.created":
      return `${who} claimed ${ref === "the card" ? "the card" : ref}`
    case "agent_session.updated":
      return `${who}'s session is now ${statusText(str(object.status) ?? "")}`
    case "agent_session.stale":
      return `${who}'s claim expired`
    case "agent_session.completed":
      return `${who} finished (${statusText(str(object.status) ?? "complete")})`
    case "agent_activity.created":
      return `${who} reported ${str(object.type) ?? "activity"}: ${truncate(str(object.body) ?? "", 120)}`
    case "card.pull_request_linked":
      return `${ref} was linked to ${pullRequestName(object)}${obj(object.pullRequest).closes === true ? " (closes it)" : ""}`
    case "card.pull_request_updated":
      return `${pullRequestName(object)} ${pullRequestChange(obj(object.pullRequest), previous)}`
    case "card.commit_linked": {
      const commit = obj(object.commit)
      return `${ref} was linked to commit ${(str(commit.sha) ?? "?").slice(0, 7)} of ${str(object.repository) ?? "a repository"}${commit.closes === true ? " (closes it)" : ""}`
    }
    case "card.shipped":
      return `${ref} shipped to ${str(object.shippedTo) ?? "an environment"}`
    default:
      return `${who}: ${event.type}`
  }
}

/** `acme/web#42` from a `card.pull_request_*` event's object. */
const pullRequestName = (object: Obj) =>
  `${str(object.repository) ?? "a repository"}#${String(obj(object.pullRequest).number ?? "?")}`

/** What changed on a pull request, in words: "was merged", "checks failed", "changes requested". */
const pullRequestChange = (pr: Obj, previous: Obj): string => {
  const parts: Array<string> = []
  if (previous.state !== undefined) parts.push(pr.state === "merged" ? "was merged" : `is now ${String(pr.state)}`)
  if (previous.review !== undefined)
    parts.push(
      pr.review === "changes_requested" ? "changes requested" : pr.review === "approved" ? "approved" : "review cleared"
    )
  if (previous.checks !== undefined)
    parts.push(pr.checks === "failure" ? "checks failed" : pr.checks === "success" ? "checks passed" : "checks running")
  return parts.length === 0 ? "was updated" : parts.join(", ")
}

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s)

/** An agent session's status in words. */
export const statusText = (status: string): string =>
  (
    ({
      active: "active",
      awaitingInput: "awaiting input",
      error: "error",
      complete: "complete",
      released: "released",
      stale: "stale"
    }) as Record<string, string>
  )[status] ?? status
