/**
 * The access matrix's world: accounts A (owner of W1 and W2), B (an outsider), D (an account
 * offered to W1 in the members row), E (a member of W1 whose role the members rows change), a
 * fresh board fixture of A's per row, and a digest of everything that is A's.
 */
import * as crypto from "node:crypto"
import { type Fixture, type Req, WEBHOOK_URL } from "./accessRows.ts"
import { installChangeLog, unlessChanged } from "./changeLog.ts"
import { type Account, bearer, bootstrap, call, key } from "./client.ts"
import type { TestServer } from "./server.ts"

export interface AccessWorld {
  readonly A: Account
  readonly B: Account
  readonly D: Account
  readonly E: Account
  readonly W2: { workspaceId: string; projectId: string }
  readonly fixture: () => Promise<Fixture>
  /** Fills the placeholders of a row's request; `extra` adds the test's own ({grant}, {A.key}). */
  readonly concrete: (req: Req, extra?: Record<string, string>) => Req
  readonly digest: () => Promise<{ d: string; n: number }>
  /** Before each row: E is a member of W1 again, D is not. */
  readonly prepare: () => Promise<void>
}

export const accessWorld = async (server: TestServer): Promise<AccessWorld> => {
  const base = server.baseUrl
  const A = await bootstrap(base, "owner")
  const B = await bootstrap(base, "other")
  const D = await bootstrap(base, "bystander")
  const E = await bootstrap(base, "teammate")
  const ws2 = await call(base, "POST", "/v1/workspaces", { body: { name: "A's second" }, headers: bearer(A.session) })
  const p2 = await call(base, "POST", "/v1/projects", {
    body: { workspaceId: ws2.body.workspace.id, name: "Other", template: "kanban" },
    headers: key(A.apiKey)
  })
  const W2 = { workspaceId: ws2.body.workspace.id as string, projectId: p2.body.project.id as string }
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
    const agent = (
      await must(A, { method: "POST", path: `/v1/workspaces/${A.workspaceId}/agents`, body: { name: "Bot" } }, 201)
    ).id
    const agentKey = (
      await must(A, { method: "POST", path: `/v1/agents/${agent}/api-keys`, body: { name: "bot key" } }, 201)
    ).id
    const invitation = await must(
      A,
      { method: "POST", path: `/v1/workspaces/${A.workspaceId}/invitations`, body: { role: "viewer" } },
      201
    )
    const repository = await must(
      A,
      {
        method: "POST",
        path: `/v1/projects/${projectId}/repositories`,
        body: { provider: "github", name: `acme/${word}` }
      },
      201
    )
    return {
      repository: repository.id,
      invitation: invitation.id,
      spareWorkspace: spareWs.workspace.id,
      agent,
      agentKey,
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
  const concrete = (req: Req, extra: Record<string, string> = {}): Req => {
    const fill = (s: string) =>
      Object.entries({ "{W1}": A.workspaceId, "{D.email}": D.email, "{E}": E.userId, ...extra }).reduce(
        (out, [placeholder, value]) => out.replaceAll(placeholder, value),
        s
      )
    return {
      method: req.method,
      path: fill(req.path),
      ...(req.body !== undefined ? { body: JSON.parse(fill(JSON.stringify(req.body))) } : {})
    }
  }

  /**
   * A digest of every row that is A's: both workspaces, their members and projects, everything on
   * their boards, project links, intake tokens (and claims), and A's API keys and OAuth grants
   * (without their last-used times, which reads may touch). Taken again only when something in
   * the database changed since the last one (`unlessChanged`): most checks follow a refused request.
   */
  const digest = unlessChanged(await installChangeLog(server), async () => {
    // every workspace of A's: W1, W2 and the rows' spare ones
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
      UNION ALL SELECT 'ag' || t::text FROM agents t WHERE workspace_id IN (${ws})
      UNION ALL SELECT 'inv' || t::text FROM invitations t WHERE workspace_id IN (${ws})
      UNION ALL SELECT 'rp' || t::text FROM repositories t WHERE project_id IN (${projects})
      UNION ALL SELECT 'dp' || t::text FROM deployments t WHERE project_id IN (${projects})
      UNION ALL SELECT 'ak' || id::text || coalesce(revoked_at::text, '') FROM api_keys
        WHERE user_id = '${A.userId}' OR user_id IN (SELECT user_id FROM agents WHERE workspace_id IN (${ws}))
      UNION ALL SELECT 'g' || id::text || workspaces::text || coalesce(revoked_at::text, '') FROM oauth_grants WHERE user_id = '${A.userId}'
    ) rows`)
    return rows[0]!
  })

  const prepare = async () => {
    await server.query(
      `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'member')
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = 'member'`,
      [A.workspaceId, E.userId]
    )
    await server.query(`DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [
      A.workspaceId,
      D.userId
    ])
  }
  await prepare()
  return { A, B, D, E, W2, fixture, concrete, digest, prepare }
}
