/**
 * Events (issue 18): what changed, who changed it, and the resource after the change. Written in
 * the change's own transaction (events/EventLog.ts), read as history, streamed live and delivered
 * to webhooks: the same JSON everywhere.
 */
import { Schema } from "effect"
import { MoveCause } from "./forge.ts"
import { ProjectId, UserId, WorkspaceId } from "./ids.ts"
import { Timestamp } from "./text.ts"

/** Every event type, `<resource>.<verb>`. A later feature adds its own here, and nowhere else. */
export const eventTypes = [
  "card.created",
  "card.updated",
  "card.moved",
  "card.deleted",
  "card.archived",
  "card.restored",
  "card.label_added",
  "card.label_removed",
  "card.assigned",
  "column.created",
  "column.updated",
  "column.deleted",
  "label.created",
  "subtask.created",
  "subtask.toggled",
  "subtask.deleted",
  "card_link.created",
  "card_link.deleted",
  "project.updated",
  "project.archived",
  "project.restored",
  "project.deleted",
  "project_link.created",
  "project_link.reviewed",
  "project_link.evaluated",
  "project_link.deleted",
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "agent_session.created",
  "agent_session.updated",
  "agent_session.stale",
  "agent_session.completed",
  "agent_activity.created",
  "card.pull_request_linked",
  "card.pull_request_updated",
  "card.commit_linked",
  "card.shipped"
] as const
export const EventType = Schema.Literals(eventTypes)
export type EventType = typeof EventType.Type

/**
 * Who made a change: a person (API key or session), an agent (an OAuth client, or an agent member's
 * key), intake, or the service.
 */
export const actorTypes = ["user", "agent", "intake", "system"] as const
export const Actor = Schema.Struct({
  type: Schema.Literals(actorTypes),
  /**
   * The account acting: a person; an agent member (its own account); for an OAuth client, the
   * person who granted it.
   */
  userId: Schema.optionalKey(UserId),
  /** The person's full name, the agent's name (an OAuth client's registered name), or the intake token's name. */
  name: Schema.optionalKey(Schema.String),
  /** An agent's only: the person it acts for (an agent member's creator, an OAuth client's grantor). */
  onBehalfOf: Schema.optionalKey(UserId)
}).annotate({
  identifier: "Actor",
  description: "Who made a change: a person, an agent, an intake token, or the service."
})
export type Actor = typeof Actor.Type

/**
 * An event's id: 24 lowercase hex digits that increase, as text, in the order readers see
 * events, so it is the cursor (`after`, `Last-Event-ID`). Opaque otherwise.
 */
export const EventId = Schema.String.annotate({
  description: "24 lowercase hex digits; increases within a project in the order events are seen; the cursor"
})
export type EventId = typeof EventId.Type
const EVENT_ID = /^[0-9a-f]{24}$/
export const isEventId = (s: string): boolean => EVENT_ID.test(s)
/** An event id as a client sends it (a query's `after`). */
export const CheckedEventId = Schema.String.check(
  Schema.isPattern(EVENT_ID, { message: "expected an event id (24 lowercase hex digits)" })
)

export const BoardEvent = Schema.Struct({
  id: EventId,
  type: EventType,
  createdAt: Timestamp,
  workspaceId: WorkspaceId,
  projectId: ProjectId,
  actor: Actor,
  /** `object`: the resource in its REST shape after the change (a delete: its last state); `previous`: changed fields' old values. */
  data: Schema.Struct({
    object: Schema.Unknown,
    previous: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown)),
    /** A forge automation's `card.moved` only: the pull request that caused the move. */
    cause: Schema.optionalKey(MoveCause)
  })
}).annotate({
  identifier: "Event",
  description: "A change: its type, who made it, and the resource after it (`data.object`)."
})
export type BoardEvent = typeof BoardEvent.Type

export const EventPage = Schema.Struct({
  events: Schema.Array(BoardEvent),
  /** Pass as `after` for the next page; null when this page reached the end of the log. */
  next: Schema.NullOr(EventId)
}).annotate({
  identifier: "EventPage",
  description: "A page of events, oldest first, and the cursor of the next page."
})
export type EventPage = typeof EventPage.Type

/** Events per page of history: at most, and when the client does not say. */
export const EVENT_PAGE_MAX = 500
export const EVENT_PAGE_DEFAULT = 100
