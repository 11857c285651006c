/**
 * Issue 30: workspace rename and delete, project read, rename, archive, restore, automation and
 * delete, over real HTTP, with the roles that may do each (a member or an admin asking for more
 * gets 403 naming the role it needs, and nothing changes). Deletes are checked against every
 * table: nothing of the deleted project or workspace is left, nothing of another is touched; the
 * open event streams of what was deleted end; a workspace-wide webhook (a real receiver on
 * loopback) hears `project.deleted`. On PostgreSQL too: the cascades, the triggers that fire
 * with them (order counts, ref sequences, the member-left notification) are the database's.
 */
import * as http from "node:http"
import type * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { waitFor } from "./support/poll.ts"
import { startServer, type TestServer } from "./support/server.ts"

/** An event stream's blocks, and when it ended. */
const openStream = (url: string, headers: Record<string, string>) => {
  const blocks: Array<string> = []
  let endedAt: number | undefined
  let opened!: () => void
  const openedP = new Promise<void>((r) => {
    opened = r
  })
  const abort = new AbortController()
  const done = (async () => {
    const response = await fetch(url, { headers, signal: abort.signal })
    if (response.status !== 200) throw new Error(`stream answered ${response.status}: ${await response.text()}`)
    const decoder = new TextDecoder()
    let buffer = ""
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          blocks.push(buffer.slice(0, end))
          buffer = buffer.slice(end + 2)
          opened()
        }
      }
    } catch {
      // aborted by the test
    }
    endedAt = Date.now()
  })()
  return { blocks, opened: openedP, done, endedAt: () => endedAt, close: () => abort.abort() }
}

/** No workspace: `leftovers` of projects alone. */
const NO_WORKSPACE = "00000000-0000-0000-0000-000000000000"

const PROJECT_KEYS = ["id", "workspaceId", "name", "refPrefix", "archivedAt", "automation", "createdAt", "updatedAt"]

describe.each(backends)("workspace and project management on %s", (backend) => {
  let server: TestServer
  let base: string
  let hooks: http.Server
  let hookUrl: string
  const received: Array<{ event: string; body: any }> = []
  /** A, the owner; its admin, member and viewer (their roles set as the members work would). */
  let A: Account
  let admin: Account
  let member: Account
  let viewer: Account

  const as = (who: Account) => key(who.apiKey)
  const req = (who: Account, method: string, path: string, body?: unknown) =>
    call(base, method, path, { ...(body !== undefined ? { body } : {}), headers: as(who) })
  const must = async (who: Account, method: string, path: string, body: unknown, status: number) => {
    const r = await req(who, method, path, body)
    expect(r.status, `${method} ${path}: ${r.text}`).toBe(status)
    return r.body
  }
  const join = async (workspaceId: string, who: Account, role: string) => {
    await must(A, "POST", `/v1/workspaces/${workspaceId}/members`, { email: who.email }, 201)
    await server.query(`UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2`, [
      workspaceId,
      who.userId,
      role
    ])
  }
  /** A fresh project of A's first workspace with a card, a label, a comment, a subtask, a link, an intake token. */
  const project = async (name = "Launch") => {
    const p = await must(A, "POST", "/v1/projects", { workspaceId: A.workspaceId, name, template: "kanban" }, 201)
    const projectId = p.project.id as string
    const col = p.columns[0].id as string
    const card = await must(A, "POST", "/v1/cards", { projectId, columnId: col, title: "Ship it" }, 201)
    const other = await must(A, "POST", "/v1/cards", { projectId, columnId: col, title: "Then this" }, 201)
    const label = await must(A, "POST", "/v1/labels", { projectId, name: "bug" }, 201)
    await must(A, "POST", `/v1/cards/${card.id}/labels`, { labelId: label.id }, 200)
    await must(A, "POST", "/v1/subtasks", { cardId: card.id, title: "step" }, 201)
    await must(A, "POST", `/v1/cards/${card.id}/comments`, { body: "looks good" }, 201)
    await must(A, "POST", `/v1/cards/${card.id}/links`, { targetId: other.id, linkType: "blocks" }, 201)
    await must(A, "POST", `/v1/projects/${projectId}/links`, { url: "https://docs.example/launch" }, 201)
    await must(A, "POST", `/v1/cards/${other.id}/claim`, {}, 201)
    const intake = await must(A, "POST", "/v1/intake-tokens", { columnId: col, name: "form" }, 201)
    return { projectId, columns: p.columns.map((c: any) => c.id as string), card: card.id as string, intake }
  }
  /** How many rows of each table belong to these projects (by id) or this workspace. */
  const leftovers = async (
    workspaceId: string,
    projectIds: ReadonlyArray<string>,
    columnIds: ReadonlyArray<string>
  ) => {
    const [row] = await server.query<Record<string, number>>(
      `SELECT
        (SELECT count(*)::int FROM projects WHERE id = ANY($2::uuid[]) OR workspace_id = $1) AS projects,
        (SELECT count(*)::int FROM board_columns WHERE project_id = ANY($2::uuid[])) AS columns,
        (SELECT count(*)::int FROM cards WHERE project_id = ANY($2::uuid[])) AS cards,
        (SELECT count(*)::int FROM labels WHERE project_id = ANY($2::uuid[])) AS labels,
        (SELECT count(*)::int FROM card_labels cl WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.id = cl.card_id)) AS card_labels,
        (SELECT count(*)::int FROM subtasks s WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.id = s.card_id)) AS subtasks,
        (SELECT count(*)::int FROM comments k WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.id = k.card_id)) AS comments,
        (SELECT count(*)::int FROM card_links l WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.id = l.source_id)) AS card_links,
        (SELECT count(*)::int FROM project_links WHERE project_id = ANY($2::uuid[])) AS project_links,
        (SELECT count(*)::int FROM intake_tokens WHERE project_id = ANY($2::uuid[])) AS intake_tokens,
        (SELECT count(*)::int FROM agent_sessions WHERE project_id = ANY($2::uuid[])) AS agent_sessions,
        (SELECT count(*)::int FROM card_order_counts WHERE column_id = ANY($3::uuid[])) AS order_counts,
        (SELECT count(*)::int FROM events WHERE (project_id = ANY($2::uuid[]) OR workspace_id = $1) AND type <> 'project.deleted') AS events,
        (SELECT count(*)::int FROM webhooks WHERE project_id = ANY($2::uuid[])) AS webhooks,
        (SELECT count(*)::int FROM pg_class WHERE relkind = 'S' AND relname = ANY(
          SELECT 'card_ref_' || replace(p, '-', '') FROM unnest($2::text[]) p)) AS ref_sequences`,
      [workspaceId, projectIds, columnIds]
    )
    return row!
  }
  const none = {
    projects: 0,
    columns: 0,
    cards: 0,
    labels: 0,
    card_labels: 0,
    subtasks: 0,
    comments: 0,
    card_links: 0,
    project_links: 0,
    intake_tokens: 0,
    agent_sessions: 0,
    order_counts: 0,
    events: 0,
    webhooks: 0,
    ref_sequences: 0
  }

  beforeAll(async () => {
    hooks = http.createServer((rq, rs) => {
      let text = ""
      rq.on("data", (d) => (text += d))
      rq.on("end", () => {
        received.push({ event: String(rq.headers["board-event"]), body: JSON.parse(text) })
        rs.writeHead(200).end()
      })
    })
    await new Promise<void>((r) => hooks.listen(0, "127.0.0.1", r))
    hookUrl = `http://127.0.0.1:${(hooks.address() as net.AddressInfo).port}/hook`
    server = await startServer(backend, { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" })
    base = server.baseUrl
    A = await bootstrap(base, "owner")
    admin = await bootstrap(base, "admin")
    member = await bootstrap(base, "member")
    viewer = await bootstrap(base, "viewer")
    await join(A.workspaceId, admin, "admin")
    await join(A.workspaceId, member, "member")
    await join(A.workspaceId, viewer, "viewer")
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    await new Promise((r) => hooks?.close(r))
  })

  describe("PATCH /v1/workspaces/{id}", () => {
    it("an admin or the owner renames it; a member or viewer gets 403 naming admin, and nothing changes", async () => {
      for (const who of [member, viewer]) {
        const r = await req(who, "PATCH", `/v1/workspaces/${A.workspaceId}`, { name: "Taken over" })
        expect(r.status, r.text).toBe(403)
        expect(r.body).toEqual({ error: expect.stringMatching(/you need to be an admin/) })
      }
      const [before] = await server.query(`SELECT name, updated_at FROM workspaces WHERE id = $1`, [A.workspaceId])
      expect(before.name).toBe("owner's workspace")
      const renamed = await must(admin, "PATCH", `/v1/workspaces/${A.workspaceId}`, { name: "  Acme  " }, 200)
      expect(renamed).toEqual({
        id: A.workspaceId,
        name: "Acme",
        role: "admin",
        createdAt: expect.any(String),
        updatedAt: expect.any(String)
      })
      const listed = (await must(A, "GET", "/v1/workspaces", undefined, 200)).find((w: any) => w.id === A.workspaceId)
      expect(listed).toEqual({ ...renamed, role: "owner" })
      // the same name again changes nothing
      const again = await must(A, "PATCH", `/v1/workspaces/${A.workspaceId}`, { name: "Acme" }, 200)
      expect(again.updatedAt).toBe(renamed.updatedAt)
      for (const body of [{ name: "   " }, {}, { name: "x".repeat(201) }]) {
        const r = await req(A, "PATCH", `/v1/workspaces/${A.workspaceId}`, body)
        expect(r.status, JSON.stringify(body)).toBe(400)
        expect(r.body).toEqual({ error: expect.any(String) })
      }
      // an outsider: 404, as for any workspace not theirs
      const outsider = await bootstrap(base, "outsider")
      expect((await req(outsider, "PATCH", `/v1/workspaces/${A.workspaceId}`, { name: "x" })).status).toBe(404)
    })
  })

  describe("projects", () => {
    it("GET /v1/projects/{id} answers the one Project shape, the same as the list and the board", async () => {
      const { projectId } = await project("Read me")
      for (const who of [A, member, viewer]) {
        const p = await must(who, "GET", `/v1/projects/${projectId}`, undefined, 200)
        expect(Object.keys(p)).toEqual(PROJECT_KEYS)
        expect(p).toMatchObject({
          id: projectId,
          workspaceId: A.workspaceId,
          name: "Read me",
          archivedAt: null,
          automation: { pullRequestOpened: true, pullRequestMerged: true }
        })
      }
      const p = await must(A, "GET", `/v1/projects/${projectId}`, undefined, 200)
      expect((await must(A, "GET", `/v1/board/${projectId}`, undefined, 200)).project).toEqual(p)
      expect(await must(A, "GET", `/v1/workspaces/${A.workspaceId}/projects`, undefined, 200)).toContainEqual(p)
      const outsider = await bootstrap(base, "stranger")
      expect((await req(outsider, "GET", `/v1/projects/${projectId}`)).status).toBe(404)
      expect((await req(A, "GET", `/v1/projects/${crypto.randomUUID()}`)).status).toBe(404)
      expect((await req(A, "GET", "/v1/projects/not-a-uuid")).status).toBe(400)
    })

    it("PATCH renames and switches automation (merged into the stored one) for an admin; 403 naming admin below", async () => {
      const { projectId } = await project("Automate")
      const before = await must(A, "GET", `/v1/projects/${projectId}`, undefined, 200)
      for (const who of [member, viewer]) {
        const r = await req(who, "PATCH", `/v1/projects/${projectId}`, { name: "Mine", archived: true })
        expect(r.status, r.text).toBe(403)
        expect(r.body.error).toMatch(/your role in this workspace is (member|viewer): .* you need to be an admin/)
      }
      expect(await must(A, "GET", `/v1/projects/${projectId}`, undefined, 200)).toEqual(before)

      const changed = await must(
        admin,
        "PATCH",
        `/v1/projects/${projectId}`,
        { name: "Automation", automation: { pullRequestMerged: false } },
        200
      )
      expect(changed).toMatchObject({
        name: "Automation",
        refPrefix: before.refPrefix,
        archivedAt: null,
        automation: { pullRequestOpened: true, pullRequestMerged: false }
      })
      expect(changed.updatedAt >= before.updatedAt).toBe(true)
      const again = await must(
        A,
        "PATCH",
        `/v1/projects/${projectId}`,
        { automation: { pullRequestOpened: false } },
        200
      )
      expect(again.automation).toEqual({ pullRequestOpened: false, pullRequestMerged: false })
      // the board's project is written by SQL: the same JSON
      expect((await must(A, "GET", `/v1/board/${projectId}`, undefined, 200)).project).toEqual(again)
      // an empty patch, or one that changes nothing, changes nothing and logs nothing
      const events = async () =>
        (await must(A, "GET", `/v1/projects/${projectId}/events?types=project.updated`, undefined, 200)).events
      const logged = await events()
      expect(logged.map((e: any) => e.data.previous)).toEqual([
        { name: "Automate", automation: { pullRequestOpened: true, pullRequestMerged: true } },
        { automation: { pullRequestOpened: true, pullRequestMerged: false } }
      ])
      expect(logged[0].data.object).toEqual(changed)
      expect(logged[0].actor).toMatchObject({ type: "user", userId: admin.userId })
      expect(await must(A, "PATCH", `/v1/projects/${projectId}`, {}, 200)).toEqual(again)
      expect(await must(A, "PATCH", `/v1/projects/${projectId}`, { name: "Automation" }, 200)).toEqual(again)
      expect(await events()).toHaveLength(2)
      for (const body of [{ name: "" }, { archived: "yes" }, { automation: { pullRequestOpened: 1 } }]) {
        const r = await req(A, "PATCH", `/v1/projects/${projectId}`, body)
        expect(r.status, JSON.stringify(body)).toBe(400)
      }
    })

    it("archive: out of the list (unless ?archived=true, which lists the archived ones), the board still reads; restore brings it back", async () => {
      const { projectId } = await project("Old")
      const list = (q = "") => must(member, "GET", `/v1/workspaces/${A.workspaceId}/projects${q}`, undefined, 200)
      const archived = await must(admin, "PATCH", `/v1/projects/${projectId}`, { archived: true }, 200)
      expect(archived.archivedAt).toEqual(expect.any(String))
      expect((await list()).map((p: any) => p.id)).not.toContain(projectId)
      expect(await list("?archived=true")).toEqual([archived])
      expect((await list("?archived=false")).map((p: any) => p.id)).not.toContain(projectId)
      expect((await req(A, "GET", `/v1/workspaces/${A.workspaceId}/projects?archived=maybe`)).status).toBe(400)
      expect(await must(viewer, "GET", `/v1/projects/${projectId}`, undefined, 200)).toEqual(archived)
      const board = await must(viewer, "GET", `/v1/board/${projectId}`, undefined, 200)
      expect(board.project).toEqual(archived)
      expect(board.cards).toHaveLength(2)
      // archiving it again changes nothing
      expect(await must(A, "PATCH", `/v1/projects/${projectId}`, { archived: true }, 200)).toEqual(archived)
      const restored = await must(A, "PATCH", `/v1/projects/${projectId}`, { archived: false }, 200)
      expect(restored.archivedAt).toBeNull()
      expect((await list()).map((p: any) => p.id)).toContain(projectId)
      expect(await list("?archived=true")).toEqual([])
      const events = (
        await must(A, "GET", `/v1/projects/${projectId}/events?types=project.archived,project.restored`, undefined, 200)
      ).events
      expect(events.map((e: any) => [e.type, e.data.previous])).toEqual([
        ["project.archived", { archivedAt: null }],
        ["project.restored", { archivedAt: archived.archivedAt }]
      ])
    })

    it("DELETE: 403 naming admin for a member; for an admin, 204 and nothing of it is left; its stream ends; the workspace's webhook hears project.deleted", async () => {
      const p = await project("Doomed")
      const keep = await project("Kept")
      // order counts fold on their own: the rest is compared
      const untouched = async () => ({
        ...(await leftovers(NO_WORKSPACE, [keep.projectId], keep.columns)),
        order_counts: 0
      })
      const keepBefore = await untouched()
      const hook = await must(
        A,
        "POST",
        "/v1/webhooks",
        { url: hookUrl, workspaceId: A.workspaceId, events: ["*"] },
        201
      )
      await must(A, "POST", "/v1/webhooks", { url: hookUrl, projectId: p.projectId, events: ["*"] }, 201)
      const r = await req(member, "DELETE", `/v1/projects/${p.projectId}`)
      expect(r.status, r.text).toBe(403)
      expect(r.body.error).toMatch(/you need to be an admin/)
      expect((await leftovers(NO_WORKSPACE, [p.projectId], p.columns)).cards).toBe(2)

      const stream = openStream(`${base}/v1/projects/${p.projectId}/events/stream`, as(member))
      await stream.opened
      const last = await must(A, "GET", `/v1/projects/${p.projectId}`, undefined, 200)
      const at = Date.now()
      expect((await req(admin, "DELETE", `/v1/projects/${p.projectId}`)).status).toBe(204)
      await Promise.race([stream.done, new Promise((res) => setTimeout(res, 3_000))])
      expect(stream.endedAt(), stream.blocks.join(" | ")).toBeDefined()
      expect(stream.endedAt()! - at).toBeLessThanOrEqual(1_000)
      expect(stream.blocks.at(-1)).toBe(": closed: the project was deleted")

      expect(await leftovers(NO_WORKSPACE, [p.projectId], p.columns)).toEqual(none)
      for (const path of [
        `/v1/projects/${p.projectId}`,
        `/v1/board/${p.projectId}`,
        `/v1/projects/${p.projectId}/events`,
        `/v1/cards/${p.card}`
      ])
        expect((await req(A, "GET", path)).status, path).toBe(404)
      expect((await req(A, "DELETE", `/v1/projects/${p.projectId}`)).status).toBe(404)
      const intake = await call(base, "POST", "/v1/intake", {
        body: { title: "hi" },
        headers: { "x-intake-key": p.intake.token }
      })
      expect(intake.status).toBe(401)
      // the other project is untouched
      expect(await untouched()).toEqual(keepBefore)
      // the workspace's webhook gets the project's last state, and the actor
      const deleted = await waitFor("project.deleted at the webhook", () =>
        received.find((x) => x.event === "project.deleted")
      )
      expect(deleted!.body).toMatchObject({
        type: "project.deleted",
        workspaceId: A.workspaceId,
        projectId: p.projectId,
        actor: { type: "user", userId: admin.userId },
        data: { object: last }
      })
      expect((await must(A, "GET", `/v1/webhooks/${hook.id}`, undefined, 200)).enabled).toBe(true)
    })
  })

  describe("DELETE /v1/workspaces/{id}", () => {
    it("is the owner's: an admin or member gets 403 naming owner; then everything in it is gone and its streams end", async () => {
      const owner = await bootstrap(base, "founder")
      const W = owner.workspaceId
      const helper = await bootstrap(base, "helper")
      const lesser = await bootstrap(base, "lesser")
      for (const [who, role] of [
        [helper, "admin"],
        [lesser, "member"]
      ] as const) {
        await call(base, "POST", `/v1/workspaces/${W}/members`, { body: { email: who.email }, headers: as(owner) })
        await server.query(`UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND user_id = $2`, [
          W,
          who.userId,
          role
        ])
      }
      const col = owner.columns[0]!.id
      const card = await must(
        owner,
        "POST",
        "/v1/cards",
        { projectId: owner.projectId, columnId: col, title: "x" },
        201
      )
      await must(owner, "POST", `/v1/cards/${card.id}/comments`, { body: "note" }, 201)
      await must(owner, "POST", "/v1/intake-tokens", { columnId: col }, 201)
      await must(owner, "POST", "/v1/webhooks", { url: hookUrl, workspaceId: W, events: ["card.created"] }, 201)
      const second = await must(
        owner,
        "POST",
        "/v1/projects",
        { workspaceId: W, name: "Second", template: "kanban" },
        201
      )
      await must(owner, "PATCH", `/v1/projects/${second.project.id}`, { archived: true }, 200)
      // a workspace of the owner's that stays, and an OAuth grant naming both
      const other = await must(owner, "POST", "/v1/workspaces", { name: "Stays" }, 201)
      const flow = await fullFlow(base, owner, [W, other.workspace.id])
      const projects = [owner.projectId, second.project.id]
      const columns = [...owner.columns.map((c) => c.id), ...second.columns.map((c: any) => c.id)]
      expect((await leftovers(W, projects, columns)).cards).toBe(1)

      for (const who of [helper, lesser]) {
        const r = await req(who, "DELETE", `/v1/workspaces/${W}`)
        expect(r.status, r.text).toBe(403)
        expect(r.body.error).toMatch(/you need to be an owner$/)
      }
      expect((await leftovers(W, projects, columns)).cards).toBe(1)

      const stream = openStream(`${base}/v1/projects/${owner.projectId}/events/stream`, as(lesser))
      await stream.opened
      const at = Date.now()
      expect((await req(owner, "DELETE", `/v1/workspaces/${W}`)).status).toBe(204)
      await Promise.race([stream.done, new Promise((res) => setTimeout(res, 3_000))])
      expect(stream.endedAt(), stream.blocks.join(" | ")).toBeDefined()
      expect(stream.endedAt()! - at).toBeLessThanOrEqual(1_000)
      expect(stream.blocks.at(-1)).toBe(": closed: you no longer have access to this workspace")

      expect(await leftovers(W, projects, columns)).toEqual(none)
      const [rest] = await server.query<Record<string, number>>(
        `SELECT (SELECT count(*)::int FROM workspaces WHERE id = $1) AS workspaces,
                (SELECT count(*)::int FROM workspace_members WHERE workspace_id = $1) AS members,
                (SELECT count(*)::int FROM webhooks WHERE workspace_id = $1) AS webhooks,
                (SELECT count(*)::int FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id)) AS deliveries,
                (SELECT count(*)::int FROM events WHERE workspace_id = $1) AS events,
                (SELECT count(*)::int FROM oauth_grants WHERE $1::uuid = ANY(workspaces)) AS grants`,
        [W]
      )
      expect(rest).toEqual({ workspaces: 0, members: 0, webhooks: 0, deliveries: 0, events: 0, grants: 0 })
      for (const who of [owner, helper, lesser]) {
        const mine = await must(who, "GET", "/v1/workspaces", undefined, 200)
        expect(mine.map((w: any) => w.id)).not.toContain(W)
      }
      expect((await req(owner, "GET", `/v1/projects/${owner.projectId}`)).status).toBe(404)
      expect((await req(owner, "DELETE", `/v1/workspaces/${W}`)).status).toBe(404)
      // what stays: the accounts, their keys, the other workspace and the grant (for it alone)
      const stays = await call(base, "GET", "/v1/workspaces", { headers: bearer(flow.tokens.access_token) })
      expect(stays.status).toBe(200)
      expect(stays.body.map((w: any) => w.id)).toEqual([other.workspace.id])
    })
  })
})
