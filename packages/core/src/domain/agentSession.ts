/**
 * Claims and agent sessions (issue 19): an agent opens a session on a card with a lease, reports
 * what it does as activities, and ends it; while the session is live and its lease unexpired the
 * card is claimed. See board/AgentSessions.ts for the rules.
 */
import { Schema } from "effect"
import { Actor } from "./event.ts"
import { CardId, Id, ProjectId } from "./ids.ts"
import { NonBlank, Timestamp } from "./text.ts"

export const AgentSessionId = Id.pipe(Schema.brand("AgentSessionId"))
export type AgentSessionId = typeof AgentSessionId.Type
export const ActivityId = Id.pipe(Schema.brand("ActivityId"))
export type ActivityId = typeof ActivityId.Type

export const agentSessionStatuses = ["active", "awaitingInput", "error", "complete", "released", "stale"] as const
export const AgentSessionStatus = Schema.Literals(agentSessionStatuses)
export type AgentSessionStatus = typeof AgentSessionStatus.Type

/** The statuses that hold the card (while the lease is unexpired). */
export const liveStatuses = ["active", "awaitingInput", "error"] as const satisfies ReadonlyArray<AgentSessionStatus>

export const activityTypes = ["thought", "action", "elicitation", "response", "error", "feedback"] as const
export const ActivityType = Schema.Literals(activityTypes)
export type ActivityType = typeof ActivityType.Type

/** How a session may end by request. */
export const ReleaseStatus = Schema.Literals(["complete", "released"])
export type ReleaseStatus = typeof ReleaseStatus.Type

export const agentLimits = {
  ttlMin: 30,
  ttlMax: 3600,
  ttlDefault: 900,
  activityBody: 10_000,
  activitiesDefault: 50,
  activitiesMax: 500
} as const

/** A lease's length as a client sends it: whole seconds, 30 to 3,600. */
export const TtlSeconds = Schema.Int.check(
  Schema.isBetween(
    { minimum: agentLimits.ttlMin, maximum: agentLimits.ttlMax },
    { message: `must be a whole number of seconds from ${agentLimits.ttlMin} to ${agentLimits.ttlMax}` }
  )
)

export const ActivityBody = NonBlank(agentLimits.activityBody)

export const AgentSession = Schema.Struct({
  id: AgentSessionId,
  cardId: CardId,
  projectId: ProjectId,
  /** Who owns the session, named when it was opened. */
  actor: Actor,
  status: AgentSessionStatus,
  leaseExpiresAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "AgentSession",
  description: "An agent's session on a card: while live and its lease unexpired, the card is claimed."
})
export type AgentSession = typeof AgentSession.Type

export const Activity = Schema.Struct({
  id: ActivityId,
  sessionId: AgentSessionId,
  type: ActivityType,
  body: Schema.String,
  createdAt: Timestamp
}).annotate({ identifier: "Activity", description: "What an agent reported during its session." })
export type Activity = typeof Activity.Type

/** A session with a page of its activities, oldest first. */
export const AgentSessionDetail = Schema.Struct({
  ...AgentSession.fields,
  activities: Schema.Array(Activity)
}).annotate({
  identifier: "AgentSessionDetail",
  description: "An agent session with a page of its activities, oldest first."
})
export type AgentSessionDetail = typeof AgentSessionDetail.Type

/** A card's claim: the live session holding it, its owner, and when its lease ends. */
export const CardClaim = Schema.Struct({
  sessionId: AgentSessionId,
  actor: Actor,
  leaseExpiresAt: Timestamp
}).annotate({
  identifier: "CardClaim",
  description: "The live agent session holding a card, its owner and when its lease ends."
})
export type CardClaim = typeof CardClaim.Type
