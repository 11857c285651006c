/**
 * Issue 9 (part 2): the access matrix over every operation of /api/v1/openapi.json, with real
 * credentials over real HTTP. board-access.test.ts checks the board endpoints in depth (success
 * shapes, ids inside bodies, members); this suite is driven by the document, so an operation
 * added to the API without a row here fails the first test.
 *
 * Actors on A's resources (a fresh fixture in A's first workspace W1 for every row):
 *   - B's API key                                 → 404 {error}
 *   - B's OAuth token (bound to B's workspace)    → 404 {error}
 *   - A's OAuth token bound to A's *other* workspace W2 → 403 {error} (SPEC.md, Authentication rule 3),
 *     or 401 where the operation takes no OAuth token at all;
 * and after each refused attempt, a digest of every row of A's (both workspaces, their boards, links,
 * intake tokens, A's keys and grants) is unchanged. The natural-language endpoint and every MCP tool
 * are held to the same: refused, and nothing changes.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as crypto from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key, type Reply } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

interface Fixture {
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
}

interface Req {
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
const WEBHOOK_URL = "https://203.0.113.10/hook"

type Scope = "workspace" | "account" | "intake" | "public" | "global"

interface Row {
  readonly scope: Scope
  readonly req: (f: Fixture) => Req
  /** The operation takes no OAuth token (bootstrap and account-management operations). */
  readonly noOAuth?: true
}

const id = () => crypto.randomUUID()

/** One row per operation of the document, keyed "METHOD /path" exactly as the document writes it. */
const ROWS: Record<string, Row> = {
  "GET /v1": { scope: "public", req: () => ({ method: "GET", path: "/v1" }) },
  "GET /v1/health": { scope: "public", req: () => ({ method: "GET", path: "/v1/health" }) },
  "POST /v1/auth/signup": { scope: "public", req: () => ({ method: "POST", path: "/v1/auth/signup", body: {} }) },
  "POST /v1/auth/login": { scope: "public", req: () => ({ method: "POST", path: "/v1/auth/login", body: {} }) },
  "GET /v1/auth/providers": { scope: "public", req: () => ({ method: "GET", path: "/v1/auth/providers" }) },
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
    noOAuth: true,
    req: () => ({ method: "POST", path: "/v1/api-keys", body: { name: "mine" } })
  },
  "GET /v1/api-keys": { scope: "account", noOAuth: true, req: () => ({ method: "GET", path: "/v1/api-keys" }) },
  // A's key id is filled in by the test
  "DELETE /v1/api-keys/{id}": {
    scope: "account",
    noOAuth: true,
    req: () => ({ method: "DELETE", path: "/v1/api-keys/{A.key}" })
  },
  "POST /v1/workspaces": {
    scope: "account",
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
    noOAuth: true,
    req: () => ({ method: "POST", path: "/v1/workspaces/{W1}/members", body: { email: "{D.email}" } })
  },
  "PATCH /v1/workspaces/{id}": {
    scope: "workspace",
    noOAuth: true,
    req: () => ({ method: "PATCH", path: "/v1/workspaces/{W1}", body: { name: "Renamed" } })
  },
  // a workspace of its own: the owner's delete must leave W1 to the other rows
  "DELETE /v1/workspaces/{id}": {
    scope: "workspace",
    noOAuth: true,
    req: (f) => ({ method: "DELETE", path: `/v1/workspaces/${f.spareWorkspace}` })
  },
  "GET /v1/projects/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/projects/${f.projectId}` })
  },
  "PATCH /v1/projects/{id}": {
    scope: "workspace",
    noOAuth: true,
    req: (f) => ({
      method: "PATCH",
      path: `/v1/projects/${f.projectId}`,
      body: { name: "Stolen", archived: true, automation: { pullRequestMerged: false } }
    })
  },
  "DELETE /v1/projects/{id}": {
    scope: "workspace",
    noOAuth: true,
    req: (f) => ({ method: "DELETE", path: `/v1/projects/${f.projectId}` })
  },
  "POST /v1/projects": {
    scope: "workspace",
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
  "POST /v1/cards/{id}/archive": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/archive` })
  },
  "POST /v1/cards/{id}/restore": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/restore` })
  },
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
    req: (f) => ({ method: "PATCH", path: `/v1/comments/${f.comment}`, body: { body: "stolen" } })
  },
  "DELETE /v1/comments/{id}": {
    scope: "workspace",
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
    req: (f) => ({ method: "PATCH", path: `/v1/webhooks/${f.webhook}`, body: { description: "intruder" } })
  },
  "DELETE /v1/webhooks/{id}": {
    scope: "workspace",
    req: (f) => ({ method: "DELETE", path: `/v1/webhooks/${f.webhook}` })
  },
  "GET /v1/webhooks/{id}/deliveries": {
    scope: "workspace",
    req: (f) => ({ method: "GET", path: `/v1/webhooks/${f.webhook}/deliveries` })
  },
  "POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/webhooks/${f.webhook}/deliveries/${f.delivery}/retry` })
  },
  "POST /v1/webhooks/{id}/ping": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/webhooks/${f.webhook}/ping` })
  },
  "POST /v1/cards/{id}/claim": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/cards/${f.card}/claim`, body: { ttlSeconds: 60 } })
  },
  "POST /v1/projects/{projectId}/claim-next": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/projects/${f.projectId}/claim-next`, body: { columnId: f.columns[0] } })
  },
  "POST /v1/agent-sessions/{id}/heartbeat": {
    scope: "workspace",
    req: (f) => ({ method: "POST", path: `/v1/agent-sessions/${f.session}/heartbeat` })
  },
  "POST /v1/agent-sessions/{id}/activities": {
    scope: "workspace",
    req: (f) => ({
      method: "POST",
      path: `/v1/agent-sessions/${f.session}/activities`,
      body: { type: "response", body: "done by an intruder" }
    })
  },
  "POST /v1/agent-sessions/{id}/release": {
    scope: "workspace",
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

const expectError = (r: Reply, label: string) => {
  expect(r.body, `${label}: ${r.text.slice(0, 200)}`).toEqual({ error: expect.any(String) })
  expect(r.body.error.length).toBeGreaterThan(0)
}

describe.each(backends)("access matrix from the OpenAPI document on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account
  let B: Account
  /** An account nobody acts as: the one A's workspace is offered to in the members row. */
  let D: Account
  /** A's second workspace. */
  let W2: { workspaceId: string; projectId: string }
  /** A's OAuth token, bound to W2 only, and its grant. */
  let aInW2: { token: string; grant: string }
  let aKeyId: string
  /** B's OAuth token, bound to B's workspace. */
  let bOAuth: string
  const operations: Array<string> = []

  const must = async (who: Account, req: Req, status: number) => {
    const r = await call(base, req.method, req.path, {
      ...(req.body !== undefined ? { body: req.body } : {}),
      headers: key(who.apiKey)
    })
    if (r.status !== status) throw new Error(`${req.method} ${req.path} → ${r.status} (expected ${status}): ${r.text}`)
    return r.body
  }

  /** A fresh board of A's in W1: cards, a label on one, a spare label, a subtask, links, an intake token. */
  const fixture = async (): Promise<Fixture> => {
    const word = `zq${crypto.randomBytes(6).toString("hex")}`
    const p = await must(
      A,
      {
        method: "POST",
        path: "/v1/projects",
        body: { workspaceId: A.workspaceId, name: "Website", template: "kanban" }
      },
      201
    )
    const projectId = p.project.id as string
    const columns = (p.columns as Array<{ id: string }>).map((c) => c.id)
    const first = await must(
      A,
      { method: "POST", path: "/v1/cards", body: { projectId, columnId: columns[0], title: `Fix the ${word} page` } },
      201
    )
    const target = (
      await must(
        A,
        { method: "POST", path: "/v1/cards", body: { projectId, columnId: columns[1], title: "Target" } },
        201
      )
    ).id
    const label = (await must(A, { method: "POST", path: "/v1/labels", body: { projectId, name: "bug" } }, 201)).id
    const spare = (await must(A, { method: "POST", path: "/v1/labels", body: { projectId, name: "spare" } }, 201)).id
    await must(A, { method: "POST", path: `/v1/cards/${first.id}/labels`, body: { labelId: label } }, 200)
    const subtask = (
      await must(A, { method: "POST", path: "/v1/subtasks", body: { cardId: first.id, title: "step" } }, 201)
    ).id
    const link = (
      await must(
        A,
        { method: "POST", path: `/v1/cards/${first.id}/links`, body: { targetId: target, linkType: "blocks" } },
        201
      )
    ).id
    const emptyColumn = (
      await must(A, { method: "POST", path: "/v1/columns", body: { projectId, name: "Parked" } }, 201)
    ).id
    const submitted = await must(
      A,
      {
        method: "POST",
        path: `/v1/projects/${projectId}/links`,
        body: { url: `https://docs.example/${word}`, title: `About ${word}` }
      },
      201
    )
    const intake = await must(
      A,
      { method: "POST", path: "/v1/intake-tokens", body: { columnId: columns[0], name: "form" } },
      201
    )
    const comment = (
      await must(A, { method: "POST", path: `/v1/cards/${first.id}/comments`, body: { body: `About ${word}` } }, 201)
    ).id
    const webhook = await must(
      A,
      { method: "POST", path: "/v1/webhooks", body: { url: WEBHOOK_URL, projectId, events: ["project_link.deleted"] } },
      201
    )
    await must(A, { method: "PATCH", path: `/v1/webhooks/${webhook.id}`, body: { enabled: false } }, 200)
    // queued while disabled: it waits and is never sent
    const delivery = await must(A, { method: "POST", path: `/v1/webhooks/${webhook.id}/ping` }, 202)
    const session = await must(A, { method: "POST", path: `/v1/cards/${target}/claim`, body: {} }, 201)
    const spareWs = await must(A, { method: "POST", path: "/v1/workspaces", body: { name: `Spare ${word}` } }, 201)
    return {
      spareWorkspace: spareWs.workspace.id,
      comment,
      session: session.id,
      word,
      projectId,
      columns,
      card: first.id,
      ref: first.ref,
      target,
      label,
      spare,
      subtask,
      link,
      emptyColumn,
      projectLink: submitted.link.id,
      intakeToken: intake.id,
      webhook: webhook.id,
      delivery: delivery.id
    }
  }

  /** Placeholders for values outside a board fixture. */
  const concrete = (req: Req): Req => {
    const fill = (s: string) =>
      s
        .replaceAll("{W1}", A.workspaceId)
        .replaceAll("{D.email}", D.email)
        .replaceAll("{grant}", aInW2.grant)
        .replaceAll("{A.key}", aKeyId)
    return {
      method: req.method,
      path: fill(req.path),
      ...(req.body !== undefined ? { body: JSON.parse(fill(JSON.stringify(req.body))) } : {})
    }
  }

  /**
   * A digest of every row that is A's: every workspace of A's (W1, W2 and the rows' spare ones), their members and projects, everything on
   * their boards, project links, intake tokens (and claims), and A's API keys and OAuth grants
   * (without their last-used times, which reads may touch).
   */
  const digest = async () => {
    const ws = `SELECT workspace_id FROM workspace_members WHERE user_id = '${A.userId}'`
    const projects = `SELECT id FROM projects WHERE workspace_id IN (${ws})`
    const cards = `SELECT id FROM cards WHERE project_id IN (${projects})`
    const rows = await server.query<{ d: string; n: number }>(`
      SELECT md5(string_agg(x, '|' ORDER BY x)) AS d, count(*)::int AS n FROM (
        SELECT 'w' || t::text AS x FROM workspaces t WHERE id IN (${ws})
        UNION ALL SELECT 'm' || t::text FROM workspace_members t WHERE workspace_id IN (${ws})
        UNION ALL SELECT 'p' || t::text FROM projects t WHERE workspace_id IN (${ws})
        UNION ALL SELECT 'c' || t::text FROM board_columns t WHERE project_id IN (${projects})
        UNION ALL SELECT 'k' || t::text FROM cards t WHERE project_id IN (${projects})
        UNION ALL SELECT 'l' || t::text FROM labels t WHERE project_id IN (${projects})
        UNION ALL SELECT 'cl' || t::text FROM card_labels t WHERE card_id IN (${cards})
        UNION ALL SELECT 's' || t::text FROM subtasks t WHERE card_id IN (${cards})
        UNION ALL SELECT 'ca' || t::text FROM card_assignees t WHERE card_id IN (${cards})
        UNION ALL SELECT 'cm' || t::text FROM comments t WHERE card_id IN (${cards})
        UNION ALL SELECT 'ln' || t::text FROM card_links t WHERE source_id IN (${cards}) OR target_id IN (${cards})
        UNION ALL SELECT 'pl' || t::text FROM project_links t WHERE project_id IN (${projects})
        UNION ALL SELECT 'it' || t::text FROM intake_tokens t WHERE project_id IN (${projects})
        UNION ALL SELECT 'ic' || t::text FROM intake_claims t WHERE token_id IN (SELECT id FROM intake_tokens WHERE project_id IN (${projects}))
        UNION ALL SELECT 'wh' || t::text FROM webhooks t WHERE workspace_id IN (${ws})
        UNION ALL SELECT 'wd' || t::text FROM webhook_deliveries t WHERE webhook_id IN (SELECT id FROM webhooks WHERE workspace_id IN (${ws}))
        UNION ALL SELECT 'as' || t::text FROM agent_sessions t WHERE card_id IN (${cards})
        UNION ALL SELECT 'aa' || t::text FROM agent_activities t WHERE session_id IN (SELECT id FROM agent_sessions WHERE card_id IN (${cards}))
        UNION ALL SELECT 'ak' || id::text || coalesce(revoked_at::text, '') FROM api_keys WHERE user_id = '${A.userId}'
        UNION ALL SELECT 'g' || id::text || workspaces::text || coalesce(revoked_at::text, '') FROM oauth_grants WHERE user_id = '${A.userId}'
      ) rows`)
    return rows[0]!
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    A = await bootstrap(base, "owner")
    B = await bootstrap(base, "other")
    D = await bootstrap(base, "bystander")
    const ws2 = await call(base, "POST", "/v1/workspaces", { body: { name: "A's second" }, headers: bearer(A.session) })
    const p2 = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: ws2.body.workspace.id, name: "Other", template: "kanban" },
      headers: key(A.apiKey)
    })
    W2 = { workspaceId: ws2.body.workspace.id, projectId: p2.body.project.id }
    const flowA = await fullFlow(base, A, [W2.workspaceId])
    const grants = await call(base, "GET", "/v1/oauth/grants", { headers: key(A.apiKey) })
    aInW2 = { token: flowA.tokens.access_token, grant: grants.body[0].id }
    aKeyId = (await call(base, "GET", "/v1/api-keys", { headers: key(A.apiKey) })).body[0].id
    bOAuth = (await fullFlow(base, B, [B.workspaceId])).tokens.access_token
    const doc = (await call(base, "GET", "/v1/openapi.json")).body
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(methods)) operations.push(`${method.toUpperCase()} ${path}`)
    }
  })
  afterAll(() => server?.stop())

  it("has a row for every operation of the document, and no row for an operation it lacks", () => {
    expect(operations.length).toBeGreaterThan(40)
    expect([...operations].sort()).toEqual(Object.keys(ROWS).sort())
  })

  it("the OAuth token bound to W2 works in W2 (so its refusals below are about the binding)", async () => {
    const r = await call(base, "GET", `/v1/board/${W2.projectId}`, { headers: bearer(aInW2.token) })
    expect(r.status).toBe(200)
    const listed = await call(base, "GET", "/v1/workspaces", { headers: bearer(aInW2.token) })
    expect(listed.body.map((w: any) => w.id)).toEqual([W2.workspaceId])
  })

  const workspaceRows = Object.entries(ROWS).filter(([, r]) => r.scope === "workspace")

  describe("every operation on A's workspace: outsiders are refused and nothing changes", () => {
    it.each(workspaceRows)("%s", async (name, row) => {
      const f = await fixture()
      const req = concrete(row.req(f))
      const before = await digest()
      const attempts: Array<[string, Record<string, string>, number]> = [
        ["B's API key", key(B.apiKey), 404],
        ["B's OAuth token", bearer(bOAuth), row.noOAuth ? 401 : 404],
        ["A's OAuth token bound to W2", bearer(aInW2.token), row.noOAuth ? 401 : 403]
      ]
      for (const [who, headers, status] of attempts) {
        const r = await call(base, req.method, req.path, {
          ...(req.body !== undefined ? { body: req.body } : {}),
          headers
        })
        expect(r.status, `${name} by ${who}: ${r.text.slice(0, 200)}`).toBe(status)
        expectError(r, `${name} by ${who}`)
        expect(r.text).not.toContain(f.word)
        expect(await digest(), `${name} by ${who} changed A's data`).toEqual(before)
      }
      // and the same request by the owner works, so the row addresses something real
      const own = await call(base, req.method, req.path, {
        ...(req.body !== undefined ? { body: req.body } : {}),
        headers: key(A.apiKey)
      })
      expect(own.status, `${name} by A: ${own.text.slice(0, 200)}`).toBeLessThan(300)
    })
  })

  describe("operations on one's own account never reach A's data", () => {
    const attempt = (req: Req, headers: Record<string, string>) =>
      call(base, req.method, req.path, { ...(req.body !== undefined ? { body: req.body } : {}), headers })

    it("GET /v1/workspaces lists only the caller's (or the grant's) workspaces", async () => {
      const byB = await attempt(ROWS["GET /v1/workspaces"]!.req(await fixture()), key(B.apiKey))
      expect(byB.body.map((w: any) => w.id)).toEqual([B.workspaceId])
      const byBOAuth = await attempt({ method: "GET", path: "/v1/workspaces" }, bearer(bOAuth))
      expect(byBOAuth.body.map((w: any) => w.id)).toEqual([B.workspaceId])
    })

    it("GET /v1/search finds none of A's cards for B, nor W1's cards for the W2-bound token", async () => {
      const f = await fixture()
      const req = ROWS["GET /v1/search"]!.req(f)
      expect((await attempt(req, key(A.apiKey))).body.map((c: any) => c.id)).toEqual([f.card])
      for (const headers of [key(B.apiKey), bearer(bOAuth), bearer(aInW2.token)]) {
        const r = await attempt(req, headers)
        expect(r.status).toBe(200)
        expect(r.body).toEqual([])
      }
    })

    it("POST /v1/nlu cannot reach A's cards: 400 for outsiders, refused for the W2-bound token, nothing changes", async () => {
      const f = await fixture()
      let before = await digest()
      const commands = [
        `move ${f.ref} to Done`,
        `add label hacked to ${f.ref}`,
        `rename ${f.ref} to Stolen`,
        `${f.ref} blocks ${f.ref}`,
        `create card Intruder in To Do`,
        `delete ${f.ref}`
      ]
      for (const command of commands) {
        for (const [who, headers] of [
          ["B's key", key(B.apiKey)],
          ["B's OAuth", bearer(bOAuth)],
          ["A's W2 token", bearer(aInW2.token)]
        ] as const) {
          for (const body of [{ command }, { command, projectId: f.projectId }]) {
            const r = await attempt({ method: "POST", path: "/v1/nlu", body }, headers)
            const label = `${JSON.stringify(body)} by ${who}`
            // a command whose card or project the caller cannot see is a 400 (SPEC lists no 404 here);
            // naming a project of a workspace outside the grant is the 403 of Authentication rule 3;
            // a create without a project may land on the caller's own board, never on A's
            expect([200, 400, 403], `${label}: ${r.text.slice(0, 200)}`).toContain(r.status)
            if (r.status === 200) expect(body.projectId, label).toBeUndefined()
            if (r.status !== 200) expectError(r, label)
            if (who === "A's W2 token" && body.projectId !== undefined) expect(r.status, label).toBe(403)
            if (who !== "A's W2 token" && body.projectId !== undefined) expect(r.status, label).toBe(400)
            expect(r.text, label).not.toContain(f.word)
            if (r.status === 200) {
              // the create landed on the caller's only visible board: B's own, or W2's for A's token
              expect(r.body.projectId, label).toBe(who === "A's W2 token" ? W2.projectId : B.projectId)
              before = await digest()
            }
            expect(await digest(), `${label} changed A's data`).toEqual(before)
          }
        }
      }
    })

    // A's OAuth grants and A's API keys: listed and revoked by their owner only, never by an OAuth token
    it.each([
      {
        what: "grant",
        list: "/v1/oauth/grants",
        del: "DELETE /v1/oauth/grants/{id}",
        id: () => aInW2.grant,
        stillWorks: () => attempt({ method: "GET", path: `/v1/board/${W2.projectId}` }, bearer(aInW2.token))
      },
      {
        what: "API key",
        list: "/v1/api-keys",
        del: "DELETE /v1/api-keys/{id}",
        id: () => aKeyId,
        stillWorks: () => attempt({ method: "GET", path: "/v1/workspaces" }, key(A.apiKey))
      }
    ])(
      "$list: B lists none of A's, B's DELETE of A's $what is 404, OAuth tokens get 401, and A's $what still works",
      async ({ what, list, del, id, stillWorks }) => {
        const listed = await attempt({ method: "GET", path: list }, key(B.apiKey))
        expect(listed.status).toBe(200)
        expect(listed.body.map((x: any) => x.id)).not.toContain(id())
        const req = concrete(ROWS[del]!.req(await fixture()))
        const before = await digest()
        const refusedToB = await attempt(req, key(B.apiKey))
        expect(refusedToB.status).toBe(404)
        expectError(refusedToB, `DELETE ${what} by B`)
        for (const headers of [bearer(aInW2.token), bearer(bOAuth)]) {
          for (const r of [req, { method: "GET", path: list }]) {
            const refused = await attempt(r, headers)
            expect(refused.status, `${r.method} ${r.path} by an OAuth token`).toBe(401)
            expectError(refused, `${what}s by an OAuth token`)
          }
        }
        expect(await digest()).toEqual(before)
        expect((await stillWorks()).status).toBe(200)
      }
    )

    it("POST /v1/workspaces and POST /v1/api-keys by B create B's own things only; OAuth tokens cannot call them", async () => {
      const before = await digest()
      for (const op of ["POST /v1/workspaces", "POST /v1/api-keys"]) {
        const req = ROWS[op]!.req(await fixture())
        const fresh = await digest()
        expect((await attempt(req, key(B.apiKey))).status).toBe(201)
        for (const headers of [bearer(aInW2.token), bearer(bOAuth)]) {
          const r = await attempt(req, headers)
          expect(r.status, `${op} by an OAuth token`).toBe(401)
          expectError(r, op)
        }
        expect(await digest()).toEqual(fresh)
      }
      expect((await digest()).n).toBeGreaterThan(before.n) // the fixtures themselves are A's rows
    })
  })

  describe("operations outside any workspace", () => {
    it("POST /v1/intake takes only an intake token: every other credential is 401 and files nothing", async () => {
      const f = await fixture()
      const before = await digest()
      for (const headers of [key(A.apiKey), key(B.apiKey), bearer(aInW2.token), bearer(bOAuth), bearer(A.session)]) {
        const r = await call(base, "POST", "/v1/intake", { body: ROWS["POST /v1/intake"]!.req(f).body, headers })
        expect(r.status).toBe(401)
        expectError(r, "intake")
      }
      expect(await digest()).toEqual(before)
    })

    it("desktop builds are install-wide: every user's credential reads them alike, the session token none", async () => {
      for (const [name, row] of Object.entries(ROWS).filter(([, r]) => r.scope === "global")) {
        const req = row.req(await fixture())
        const answers = []
        for (const headers of [key(A.apiKey), key(B.apiKey), bearer(aInW2.token), bearer(bOAuth)]) {
          const r = await call(base, req.method, req.path, { headers })
          expect([200, 302, 404], `${name}: ${r.text.slice(0, 200)}`).toContain(r.status)
          answers.push(r.status)
        }
        expect(new Set(answers).size, name).toBe(1)
        expect((await call(base, req.method, req.path, { headers: bearer(A.session) })).status).toBe(401)
      }
    })
  })

  describe("MCP tools", () => {
    const connect = async (headers: Record<string, string>) => {
      const client = new Client({ name: "access-matrix", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }))
      return client
    }

    it("every tool with A's ids is a tool error for B's key and for both OAuth tokens, and nothing changes", async () => {
      const f = await fixture()
      const attempts: Array<[string, Record<string, unknown>]> = [
        ["list_projects", { workspaceId: A.workspaceId }],
        ["show_board", { projectId: f.projectId }],
        ["show_card", { card: f.card }],
        ["show_card", { card: f.ref, projectId: f.projectId }],
        ["create_card", { projectId: f.projectId, column: "To Do", title: "Intruder" }],
        ["update_card", { card: f.card, title: "Stolen" }],
        ["move_card", { card: f.card, column: "Done" }],
        ["archive_card", { card: f.card }],
        ["restore_card", { card: f.card }],
        ["add_label", { card: f.card, label: "hacked" }],
        ["remove_label", { card: f.card, label: "bug" }],
        ["add_subtask", { card: f.card, title: "Sneaky" }],
        ["toggle_subtask", { subtaskId: f.subtask }],
        ["link_cards", { card: f.card, target: f.target, linkType: "relates_to" }],
        ["submit_link", { projectId: f.projectId, url: "https://intruder.example/x" }],
        ["list_links", { projectId: f.projectId }],
        ["get_prompt", { card: f.card }],
        ["comment", { card: f.card, body: "intruder" }],
        ["list_events", { projectId: f.projectId }],
        ["card_history", { card: f.card }],
        ["run_command", { command: `move ${f.ref} to Done`, projectId: f.projectId }],
        ["claim_card", { card: f.card }],
        ["claim_next_card", { projectId: f.projectId, column: "To Do" }],
        ["heartbeat", { sessionId: f.session }],
        ["report", { sessionId: f.session, type: "response", body: "intruder" }],
        ["release_card", { sessionId: f.session, moveTo: "Done" }]
      ]
      const clients = [
        ["B's key", await connect(key(B.apiKey))],
        ["B's OAuth token", await connect(bearer(bOAuth))],
        ["A's token bound to W2", await connect(bearer(aInW2.token))]
      ] as const
      try {
        const { tools } = await clients[0][1].listTools()
        // every tool that takes an id is attempted; the three without one are checked for leaks below
        expect(new Set(attempts.map(([n]) => n))).toEqual(
          new Set(tools.map((t) => t.name).filter((n) => !["list_workspaces", "search_cards"].includes(n)))
        )
        const before = await digest()
        for (const [who, client] of clients) {
          for (const [tool, args] of attempts) {
            const r = (await client.callTool({ name: tool, arguments: args })) as {
              isError?: boolean
              content: Array<{ text?: string }>
            }
            const text = r.content.map((c) => c.text ?? "").join("\n")
            expect(r.isError, `${tool} by ${who} should fail: ${text.slice(0, 200)}`).toBe(true)
            expect(text, `${tool} by ${who}`).toMatch(
              who === "A's token bound to W2" ? /not found|no card|not granted|grant|workspace/i : /not found|no card/i
            )
            expect(text).not.toContain(f.word)
          }
          const listed = (await client.callTool({ name: "list_workspaces", arguments: {} })) as {
            structuredContent?: any
          }
          expect(JSON.stringify(listed.structuredContent)).not.toContain(A.workspaceId)
          const found = (await client.callTool({ name: "search_cards", arguments: { query: f.word } })) as {
            structuredContent?: any
          }
          expect(found.structuredContent.cards).toEqual([])
        }
        expect(await digest()).toEqual(before)
      } finally {
        for (const [, c] of clients) await c.close()
      }
    })
  })

  it("a refused request by any credential leaves no trace in A's data even when aimed at ids that exist nowhere", async () => {
    // the same matrix on ghost ids: never 5xx, never 2xx, always {error}
    const f = await fixture()
    const ghost: Fixture = {
      ...f,
      projectId: id(),
      card: id(),
      target: id(),
      label: id(),
      spare: id(),
      subtask: id(),
      link: id(),
      emptyColumn: id(),
      projectLink: id(),
      intakeToken: id(),
      webhook: id(),
      delivery: id(),
      session: id(),
      columns: f.columns.map(() => id())
    }
    const before = await digest()
    for (const [name, row] of workspaceRows) {
      const req = concrete(row.req(ghost))
      for (const headers of [key(B.apiKey), bearer(aInW2.token)]) {
        const r = await call(base, req.method, req.path, {
          ...(req.body !== undefined ? { body: req.body } : {}),
          headers
        })
        expect([401, 403, 404], `${name}: ${r.text.slice(0, 200)}`).toContain(r.status)
        expectError(r, name)
      }
    }
    expect(await digest()).toEqual(before)
  })
})
