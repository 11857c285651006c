/** CONTRACT.md's claims, agent sessions and work queue (issue 19). */
import {
  Activity,
  ActivityInput,
  agentLimits,
  AgentSession,
  AgentSessionDetail,
  AgentSessionId,
  AgentSessionStatus,
  Card,
  CardId,
  checkedId,
  ClaimInput,
  ProjectId,
  QueueFilter,
  ReleaseInput
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters, integerSchema, QueryInt, doc } from "../schemas.ts"

const sessionId = checkedId(AgentSessionId)
const Page = { limit: { minimum: 1, maximum: agentLimits.activitiesMax }, offset: { minimum: 0 } } as const

export class AgentsGroup extends HttpApiGroup.make("agents")
  .add(
    HttpApiEndpoint.post("claim", "/v1/cards/:id/claim", {
      params: { id: checkedId(CardId) },
      payload: ClaimInput,
      // 201: a new session; 200: the caller's own live session, its lease renewed
      success: [AgentSession.pipe(HttpApiSchema.status(201)), AgentSession],
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Claim a card",
        "Opens an agent session on the card with a lease of `ttlSeconds` (30 to 3,600, default 900): 201 with the new session. The caller's own live session is renewed and answered with 200; another holder's live claim answers 409 naming it and its expiry."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("claimNext", "/v1/projects/:projectId/claim-next", {
      params: { projectId: checkedId(ProjectId) },
      payload: QueueFilter,
      success: [
        Schema.Struct({ session: AgentSession, card: Card }).pipe(HttpApiSchema.status(201)),
        HttpApiSchema.NoContent
      ],
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Claim the next card",
        "Claims the unclaimed card with the highest priority (then the earliest on the board) among those matching the filters, and answers the session and the card; 204 when none matches."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("heartbeat", "/v1/agent-sessions/:id/heartbeat", {
      params: { id: sessionId },
      success: AgentSession,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Renew a session's lease",
        "Extends the session's lease by its ttl. 409 when the lease had already expired (the session is stale: claim again)."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("report", "/v1/agent-sessions/:id/activities", {
      params: { id: sessionId },
      payload: ActivityInput,
      success: Activity.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Report an activity",
        "Records what the agent is doing (`thought`, `action`, `elicitation`, `response`, `error`); an `elicitation` sets the session to `awaitingInput`, an `error` to `error`."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("release", "/v1/agent-sessions/:id/release", {
      params: { id: sessionId },
      payload: ReleaseInput,
      success: AgentSession,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "End a session",
        "Ends the session as `complete` (the default) or `released`, frees the card and, with `moveTo`, moves it to that column in the same transaction."
      )
    )
  )
  .add(
    HttpApiEndpoint.get("session", "/v1/agent-sessions/:id", {
      params: { id: sessionId },
      query: {
        limit: Schema.optionalKey(QueryInt(Page.limit)),
        offset: Schema.optionalKey(QueryInt(Page.offset))
      },
      success: AgentSessionDetail,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(doc("Get a session", "An agent session with a page of its activities, oldest first."))
      .annotate(
        OpenApi.Transform,
        documentParameters({ replace: { limit: integerSchema(Page.limit), offset: integerSchema(Page.offset) } })
      )
  )
  .add(
    HttpApiEndpoint.get("cardSessions", "/v1/cards/:id/agent-sessions", {
      params: { id: checkedId(CardId) },
      success: Schema.Array(AgentSession),
      error: [Forbidden, NotFound]
    }).annotateMerge(doc("List a card's sessions", "Every agent session opened on the card, newest first."))
  )
  .add(
    HttpApiEndpoint.get("projectSessions", "/v1/projects/:projectId/agent-sessions", {
      params: { projectId: checkedId(ProjectId) },
      query: { status: Schema.optionalKey(AgentSessionStatus) },
      success: Schema.Array(AgentSession),
      error: [BadRequest, Forbidden, NotFound]
    }).annotateMerge(
      doc("List a project's sessions", "The project's agent sessions, newest first, optionally with one `status`.")
    )
  )
  .middleware(UserAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Claims, agent sessions and the work queue",
      description:
        "An agent claims a card with a lease, reports what it does, and releases it; claim-next hands out the most important unclaimed card."
    })
  ) {}
