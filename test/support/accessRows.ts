/**
 * The access matrix's rows (test/access-matrix.test.ts, test/access-roles.test.ts): one per
 * operation of /api/v1/openapi.json, with what it does to A's fixture and, per role, what a
 * member of A's workspace gets.
 */
import * as crypto from "node:crypto"

export interface Fixture {
  readonly word: string
  readonly projectId: string
  readonly columns: ReadonlyArray<string>
  readonly card: string
  readonly ref: string
  readonly target: string
  readonly label: string
  readonly spare: string
  readonly subtask: string
  readonly link: string
  readonly emptyColumn: string
  readonly projectLink: string
  readonly intakeToken: string
  readonly comment: string
  readonly webhook: string
  readonly delivery: string
  /** A's agent session (through A's API key) on the target card. */
  readonly session: string
  /** A workspace of A's (its owner) for the row that deletes one. */
  readonly spareWorkspace: string
  /** An agent member of W1 (issue 30), made by A, and one of its keys. */
  readonly agent: string
  readonly agentKey: string
  /** A pending invitation to A's W1. */
  readonly invitation: string
  /** A forge repository connected to the project (issue 31). */
  readonly repository: string
}

export interface Req {
  readonly method: string
  readonly path: string
  readonly body?: unknown
}

/**
 * How an operation relates to a tenant's data:
 * - `workspace`: addresses A's resources; outsiders are refused.
 * - `account`: acts on the caller's own account (lists, creates its own things); checked for leaks.
 * - `intake`: takes only an intake token.
 * - `public`: no credential.
 * - `global`: install-wide data every user may read (desktop builds), no tenant data.
 */
// a public address (TEST-NET-3) for the fixture's webhook, which is disabled at once: a disabled
// webhook is sent nothing, so no packet ever goes there
export const WEBHOOK_URL = "https://203.0.113.10/hook"

export type Scope = "workspace" | "account" | "intake" | "public" | "global"

export interface Row {
  readonly scope: Scope
  readonly req: (f: Fixture) => Req
  /** The operation takes no OAuth token (bootstrap and account-management operations). */
  readonly noOAuth?: true
  /**
   * The role column (issue 30): what a viewer, a member and an admin of A's workspace get, where
   * it differs from the rule (a read: 2xx for every role; a write: 403 for a viewer, 2xx for the
   * others). The owner is A, whose request works in every row.
   */
  readonly roles?: Partial<Record<MemberRole, Expected>>
  /**
   * The scope column (issue 33): the operation manages (members, invitations, workspaces,
   * projects, repositories, webhooks, keys) and so needs the `admin` scope besides the one its
   * method needs (`scopeOfMethod`). Most rows need nothing here.
   */
  readonly admin?: true
  /**
   * Only the credential that made the resource works it (an agent session is its claimer's key's):
   * A's other keys that hold the scopes get 404, as another member does.
   */
  readonly ownKeyOnly?: true
}

export type KeyScope = "read" | "write" | "delete" | "admin"

/** The scope an operation's method needs: GET reads, DELETE deletes, the others write. */
export const scopeOfMethod = (name: string): KeyScope =>
  name.startsWith("GET ") ? "read" : name.startsWith("DELETE ") ? "delete" : "write"

/** The scopes an operation needs: its method's, and `admin` for a row marked so. */
export const scopesNeeded = (name: string, row: Row): ReadonlyArray<KeyScope> => [
  scopeOfMethod(name),
  ...(row.admin === true ? (["admin"] as const) : [])
]

/** The roles besides the owner that the role column lists. */
export type MemberRole = "viewer" | "member" | "admin"
/** A status, or "ok" for any 2xx. */
export type Expected = number | "ok"

/** What `role` gets for the operation `name`: the row's column, else the rule. */
export const expectedFor = (name: string, row: Row, role: MemberRole): Expected =>
  row.roles?.[role] ?? (name.startsWith("GET ") ? "ok" : role === "viewer" ? 403 : "ok")

/** The operation is a write (what a viewer never does). */
export const isWrite = (name: string) => !name.startsWith("GET ")

export const id = () => crypto.randomUUID()

/** One row per operation of the document, keyed "METHOD /path" exactly as the document writes it. */
export const ROWS: Record<string, Row> = {
  "GET /v1": { scope: "public", req: () => ({ method: "GET", path: "/v1" }) },
  "GET /v1/health": { scope: "public", req: () => ({ method: "GET", path: "/v1/health" }) },
  "POST /v1/auth/signup": { scope: "public", req: () => ({ method: "POST", path: "/v1/auth/signup", body: {} }) },
  "POST /v1/auth/login": { scope: "public", req: () => ({ method: "POST", path: "/v1/auth/login", body: {} }) },
  "GET /v1/auth/providers": { scope: "public", req: () => ({ method: "GET", path: "/v1/auth/providers" }) },
  "POST /v1/auth/password-reset": {
    scope: "public",
    req: () => ({ method: "POST", path: "/v1/auth/password-reset", body: {} })
  },
  "POST /v1/auth/password-reset/confirm": {
    scope: "public",
    req: () => ({ method: "POST", path: "/v1/auth/password-reset/confirm", body: {} })
  },
  // an invitation's link: whoever holds the token reads it (invitations.test.ts)
  // `{id}` is the token here (OpenAPI names one parameter per position; DELETE's is the id)
  "GET /v1/invitations/{id}": {
    scope: "public",
    req: () => ({ method: "GET", path: "/v1/invitations/svc_inv_unknown" })
  },
  // joins the caller by a token it holds: acts on the caller's own memberships (invitations.test.ts)
  "POST /v1/invitations/{token}/accept": {
    scope: "account",
    req: () => ({ method: "POST", path: "/v1/invitations/svc_inv_unknown/accept" })
  },
  // ends the web app's session making the request (400 for any other credential)
  "POST /v1/auth/logout": { scope: "account", req: () => ({ method: "POST", path: "/v1/auth/logout" }) },
  "POST /v1/intake": {
    scope: "intake",
    req: (f) => ({ method: "POST", path: "/v1/intake", body: { title: `intruder ${f.word}` } })
  },
  "GET /v1/desktop/releases/latest": {
    scope: "global",
    req: () => ({ method: "GET", path: "/v1/desktop/releases/latest" })
  },
  "GET /v1/desktop/download": {
    scope: "global",
    req: () => ({ method: "GET", path: "/v1/desktop/download?redirect=false" })
  },
  "GET /v1/desktop/updates/{platform}/latest-mac.yml": {
    scope: "global",
    req: () => ({ method: "GET", path: "/v1/desktop/updates/darwin-arm64/latest-mac.yml" })
  },
  "GET /v1/desktop/updates/{platform}/{version}/{artifact}": {
    scope: "global",
    req: () => ({ method: "GET", path: "/v1/desktop/updates/darwin-arm64/1.2.3/Board-1.2.3-arm64-mac.zip" })
  },

  "POST /v1/api-keys": {
    scope: "account",
    admin: true,
    noOAuth: true,
    req: () => ({ method: "POST", path: "/v1/api-keys", body: { name: "mine" } })
  },
  "GET /v1/api-keys": { scope: "account", noOAuth: true, req: () => ({ method: "GET", path: "/v1/api-keys" }) },
  // A's key id is filled in by the test
  "DELETE /v1/api-keys/{id}": {
    scope: "account",
    admin: true,
    noOAuth: true,
    req: () => ({ method: "DELETE", path: "/v1/api-keys/{A.key}" })
  },
  "POST /v1/workspaces": {
    scope: "account",
    admin: true,
    noOAuth: true,
    req: () => ({ method: "POST", path: "/v1/workspaces", body: { name: "mine" } })
  },
  "GET /v1/me": { scope: "account", req: () => ({ method: "GET", path: "/v1/me" }) },
  "GET /v1/workspaces": { scope: "account", req: () => ({ method: "GET", path: "/v1/workspaces" }) },
  "GET /v1/search": { scope: "account", req: (f) => ({ method: "GET", path: `/v1/search?q=${f.word}` }) },
  "POST /v1/nlu": {
    scope: "account",
    req: (f) => ({ method: "POST", path: "/v1/nlu", body: { command: `move ${f.ref} to Done` } })
  },
  "GET /v1/oauth/grants": { scope: "account", noOAuth: true, req: () => ({ method: "GET", path: "/v1/oauth/grants" }) },
  // A's grant id is filled in by the test (it is not part of a board fixture)
  "DELETE /v1/oauth/grants/{id}": {
    scope: "account",
    admin: true,
    noOAuth: true,
    req: () => ({ method: "DELETE", path: "/v1/oauth/grants/{grant}" })
  },

  "GET /v1/workspaces/{id}/projects": {
    scope: "workspace",
    req: () => ({ method: "GET", path: "/v1/workspaces/{W1}/projects" })
  },
  "GET /v1/workspaces/{id}/members": {
    scope: "workspace",
    req: () => ({ method: "GET", path: "/v1/workspaces/{W1}/members" })
  },
  "POST /v1/workspaces/{id}/members": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: () => ({ method: "POST", path: "/v1/workspaces/{W1}/members", body: { email: "{D.email}" } })
  },
  // E is a member of W1 before every row (the tests' `prepare`)
  "PATCH /v1/workspaces/{id}/members/{userId}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: () => ({ method: "PATCH", path: "/v1/workspaces/{W1}/members/{E}", body: { role: "viewer" } })
  },
  "DELETE /v1/workspaces/{id}/members/{userId}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: () => ({ method: "DELETE", path: "/v1/workspaces/{W1}/members/{E}" })
  },
  "POST /v1/workspaces/{id}/invitations": {
    admin: true,
    scope: "workspace",
    noOAuth: true,
    roles: { member: 403 },
    req: () => ({ method: "POST", path: "/v1/workspaces/{W1}/invitations", body: { role: "member" } })
  },
  "GET /v1/workspaces/{id}/invitations": {
    admin: true,
    scope: "workspace",
    noOAuth: true,
    roles: { viewer: 403, member: 403 },
    req: () => ({ method: "GET", path: "/v1/workspaces/{W1}/invitations" })
  },
  "DELETE /v1/invitations/{id}": {
    admin: true,
    scope: "workspace",
    noOAuth: true,
    roles: { member: 403 },
    req: (f) => ({ method: "DELETE", path: `/v1/invitations/${f.invitation}` })
  },
  "PATCH /v1/workspaces/{id}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: () => ({ method: "PATCH", path: "/v1/workspaces/{W1}", body: { name: "Renamed" } })
  },
  // a workspace of its own (the owner's delete must leave W1 to the other rows), of which the
  // role column's people are not members: 404 (test/manage.test.ts checks the owner-only 403)
  "DELETE /v1/workspaces/{id}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { viewer: 404, member: 404, admin: 404 },
    req: (f) => ({ method: "DELETE", path: `/v1/workspaces/${f.spareWorkspace}` })
  },
  "GET /v1/projects/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}` })
  },
  "PATCH /v1/projects/{id}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: (f) => ({
      method: "PATCH",
      path: `/v1/projects/${f.projectId}`,
      body: { name: "Stolen", archived: true, automation: { pullRequestMerged: false } }
    })
  },
  "DELETE /v1/projects/{id}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: (f) => ({ method: "DELETE", path: `/v1/projects/${f.projectId}` })
  },
  // issue 30: agents as members (CONTRACT.md "Agents as members"; list and delete beyond it)
  "POST /v1/workspaces/{id}/agents": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: () => ({ method: "POST", path: "/v1/workspaces/{W1}/agents", body: { name: "Intruder bot" } })
  },
  "GET /v1/workspaces/{id}/agents": {
    scope: "workspace",
    req: () => ({ method: "GET", path: "/v1/workspaces/{W1}/agents" })
  },
  "DELETE /v1/agents/{id}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: (f) => ({ method: "DELETE", path: `/v1/agents/${f.agent}` })
  },
  "POST /v1/agents/{id}/api-keys": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: (f) => ({ method: "POST", path: `/v1/agents/${f.agent}/api-keys`, body: { name: "stolen" } })
  },
  "GET /v1/agents/{id}/api-keys": {
    scope: "workspace",
    noOAuth: true,
    roles: { viewer: 403, member: 403 },
    req: (f) => ({ method: "GET", path: `/v1/agents/${f.agent}/api-keys` })
  },
  "DELETE /v1/agents/{id}/api-keys/{keyId}": {
    scope: "workspace",
    admin: true,
    noOAuth: true,
    roles: { member: 403 },
    req: (f) => ({ method: "DELETE", path: `/v1/agents/${f.agent}/api-keys/${f.agentKey}` })
  },
  // issue 31: forge repositories, pull requests on cards, deployments
  "POST /v1/projects/{id}/repositories": {
    admin: true,
    scope: "workspace",
    roles: { member: 403 },
    req: (f) => ({
      method: "POST",
      path: `/v1/projects/${f.projectId}/repositories`,
      body: { provider: "github", name: `acme/${f.word}-intruder` }
    })
  },
  "GET /v1/projects/{id}/repositories": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}/repositories` })
  },
  "DELETE /v1/repositories/{id}": {
    admin: true,
    scope: "workspace",
    roles: { member: 403 },
    req: (f) => ({ method: "DELETE", path: `/v1/repositories/${f.repository}` })
  },
  // a forge's delivery: no credential of the service, its signature over the body (forge-refusals.test.ts)
  "POST /v1/forge-hooks/{repositoryId}": {
    scope: "public",
    req: () => ({ method: "POST", path: `/v1/forge-hooks/${id()}`, body: {} })
  },
  "GET /v1/cards/{id}/pull-requests": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}/pull-requests` })
  },
  "POST /v1/projects/{id}/deployments": {
    scope: "workspace",
    req: (f) => ({
      method: "POST",
      path: `/v1/projects/${f.projectId}/deployments`,
      body: { environment: "production", commits: ["abcdef1"] }
    })
  },
  "POST /v1/cards/{id}/archive": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/archive` })
  },
  "POST /v1/cards/{id}/restore": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/restore` })
  },
  "POST /v1/projects": {
    scope: "workspace",
    admin: true,
    req: () => ({
      method: "POST",
      path: "/v1/projects",
      body: { workspaceId: "{W1}", name: "Intruder", template: "kanban" }
    })
  },
  "GET /v1/board/{projectId}": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/board/${f.projectId}` })
  },
  "POST /v1/cards": {
    scope: "workspace",
    req: (f) => ({
      method: "POST",
      path: "/v1/cards",
      body: { projectId: f.projectId, columnId: f.columns[0], title: "Intruder" }
    })
  },
  "GET /v1/cards/{id}": { scope: "workspace", req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}` }) },
  "PATCH /v1/cards/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "PATCH", path: `/v1/cards/${f.card}`, body: { title: "Stolen" } })
  },
  "DELETE /v1/cards/{id}": { scope: "workspace", req: (f) => ({ method: "DELETE", path: `/v1/cards/${f.card}` }) },
  "POST /v1/cards/{id}/move": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/move`, body: { columnId: f.columns[2], position: 0 } })
  },
  "POST /v1/columns": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: "/v1/columns", body: { projectId: f.projectId, name: "Intruder" } })
  },
  "PATCH /v1/columns/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "PATCH", path: `/v1/columns/${f.columns[0]}`, body: { name: "Stolen", position: 2 } })
  },
  "DELETE /v1/columns/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "DELETE", path: `/v1/columns/${f.emptyColumn}` })
  },
  "POST /v1/labels": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: "/v1/labels", body: { projectId: f.projectId, name: "intruder" } })
  },
  "POST /v1/cards/{id}/labels": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/labels`, body: { labelId: f.spare } })
  },
  "DELETE /v1/cards/{id}/labels/{labelId}": {
    scope: "workspace",
    req: (f) => ({ method: "DELETE", path: `/v1/cards/${f.card}/labels/${f.label}` })
  },
  "POST /v1/subtasks": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: "/v1/subtasks", body: { cardId: f.card, title: "sneaky" } })
  },
  "POST /v1/subtasks/{id}/toggle": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/subtasks/${f.subtask}/toggle` })
  },
  "DELETE /v1/subtasks/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "DELETE", path: `/v1/subtasks/${f.subtask}` })
  },
  "GET /v1/cards/{id}/links": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}/links` })
  },
  "POST /v1/cards/{id}/links": {
    scope: "workspace",
    req: (f) => ({
      method: "POST",
      path: `/v1/cards/${f.card}/links`,
      body: { targetId: f.target, linkType: "relates_to" }
    })
  },
  "DELETE /v1/links/{id}": { scope: "workspace", req: (f) => ({ method: "DELETE", path: `/v1/links/${f.link}` }) },
  "POST /v1/cards/{id}/comments": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/comments`, body: { body: "intruder" } })
  },
  "GET /v1/cards/{id}/comments": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}/comments` })
  },
  "PATCH /v1/comments/{id}": {
    scope: "workspace",
    // only the author (A) changes a comment
    roles: { member: 403, admin: 403 },
    req: (f) => ({ method: "PATCH", path: `/v1/comments/${f.comment}`, body: { body: "stolen" } })
  },
  "DELETE /v1/comments/{id}": {
    scope: "workspace",
    // only the author (A) changes a comment
    roles: { member: 403, admin: 403 },
    req: (f) => ({ method: "DELETE", path: `/v1/comments/${f.comment}` })
  },
  "GET /v1/projects/{projectId}/links": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}/links` })
  },
  "POST /v1/projects/{projectId}/links": {
    scope: "workspace",
    req: (f) => ({
      method: "POST",
      path: `/v1/projects/${f.projectId}/links`,
      body: { url: "https://intruder.example/page", title: "Intruder" }
    })
  },
  "PATCH /v1/projects/{projectId}/links/{linkId}": {
    scope: "workspace",
    req: (f) => ({
      method: "PATCH",
      path: `/v1/projects/${f.projectId}/links/${f.projectLink}`,
      body: { relevance: "high", reason: "stolen" }
    })
  },
  "DELETE /v1/projects/{projectId}/links/{linkId}": {
    scope: "workspace",
    req: (f) => ({ method: "DELETE", path: `/v1/projects/${f.projectId}/links/${f.projectLink}` })
  },
  "POST /v1/projects/{projectId}/links/{linkId}/evaluate": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/projects/${f.projectId}/links/${f.projectLink}/evaluate` })
  },
  "GET /v1/cards/{id}/prompt": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}/prompt?variant=draft` })
  },
  "GET /v1/projects/{projectId}/events": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}/events?limit=5` })
  },
  "GET /v1/cards/{id}/history": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/cards/${f.card}/history` })
  },
  "GET /v1/projects/{projectId}/events/stream": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}/events/stream` })
  },
  "POST /v1/intake-tokens": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: "/v1/intake-tokens", body: { columnId: f.columns[0], name: "intruder" } })
  },
  "GET /v1/projects/{projectId}/intake-tokens": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}/intake-tokens` })
  },
  "DELETE /v1/intake-tokens/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "DELETE", path: `/v1/intake-tokens/${f.intakeToken}` })
  },
  "POST /v1/webhooks": {
    scope: "workspace",
    admin: true,
    req: (f) => ({
      method: "POST",
      path: "/v1/webhooks",
      // the owner's create is the row's last step: nothing after it makes this event
      body: { url: WEBHOOK_URL, projectId: f.projectId, events: ["project_link.deleted"] }
    })
  },
  "GET /v1/webhooks": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/webhooks?projectId=${f.projectId}` })
  },
  "GET /v1/webhooks/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/webhooks/${f.webhook}` })
  },
  "PATCH /v1/webhooks/{id}": {
    scope: "workspace",
    admin: true,
    req: (f) => ({ method: "PATCH", path: `/v1/webhooks/${f.webhook}`, body: { description: "intruder" } })
  },
  "DELETE /v1/webhooks/{id}": {
    scope: "workspace",
    admin: true,
    req: (f) => ({ method: "DELETE", path: `/v1/webhooks/${f.webhook}` })
  },
  "GET /v1/webhooks/{id}/deliveries": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/webhooks/${f.webhook}/deliveries` })
  },
  "POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
    scope: "workspace",
    admin: true,
    req: (f) => ({ method: "POST", path: `/v1/webhooks/${f.webhook}/deliveries/${f.delivery}/retry` })
  },
  "POST /v1/webhooks/{id}/ping": {
    scope: "workspace",
    admin: true,
    req: (f) => ({ method: "POST", path: `/v1/webhooks/${f.webhook}/ping` })
  },
  "POST /v1/cards/{id}/claim": {
    scope: "workspace",
    // the longest lease: the owner's claim of this row must not expire (and be swept stale)
    // while a later test compares digests of A's data
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/claim`, body: { ttlSeconds: 3600 } })
  },
  "POST /v1/projects/{projectId}/claim-next": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/projects/${f.projectId}/claim-next`, body: { columnId: f.columns[0] } })
  },
  "POST /v1/agent-sessions/{id}/heartbeat": {
    scope: "workspace",
    // the session is A's: another member's heartbeat finds no session of theirs
    roles: { member: 404, admin: 404 },
    ownKeyOnly: true,
    req: (f) => ({ method: "POST", path: `/v1/agent-sessions/${f.session}/heartbeat` })
  },
  "POST /v1/agent-sessions/{id}/activities": {
    scope: "workspace",
    // the session is A's: another member's heartbeat finds no session of theirs
    roles: { member: 404, admin: 404 },
    ownKeyOnly: true,
    req: (f) => ({
      method: "POST",
      path: `/v1/agent-sessions/${f.session}/activities`,
      body: { type: "response", body: "done by an intruder" }
    })
  },
  "POST /v1/agent-sessions/{id}/release": {
    scope: "workspace",
    // the session is A's: another member's heartbeat finds no session of theirs
    roles: { member: 404, admin: 404 },
    ownKeyOnly: true,
    req: (f) => ({
      method: "POST",
      path: `/v1/agent-sessions/${f.session}/release`,
      body: { status: "complete", moveTo: f.columns[2] }
    })
  },
  "GET /v1/agent-sessions/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/agent-sessions/${f.session}` })
  },
  "GET /v1/cards/{id}/agent-sessions": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/cards/${f.target}/agent-sessions` })
  },
  "GET /v1/projects/{projectId}/agent-sessions": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}/agent-sessions?status=active` })
  }
}
