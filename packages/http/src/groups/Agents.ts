/** CONTRACT.md's claims, agent sessions and work queue (issue 19). */
import {
  Activity,
  ActivityBody,
  ActivityType,
  AgentSession,
  AgentSessionDetail,
  AgentSessionId,
  AgentSessionStatus,
  agentLimits,
  Card,
  CardId,
  ColumnId,
  checkedId,
  LabelId,
  ProjectId,
  ReleaseStatus,
  TtlSeconds
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters, integerSchema, QueryInt } from "../schemas.ts"

const sessionId = checkedId(AgentSessionId)
const Page = { limit: { minimum: 1, maximum: agentLimits.activitiesMax }, offset: { minimum: 0 } } as const

export class AgentsGroup extends HttpApiGroup.make("agents")
  .add(
    HttpApiEndpoint.post("claim", "/v1/cards/:id/claim", {
      params: { id: checkedId(CardId) },
      payload: Schema.Struct({ ttlSeconds: Schema.optionalKey(TtlSeconds) }),
      // 201: a new session; 200: the caller's own live session, its lease renewed
      success: [AgentSession.pipe(HttpApiSchema.status(201)), AgentSession],
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
  )
  .add(
    HttpApiEndpoint.post("claimNext", "/v1/projects/:projectId/claim-next", {
      params: { projectId: checkedId(ProjectId) },
      payload: Schema.Struct({
        columnId: Schema.optionalKey(checkedId(ColumnId)),
        labelIds: Schema.optionalKey(Schema.Array(checkedId(LabelId))),
        assignee: Schema.optionalKey(Schema.Literals(["me", "unassigned"])),
        ttlSeconds: Schema.optionalKey(TtlSeconds)
      }),
      success: [
        Schema.Struct({ session: AgentSession, card: Card }).pipe(HttpApiSchema.status(201)),
        HttpApiSchema.NoContent
      ],
      error: [BadRequest, Forbidden, NotFound]
    })
  )
  .add(
    HttpApiEndpoint.post("heartbeat", "/v1/agent-sessions/:id/heartbeat", {
      params: { id: sessionId },
      success: AgentSession,
      error: [Forbidden, NotFound, Conflict]
    })
  )
  .add(
    HttpApiEndpoint.post("report", "/v1/agent-sessions/:id/activities", {
      params: { id: sessionId },
      payload: Schema.Struct({ type: ActivityType, body: ActivityBody }),
      success: Activity.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
  )
  .add(
    HttpApiEndpoint.post("release", "/v1/agent-sessions/:id/release", {
      params: { id: sessionId },
      payload: Schema.Struct({
        status: Schema.optionalKey(ReleaseStatus),
        moveTo: Schema.optionalKey(checkedId(ColumnId))
      }),
      success: AgentSession,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
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
    }).annotate(
      OpenApi.Transform,
      documentParameters({ replace: { limit: integerSchema(Page.limit), offset: integerSchema(Page.offset) } })
    )
  )
  .add(
    HttpApiEndpoint.get("cardSessions", "/v1/cards/:id/agent-sessions", {
      params: { id: checkedId(CardId) },
      success: Schema.Array(AgentSession),
      error: [Forbidden, NotFound]
    })
  )
  .add(
    HttpApiEndpoint.get("projectSessions", "/v1/projects/:projectId/agent-sessions", {
      params: { projectId: checkedId(ProjectId) },
      query: { status: Schema.optionalKey(AgentSessionStatus) },
      success: Schema.Array(AgentSession),
      error: [BadRequest, Forbidden, NotFound]
    })
  )
  .middleware(UserAuth)
  .annotateMerge(OpenApi.annotations({ title: "Claims, agent sessions and the work queue" })) {}
