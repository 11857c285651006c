/**
 * Examples for the OpenAPI document: what the wire carries, as a client sees it. The named
 * resources have a hand-written example each; every request and response example in the
 * document is built from these and from the schemas (OpenApiDocument.ts), so one card looks the
 * same in every operation. Redocly and Spectral check each example against its schema
 * (`pnpm lint:api`), so an example that drifts from the contract fails CI.
 */
import { Card } from "@board/core/contract"
import { Schema } from "effect"

/**
 * `null` for every field of `fields` whose schema takes null: an example lists its meaningful
 * values and the schema fills the rest, so a new nullable field (a card's, say) needs no line here.
 */
const nullsOf = (fields: Record<string, Schema.Top>): Record<string, null> =>
  Object.fromEntries(
    Object.entries(fields)
      .filter(([, field]) => Schema.is(field as Schema.Codec<unknown>)(null))
      .map(([key]) => [key, null])
  )

const workspaceId = "6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b"
const projectId = "0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d"
const columnId = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
const cardId = "7e8f9a0b-1c2d-4e3f-9a4b-5c6d7e8f9a0b"
const otherCardId = "8f9a0b1c-2d3e-4f4a-8b5c-6d7e8f9a0b1c"
const labelId = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
const subtaskId = "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e"
const userId = "5d6e7f8a-9b0c-4d1e-8f2a-3b4c5d6e7f8a"
const sessionId = "9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d"
const createdAt = "2026-03-02T09:30:00.000Z"
const updatedAt = "2026-03-02T10:15:00.000Z"

const actor = { type: "user", userId, name: "Ada Lovelace" }
const label = { id: labelId, projectId, name: "bug", color: "#d73a4a", createdAt, updatedAt }
const subtask = {
  id: subtaskId,
  cardId,
  title: "Reproduce on Safari",
  completed: false,
  position: 0,
  createdAt,
  updatedAt
}
const card = {
  ...nullsOf(Card.fields),
  id: cardId,
  projectId,
  columnId,
  position: 0,
  ref: "WEB-12",
  title: "Fix the login redirect",
  description: "After signing in, people land on /home instead of the page they asked for.",
  priority: "high",
  labels: [label],
  subtasks: [subtask],
  assigneeIds: [userId],
  dueAt: "2026-03-09T17:00:00.000Z",
  source: "api",
  createdAt,
  updatedAt
}
const column = { id: columnId, projectId, name: "To do", position: 0, kind: "todo", createdAt, updatedAt }
const project = {
  id: projectId,
  workspaceId,
  name: "Website",
  refPrefix: "WEB",
  archivedAt: null,
  automation: { pullRequestOpened: true, pullRequestMerged: true },
  createdAt,
  updatedAt
}
const agentSession = {
  id: sessionId,
  cardId,
  projectId,
  actor: { type: "agent", userId, name: "Claude Code" },
  status: "active",
  leaseExpiresAt: "2026-03-02T10:30:00.000Z",
  createdAt,
  updatedAt
}
const activity = {
  id: "4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b",
  sessionId,
  type: "action",
  body: "Opened a pull request with the fix.",
  createdAt
}
const webhook = {
  id: "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f",
  url: "https://hooks.example.org/board",
  workspaceId,
  projectId,
  events: ["card.created", "card.moved"],
  description: "Tell the deploy bot",
  enabled: true,
  disabledReason: null,
  createdAt,
  updatedAt
}
const delivery = {
  id: "d2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f6a",
  eventId: "0000019c8f2a4b1c00000001",
  eventType: "card.created",
  status: "delivered",
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  nextAttemptAt: null,
  createdAt,
  updatedAt
}
const event = {
  id: "0000019c8f2a4b1c00000001",
  type: "card.created",
  createdAt,
  workspaceId,
  projectId,
  actor,
  data: { object: { id: cardId, ref: "WEB-12", title: "Fix the login redirect" } }
}
const projectLink = {
  id: "e3f4a5b6-c7d8-4e9f-8a0b-1c2d3e4f5a6b",
  projectId,
  url: "https://github.com/acme/website/issues/12",
  normalizedUrl: "https://github.com/acme/website/issues/12",
  title: "Login redirect drops the return URL",
  note: null,
  tags: ["auth"],
  relevance: "high",
  score: 0.82,
  evidence: [
    { signal: "shared_terms", detail: "shares terms with WEB-12", cards: ["WEB-12"], terms: ["login", "redirect"] }
  ],
  evaluation_source: "heuristic",
  reviewedBy: null,
  reviewedAt: null,
  reviewReason: null,
  createdAt,
  updatedAt
}

const otherUserId = "6e7f8a9b-0c1d-4e2f-9a3b-4c5d6e7f8a9b"
const invitation = {
  id: "4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a",
  workspaceId,
  email: "grace@example.org",
  role: "member",
  expiresAt: "2026-03-09T09:30:00.000Z",
  createdAt
}

/** One example per named component schema, by component name. */
export const componentExamples: Readonly<Record<string, unknown>> = {
  Error: { error: "title: must not be empty" },
  Label: label,
  Subtask: subtask,
  Card: card,
  Column: column,
  Board: { project, columns: [column], cards: [card], labels: [label], eventCursor: "0000019c8f2a4b1c00000001" },
  Project: project,
  Workspace: { id: workspaceId, name: "Acme", role: "owner", createdAt, updatedAt },
  Member: {
    id: userId,
    userId,
    email: "ada@example.org",
    fullName: "Ada Lovelace",
    role: "owner",
    kind: "person",
    joinedAt: createdAt,
    createdAt,
    updatedAt
  },
  CardLink: {
    id: "f4a5b6c7-d8e9-4f0a-9b1c-2d3e4f5a6b7c",
    sourceId: cardId,
    targetId: otherCardId,
    linkType: "blocks",
    direction: "outgoing",
    card: { id: otherCardId, ref: "WEB-13", title: "Ship the new sign-in page" },
    createdAt,
    updatedAt
  },
  Comment: {
    id: "a5b6c7d8-e9f0-4a1b-8c2d-3e4f5a6b7c8d",
    cardId,
    author: actor,
    body: "Reproduced on Safari 18; the `next` parameter is lost.",
    createdAt,
    updatedAt
  },
  ProjectLink: projectLink,
  Evidence: projectLink.evidence[0],
  Webhook: webhook,
  WebhookWithSecret: { ...webhook, secret: "whsec_3q2+7w9Ppf5xkG0B1nVbS4uYd8eRtZaLcMoHjKiN" },
  Delivery: delivery,
  DeliveryPage: { deliveries: [delivery], total: 1, limit: 50, offset: 0 },
  Event: event,
  EventPage: { events: [event], next: null },
  Actor: actor,
  AgentSession: agentSession,
  Activity: activity,
  AgentSessionDetail: { ...agentSession, activities: [activity] },
  CardClaim: { sessionId, actor: agentSession.actor, leaseExpiresAt: agentSession.leaseExpiresAt },
  CommandResult: {
    command: "move WEB-12 to Done",
    intent: "move_card",
    understood: true,
    projectId,
    actions: [{ type: "move_card", cardId, columnId }],
    result: card
  },
  Health: { status: "ok", service: "service-api" },
  ApiIndex: {
    status: "ok",
    service: "service-api",
    name: "Board Service",
    description: "A board for human and agent teams.",
    version: "1.0",
    serviceVersion: "0.1.0",
    baseUrl: "https://board.acme.dev/api",
    documentation: {
      openapi: "https://board.acme.dev/api/v1/openapi.json",
      docs: "https://board.acme.dev/api/v1/docs"
    },
    authentication: {
      required: true,
      schemes: [{ type: "apiKey", in: "header", name: "X-API-Key", prefix: "svc_" }]
    }
  },
  AuthSession: {
    session: {
      access_token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1ZDZlN2Y4YSJ9.c2lnbmF0dXJl",
      token_type: "bearer",
      expires_in: 3600,
      expires_at: "2026-03-02T10:30:00.000Z"
    },
    user: { id: userId, email: "ada@example.org", full_name: "Ada Lovelace" }
  },
  ApiKeyCreated: {
    id: "b6c7d8e9-f0a1-4b2c-8d3e-4f5a6b7c8d9e",
    name: "laptop",
    rawKey: "svc_5Vn8rJ2kLq7TzXw1PbYc9MhDsAe4F",
    scopes: ["read", "write", "delete", "admin"],
    projectIds: null,
    expiresAt: null,
    createdAt,
    updatedAt: createdAt
  },
  ApiKey: {
    id: "b6c7d8e9-f0a1-4b2c-8d3e-4f5a6b7c8d9e",
    name: "laptop",
    scopes: ["read", "write", "delete", "admin"],
    projectIds: null,
    expiresAt: null,
    createdAt,
    updatedAt: createdAt,
    current: true
  },
  IntakeToken: {
    id: "c7d8e9f0-a1b2-4c3d-9e4f-5a6b7c8d9e0f",
    columnId,
    projectId,
    name: "Support form",
    expiresAt: null,
    revokedAt: null,
    createdAt,
    updatedAt: createdAt
  },
  Grant: {
    id: "d8e9f0a1-b2c3-4d4e-8f5a-6b7c8d9e0f1a",
    clientId: "client_7Hq2mX9pLz",
    clientName: "Claude Code",
    workspaces: [workspaceId],
    scope: "mcp",
    createdAt,
    updatedAt,
    lastUsedAt: updatedAt
  },
  DesktopManifest: {
    version: "1.4.0",
    notes: "Faster board loading",
    sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    sizeBytes: 104857600,
    publishedAt: createdAt
  },
  DesktopDownload: {
    url: "https://storage.acme.dev/desktop/darwin-arm64/1.4.0/Board-1.4.0-arm64.dmg?X-Amz-Signature=3f1c9a",
    expiresIn: 300,
    version: "1.4.0",
    sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    sizeBytes: 104857600
  },
  ProjectCreated: { project, columns: [column] },
  Invitation: invitation,
  InvitationCreated: {
    ...invitation,
    url: "https://board.example.com/invite/svc_inv_7Kp2Qw9ZrT4mXc1VbN8sLd3FhJ6gYa0Ue5Ri",
    token: "svc_inv_7Kp2Qw9ZrT4mXc1VbN8sLd3FhJ6gYa0Ue5Ri"
  },
  InvitationPreview: {
    workspaceName: "Acme",
    invitedBy: { userId, fullName: "Ada Lovelace" },
    role: "member",
    email: "grace@example.org",
    expiresAt: "2026-03-09T09:30:00.000Z"
  },
  InvitationAccepted: {
    workspace: { id: workspaceId, name: "Acme", role: "member", createdAt, updatedAt },
    member: {
      id: otherUserId,
      userId: otherUserId,
      email: "grace@example.org",
      fullName: "Grace Hopper",
      role: "member",
      kind: "person",
      joinedAt: updatedAt,
      createdAt: updatedAt,
      updatedAt
    }
  }
}

/** A plausible error for each status, as the service words them. */
export const errorExamples: Readonly<Record<string, { readonly error: string }>> = {
  "400": { error: "title: must not be empty" },
  "401": { error: "missing credential: send X-API-Key or Authorization: Bearer" },
  "403": { error: "this credential's grant does not cover the workspace" },
  "404": { error: "card not found" },
  "409": { error: "column still holds cards: move or delete them first" },
  "429": { error: "too many requests: retry after 30 seconds" }
}

/**
 * Values for string fields whose schema alone does not make a good example (a pattern, or a
 * name that reads better than "string"), by property name.
 */
export const fieldExamples: Readonly<Record<string, unknown>> = {
  email: "ada@example.org",
  password: "correct horse battery staple",
  full_name: "Ada Lovelace",
  name: "Website",
  title: "Fix the login redirect",
  description: "After signing in, people land on /home instead of the page they asked for.",
  color: "#d73a4a",
  body: "Reproduced on Safari 18; the `next` parameter is lost.",
  command: "move WEB-12 to Done",
  url: "https://github.com/acme/website/issues/12",
  note: "Found while triaging",
  reason: "Same bug as WEB-12",
  ref: "WEB-12",
  refPrefix: "WEB",
  version: "1.4.0",
  sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
  notes: "Faster board loading",
  token: "svc_in_4Qm7hT2pXz9bWc1LkRv8NsEaYd3G",
  rawKey: "svc_5Vn8rJ2kLq7TzXw1PbYc9MhDsAe4F",
  access_token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1ZDZlN2Y4YSJ9.c2lnbmF0dXJl",
  clientId: "client_7Hq2mX9pLz",
  clientName: "Claude Code",
  scope: "mcp",
  prompt: 'You are working on WEB-12 "Fix the login redirect" in project Website…',
  tags: ["auth"],
  dueAt: "2026-03-09T17:00:00.000Z",
  // ids by the name of the field that holds them, so a request example names one board
  projectId,
  columnId,
  cardId,
  labelId,
  targetId: otherCardId,
  workspaceId,
  labelIds: [labelId],
  assigneeIds: [userId],
  moveTo: columnId,
  events: ["card.created", "card.moved"],
  expiresAt: "2026-06-01T00:00:00.000Z"
}
