/**
 * Issue 30: a workspace's members and roles over real HTTP (CONTRACT.md, "Teams"): list, add,
 * change a role, remove, leave; the owner rule (always one, 409); a viewer reads and writes
 * nothing (403 naming the role); an archived project reads and refuses writes (409); a removal
 * ends the member's assignments (card.assigned) and their open event stream within a second.
 * The per-role matrix over every operation is access-roles.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("members and roles on %s", (backend) => {
  let server: TestServer
  let base: string
  let owner: Account
  const as = (a: Account, method: string, path: string, body?: unknown) =>
    call(base, method, path, { ...(body !== undefined ? { body } : {}), headers: key(a.apiKey) })
  let membersPath: string
  const join = async (label: string, role: string) => {
    const who = await bootstrap(base, label)
    const r = await as(owner, "POST", membersPath, { email: who.email, role })
    expect(r.status, r.text).toBe(201)
    return who
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    owner = await bootstrap(base, "owner")
    membersPath = `/v1/workspaces/${owner.workspaceId}/members`
  })
  afterAll(() => server?.stop())

  it("lists members with role and kind; adds by email with a role; 404 for no account, 409 for a member", async () => {
    const ada = await bootstrap(base, "ada")
    const added = await as(owner, "POST", membersPath, { email: ada.email.toUpperCase(), role: "viewer" })
    expect(added.status, added.text).toBe(201)
    expect(added.body).toMatchObject({ userId: ada.userId, email: ada.email, role: "viewer", kind: "person" })
    expect(typeof added.body.createdAt).toBe("string")
    const again = await as(owner, "POST", membersPath, { email: ada.email })
    expect(again.status).toBe(409)
    expect(again.body.error).toMatch(/already a member/)
    const nobody = await as(owner, "POST", membersPath, { email: "nobody-here@example.com" })
    expect(nobody.status).toBe(404)
    expect(nobody.body.error).toMatch(/no account/)
    // any member reads the list, a viewer too
    const listed = await as(ada, "GET", membersPath)
    expect(listed.status).toBe(200)
    expect(listed.body.map((m: any) => [m.email, m.role, m.kind])).toEqual([
      [owner.email, "owner", "person"],
      [ada.email, "viewer", "person"]
    ])
  })

  it("a member or viewer cannot manage members (403 naming the role needed); an admin can, but not owners", async () => {
    const mem = await join("mem", "member")
    const adm = await join("adm", "admin")
    const other = await bootstrap(base, "other")
    const byMember = await as(mem, "POST", membersPath, { email: other.email })
    expect(byMember.status).toBe(403)
    expect(byMember.body.error).toBe(
      "your role in this workspace is member: to add members you need to be an admin or above"
    )
    // an admin adds and changes roles, but making an owner takes an owner
    expect((await as(adm, "POST", membersPath, { email: other.email })).status).toBe(201)
    const promote = await as(adm, "PATCH", `${membersPath}/${other.userId}`, { role: "owner" })
    expect(promote.status).toBe(403)
    expect(promote.body.error).toMatch(/admin: to make or unmake an owner you need to be an owner/)
    const toAdmin = await as(adm, "PATCH", `${membersPath}/${other.userId}`, { role: "admin" })
    expect(toAdmin.status).toBe(200)
    expect(toAdmin.body.role).toBe("admin")
    const unmakeOwner = await as(adm, "PATCH", `${membersPath}/${owner.userId}`, { role: "member" })
    expect(unmakeOwner.status).toBe(403)
    const removeOwner = await as(adm, "DELETE", `${membersPath}/${owner.userId}`)
    expect(removeOwner.status).toBe(403)
    const bad = await as(owner, "PATCH", `${membersPath}/${other.userId}`, { role: "boss" })
    expect(bad.status).toBe(400)
    const stranger = await as(owner, "PATCH", `${membersPath}/${crypto.randomUUID()}`, { role: "viewer" })
    expect(stranger.status).toBe(404)
  })

  it("the workspace keeps an owner: the last owner cannot step down or leave (409), a second owner lets them", async () => {
    const solo = await bootstrap(base, "solo")
    const ws = `/v1/workspaces/${solo.workspaceId}/members`
    const down = await as(solo, "PATCH", `${ws}/${solo.userId}`, { role: "admin" })
    expect(down.status).toBe(409)
    expect(down.body.error).toMatch(/without an owner/)
    expect((await as(solo, "DELETE", `${ws}/${solo.userId}`)).status).toBe(409)
    const heir = await bootstrap(base, "heir")
    expect((await as(solo, "POST", ws, { email: heir.email, role: "owner" })).status).toBe(201)
    expect((await as(solo, "DELETE", `${ws}/${solo.userId}`)).status).toBe(204)
    expect((await as(solo, "GET", ws)).status).toBe(404)
    expect((await as(heir, "GET", ws)).body.map((m: any) => m.role)).toEqual(["owner"])
  })

  it("a viewer reads the board and changes nothing: 403 naming the role, and nothing is written", async () => {
    const viewer = await join("viewer", "viewer")
    expect((await as(viewer, "GET", `/v1/board/${owner.projectId}`)).status).toBe(200)
    const before = await server.query(`SELECT count(*)::int AS n FROM cards WHERE project_id = $1`, [owner.projectId])
    const r = await as(viewer, "POST", "/v1/cards", {
      projectId: owner.projectId,
      columnId: owner.columns[0]!.id,
      title: "From a viewer"
    })
    expect(r.status).toBe(403)
    expect(r.body.error).toBe("your role in this workspace is viewer: to change cards you need to be a member or above")
    const nlu = await as(viewer, "POST", "/v1/nlu", {
      command: "create card Sneaky in To Do",
      projectId: owner.projectId
    })
    expect(nlu.status).toBe(403)
    expect(await server.query(`SELECT count(*)::int AS n FROM cards WHERE project_id = $1`, [owner.projectId])).toEqual(
      before
    )
    // made a member, the same request works at once
    expect((await as(owner, "PATCH", `${membersPath}/${viewer.userId}`, { role: "member" })).status).toBe(200)
    expect(
      (
        await as(viewer, "POST", "/v1/cards", {
          projectId: owner.projectId,
          columnId: owner.columns[0]!.id,
          title: "Now a member"
        })
      ).status
    ).toBe(201)
  })

  it("an archived project reads, and every write to it answers 409 saying how to restore it", async () => {
    const p = await as(owner, "POST", "/v1/projects", {
      workspaceId: owner.workspaceId,
      name: "Old site",
      template: "kanban"
    })
    const projectId = p.body.project.id as string
    const card = await as(owner, "POST", "/v1/cards", {
      projectId,
      columnId: p.body.columns[0].id,
      title: "Left over"
    })
    // the archive endpoint is another part of issue 30: the column it sets is enough here
    await server.query(`UPDATE projects SET archived_at = now() WHERE id = $1`, [projectId])
    expect((await as(owner, "GET", `/v1/board/${projectId}`)).status).toBe(200)
    expect((await as(owner, "GET", `/v1/cards/${card.body.id}`)).status).toBe(200)
    for (const [method, path, body] of [
      ["PATCH", `/v1/cards/${card.body.id}`, { title: "Changed" }],
      ["POST", `/v1/cards/${card.body.id}/move`, { columnId: p.body.columns[1].id }],
      ["DELETE", `/v1/cards/${card.body.id}`, undefined],
      ["POST", "/v1/cards", { projectId, columnId: p.body.columns[0].id, title: "New" }],
      ["POST", "/v1/columns", { projectId, name: "More" }],
      ["POST", `/v1/cards/${card.body.id}/comments`, { body: "hello" }],
      ["POST", `/v1/cards/${card.body.id}/claim`, {}]
    ] as const) {
      const r = await as(owner, method, path, body)
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(409)
      expect(r.body.error).toMatch(/"Old site" is archived.*PATCH \/v1\/projects\/.*"archived": false/)
    }
    const [row] = await server.query(`SELECT title FROM cards WHERE id = $1`, [card.body.id])
    expect(row.title).toBe("Left over")
  })

  it("a removal ends the member's assignments (card.assigned) and their open event stream within a second", async () => {
    const bea = await join("bea", "member")
    const card = await as(owner, "POST", "/v1/cards", {
      projectId: owner.projectId,
      columnId: owner.columns[0]!.id,
      title: "Bea's",
      assigneeIds: [bea.userId, owner.userId]
    })
    expect(card.status, card.text).toBe(201)
    const abort = new AbortController()
    const stream = await fetch(`${base}/v1/projects/${owner.projectId}/events/stream`, {
      headers: key(bea.apiKey),
      signal: abort.signal
    })
    expect(stream.status).toBe(200)
    const text = (async () => {
      let all = ""
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>)
        all += Buffer.from(chunk).toString()
      return all
    })()
    const removedAt = Date.now()
    const removed = await as(owner, "DELETE", `${membersPath}/${bea.userId}`)
    expect(removed.status).toBe(204)
    const timer = setTimeout(() => abort.abort(), 5_000)
    const said = await text
    clearTimeout(timer)
    expect(Date.now() - removedAt).toBeLessThanOrEqual(1_000)
    expect(said).toMatch(/: closed: you no longer have access to this workspace/)
    const after = await as(owner, "GET", `/v1/cards/${card.body.id}`)
    expect(after.body.assigneeIds).toEqual([owner.userId])
    const history = await as(owner, "GET", `/v1/cards/${card.body.id}/history`)
    const assigned = history.body.events.filter((e: any) => e.type === "card.assigned")
    expect(assigned.at(-1).data.previous.assigneeIds.sort()).toEqual([bea.userId, owner.userId].sort())
    // the card and its history stay; bea reaches nothing of the workspace any more
    expect((await as(bea, "GET", `/v1/board/${owner.projectId}`)).status).toBe(404)
  })

  it("any member may leave; someone else's removal needs an admin", async () => {
    const cy = await join("cy", "viewer")
    const dee = await join("dee", "member")
    const byDee = await as(dee, "DELETE", `${membersPath}/${cy.userId}`)
    expect(byDee.status).toBe(403)
    expect(byDee.body.error).toMatch(/member: to remove members you need to be an admin/)
    expect((await as(cy, "DELETE", `${membersPath}/${cy.userId}`)).status).toBe(204)
    expect((await as(cy, "GET", membersPath)).status).toBe(404)
  })
})
