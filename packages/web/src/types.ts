/**
 * The resources as the API answers them: the OpenAPI document's own schemas (lib/api-types.ts,
 * generated from the document the server serves), so the app and the server share one
 * vocabulary and an answer the app reads is the answer the server documents.
 */
import type { components } from "./lib/api-types.ts"

type Schemas = components["schemas"]
export type AgentSession = Schemas["AgentSession"]
export type AgentSessionDetail = Schemas["AgentSessionDetail"]
export type ApiKey = Schemas["ApiKey"]
export type Board = Schemas["Board"]
export type BoardEvent = Schemas["Event"]
export type Card = Schemas["Card"]
export type CardLink = Schemas["CardLink"]
export type Column = Schemas["Column"]
export type Comment = Schemas["Comment"]
export type Label = Schemas["Label"]
export type Member = Schemas["Member"]
export type Project = Schemas["Project"]
export type ProjectLink = Schemas["ProjectLink"]
export type PullRequest = Schemas["PullRequest"]
export type Subtask = Schemas["Subtask"]
export type Workspace = Schemas["Workspace"]
export type EventPage = Schemas["EventPage"]
export type EventType = BoardEvent["type"]
