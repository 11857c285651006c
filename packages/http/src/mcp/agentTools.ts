/**
 * The MCP tools of claims and agent sessions (issue 19): claim a card or the queue's next one,
 * heartbeat, report, release. Their hints follow tools.ts's header.
 */
import { ActivityType, activityTypes, agentLimits, ReleaseStatus } from "@board/core"
import { Schema } from "effect"
import { Tool } from "effect/ai"
import { Card, hints, n, oneOf, ProjectId, WholeNumber } from "./toolFields.ts"

const Ttl = Schema.optionalKey(
  WholeNumber.annotate({
    description: `Lease seconds, ${agentLimits.ttlMin}-${n(agentLimits.ttlMax)} (default ${agentLimits.ttlDefault})`
  })
)
const SessionId = Schema.String.annotate({ description: "The session id a claim answered" })

// Claims: while your session is live the card is yours; others get refused until it ends.
export const ClaimCard = hints(
  false,
  false,
  true
)(
  Tool.make("claim_card", {
    description:
      "Claim a card before working on it: opens your agent session with a lease (renewed if you hold it; refused if someone else does).",
    parameters: Schema.Struct({ card: Card, ttlSeconds: Ttl })
  })
)

export const ClaimNextCard = hints(
  false,
  false,
  false
)(
  Tool.make("claim_next_card", {
    description:
      "Claim the next unclaimed card of a board (highest priority, then board order): the session and the card, or none left. Without `column` it takes only from the board's todo columns (work waiting), never one in progress or done.",
    parameters: Schema.Struct({
      projectId: ProjectId,
      column: Schema.optionalKey(Schema.String.annotate({ description: "Only from this column (name or id)" })),
      labels: Schema.optionalKey(
        Schema.Array(Schema.String).annotate({ description: "Only cards with all these labels (names or ids)" })
      ),
      assignee: Schema.optionalKey(
        Schema.Literals(["me", "unassigned"]).annotate({ description: "Only cards assigned to you, or to nobody" })
      ),
      ttlSeconds: Ttl
    })
  })
)

export const Heartbeat = hints(
  false,
  false,
  false
)(
  Tool.make("heartbeat", {
    description: "Extend your session's lease by its length, from now. Fails once it has ended.",
    parameters: Schema.Struct({ sessionId: SessionId })
  })
)

export const Report = hints(
  false,
  false,
  false
)(
  Tool.make("report", {
    description:
      "Report on your session: thought or action, elicitation (a question; waits for a person's comment), error, or response (the result: completes it, frees the card).",
    parameters: Schema.Struct({
      sessionId: SessionId,
      type: ActivityType.annotate({ description: oneOf(activityTypes) }),
      body: Schema.String.annotate({ description: `Markdown, 1-${n(agentLimits.activityBody)} characters` })
    })
  })
)

export const ReleaseCard = hints(
  false,
  false,
  true
)(
  Tool.make("release_card", {
    description: "End your session and free the card, moving it (e.g. to Done) in the same step if asked.",
    parameters: Schema.Struct({
      sessionId: SessionId,
      status: Schema.optionalKey(ReleaseStatus.annotate({ description: "complete, or released (default)" })),
      moveTo: Schema.optionalKey(Schema.String.annotate({ description: "Move the card to this column (name or id)" }))
    })
  })
)
