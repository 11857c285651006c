/**
 * Agents as members (issue 30): an agent is an account of its own (kind `agent`) in one
 * workspace, made by an admin, a member (role `member` by default) that can be assigned and
 * claim cards, never a seat, and with keys of its own. What its keys do is recorded with actor
 * `{type: "agent", userId: <agent id>, name, onBehalfOf: <creator>}` (events/EventLog.ts).
 */
import { Schema } from "effect"
import { UserId, WorkspaceId } from "./ids.ts"
import { keyLimitFields, keyLimitViewFields } from "./keyLimits.ts"
import { MaxString, Name, Timestamp } from "./text.ts"

/** The longest agent description, in characters. */
export const AGENT_DESCRIPTION_MAX = 2_000

export const Agent = Schema.Struct({
  /** The agent's account: its id in members, assignees and actors. */
  id: UserId,
  workspaceId: WorkspaceId,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  /** The admin who made it: the person its actions are on behalf of (null once that account is gone). */
  createdBy: Schema.NullOr(UserId),
  createdAt: Timestamp
}).annotate({
  identifier: "Agent",
  description: "An agent member of a workspace: an account of its own, with keys of its own; never a seat."
})
export type Agent = typeof Agent.Type

export const AgentCreate = Schema.Struct({
  name: Name,
  description: Schema.optionalKey(MaxString(AGENT_DESCRIPTION_MAX))
}).annotate({ identifier: "AgentCreate" })
export type AgentCreate = typeof AgentCreate.Type

export const AgentKeyCreate = Schema.Struct({
  name: Name,
  ...keyLimitFields
}).annotate({ identifier: "AgentKeyCreate" })
export type AgentKeyCreate = typeof AgentKeyCreate.Type

export const AgentKeyCreated = Schema.Struct({
  id: Schema.String.annotate({ format: "uuid" }),
  agentId: UserId,
  name: Schema.String,
  ...keyLimitViewFields,
  /** The key (prefix `svc_`): shown in this answer only. Send it as `X-API-Key`. */
  rawKey: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "AgentKeyCreated",
  description: "A new key of an agent, with its secret `rawKey`: shown this once only."
})
export type AgentKeyCreated = typeof AgentKeyCreated.Type

export const AgentKey = Schema.Struct({
  id: Schema.String.annotate({ format: "uuid" }),
  agentId: UserId,
  name: Schema.String,
  ...keyLimitViewFields,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "AgentKey", description: "One of an agent's live keys, without its secret." })
export type AgentKey = typeof AgentKey.Type
