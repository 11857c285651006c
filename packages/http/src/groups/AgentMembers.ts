/**
 * Agents as members (issue 30, CONTRACT.md "Agents as members"): create an agent, and give it
 * keys. Listing and deleting agents and listing and revoking their keys go beyond CONTRACT.md.
 */
import {
  Agent,
  AgentCreate,
  AgentKey,
  AgentKeyCreate,
  AgentKeyCreated,
  checkedId,
  UserId,
  Uuid,
  WorkspaceId
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound } from "../errors.ts"
import { BootstrapAuth, UserAuth } from "../middleware/Authentication.ts"
import { doc } from "../schemas.ts"

const agentParams = { id: checkedId(UserId) }

export class AgentMembersGroup extends HttpApiGroup.make("agentMembers")
  .add(
    HttpApiEndpoint.post("create", "/v1/workspaces/:id/agents", {
      params: { id: checkedId(WorkspaceId) },
      payload: AgentCreate,
      success: Agent.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Create an agent",
          'Admins: makes an agent member of the workspace (role `member`, kind `agent` in the members list), assignable to cards, never a seat. It cannot sign in; give it keys with POST /v1/agents/{id}/api-keys. What its keys do is recorded with actor `{type: "agent", userId: <agent id>, name, onBehalfOf: <createdBy>}`.'
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/workspaces/:id/agents", {
      params: { id: checkedId(WorkspaceId) },
      success: Schema.Array(Agent),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("List agents", "Any member: the workspace's agents, oldest first."))
      .middleware(UserAuth)
  )
  .add(
    HttpApiEndpoint.delete("remove", "/v1/agents/:id", {
      params: agentParams,
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Delete an agent",
          "Admins: its keys answer 401 at once and what they opened (event streams, MCP sessions) ends within 1 second; its membership and assignments end; history and comments still name it."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.post("createKey", "/v1/agents/:id/api-keys", {
      params: agentParams,
      payload: AgentKeyCreate,
      success: AgentKeyCreated.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Create an agent key",
          "An admin or the agent's creator: a key that acts as the agent (prefix `svc_`, sent as `X-API-Key`), shown in this answer only. `scopes` (some of read, write, delete, admin; all when left out) is stored with the key."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.get("keys", "/v1/agents/:id/api-keys", {
      params: agentParams,
      success: Schema.Array(AgentKey),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("List an agent's keys", "An admin or the agent's creator: its live keys, without secrets."))
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.delete("revokeKey", "/v1/agents/:id/api-keys/:keyId", {
      params: { ...agentParams, keyId: Uuid },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Revoke an agent's key",
          "An admin or the agent's creator: requests with the key answer 401 from then on, and what it opened ends within 1 second."
        )
      )
      .middleware(BootstrapAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Agents as members",
      description: "Agents that are members of a workspace, with keys of their own (issue 30)."
    })
  ) {}
