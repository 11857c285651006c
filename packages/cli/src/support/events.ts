/**
 * Events on the terminal (issue 18): one line per event, and the live stream read by hand over
 * fetch (the CLI stays small: no EventSource polyfill, no server code).
 */
import type { BoardEvent } from "@board/core/contract"
import type { Style } from "./output.ts"

/**
 * An actor for the terminal: an agent carries the `[agent]` mark after its (client) name, so a
 * client registered as `alice` never reads as the person alice (issue 28).
 */
export const actorLabel = (actor: BoardEvent["actor"], members?: ReadonlyMap<string, string>): string => {
  const name = actor.name !== undefined && actor.name.trim() !== "" ? actor.name : undefined
  if (actor.type !== "agent") return name ?? actor.type
  // with the workspace's members at hand: whom the agent acts for (`onBehalfOf`: an agent
  // member's creator, an OAuth client's grantor; older events name the grantor as `userId`)
  const forId = actor.onBehalfOf ?? actor.userId
  const person = forId === undefined ? undefined : members?.get(forId)
  return `${name ?? "an agent"} [agent${person === undefined ? "" : ` for ${person}`}]`
}

/** A member as the terminal names them: an agent member with its mark (`Claude [agent]`). */
export const memberLabel = (m: { readonly fullName: string; readonly email: string; readonly kind: string }) =>
  m.kind === "agent" ? `${m.fullName} [agent]` : m.fullName || m.email

/** `2026-11-24 04:07:53  card.moved  Ada Lovelace  WEB-12 Fix login` */
export const eventLine = (e: BoardEvent, style: Style, members?: ReadonlyMap<string, string>): string => {
  const time = e.createdAt.replace("T", " ").replace(/\.\d+Z$|Z$/, "")
  const actor = actorLabel(e.actor, members)
  const object = (e.data.object ?? {}) as Record<string, unknown>
  const ref = typeof object.ref === "string" ? `${object.ref} ` : ""
  const name =
    typeof object.title === "string" ? object.title : typeof object.name === "string" ? object.name : (object.id ?? "")
  return `${style.dim(time)}  ${e.type.padEnd(22)}  ${actor}  ${style.bold(ref)}${String(name)}${forgeDetail(e)}`
}

const rec = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === "object" ? (v as Record<string, unknown>) : {}

/**
 * What a forge's event names (issue 31): the pull request or commit of a link, and the pull
 * request that made the automation move a card (`data.cause`): `acme/web#42 merged`.
 */
const forgeDetail = (e: BoardEvent): string => {
  const object = rec(e.data.object)
  const cause = rec(e.data.cause)
  if (e.type === "card.moved" && typeof cause.repository === "string")
    return ` (${cause.repository}#${String(cause.number)} ${String(cause.action)})`
  if (e.type === "card.pull_request_linked" || e.type === "card.pull_request_updated") {
    const pr = rec(object.pullRequest)
    return `${String(object.repository)}#${String(pr.number)} ${String(pr.state)}`
  }
  if (e.type === "card.commit_linked") {
    const commit = rec(object.commit)
    return `${String(object.repository)}@${String(commit.sha).slice(0, 7)} ${String(commit.message ?? "")}`.trimEnd()
  }
  if (e.type === "card.shipped") return ` shipped to ${String(object.shippedTo)}`
  return ""
}

export interface SseFrame {
  readonly id: string | undefined
  readonly event: string
  readonly data: string
}

/**
 * Splits an SSE body into frames (the WHATWG rules that matter here: `field: value` lines, a
 * blank line ends a frame, `:` lines are comments, several `data` lines join with newlines).
 */
export async function* sseFrames(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder()
  let buffer = ""
  let id: string | undefined
  let event = "message"
  let data: Array<string> = []
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    for (;;) {
      const end = buffer.search(/\r\n|\n|\r/)
      if (end < 0) break
      const line = buffer.slice(0, end)
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1))
      if (line === "") {
        if (data.length > 0) yield { id, event, data: data.join("\n") }
        id = undefined
        event = "message"
        data = []
        continue
      }
      if (line.startsWith(":")) continue
      const colon = line.indexOf(":")
      const field = colon < 0 ? line : line.slice(0, colon)
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "")
      if (field === "id") id = value
      else if (field === "event") event = value
      else if (field === "data") data.push(value)
    }
  }
}
