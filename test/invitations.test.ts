/**
 * Issue 30, parts 2 and 3: invitations (CONTRACT.md "Teams") over real HTTP, with a real SMTP
 * server (support/smtp.ts) taking the mails. A new account joins by signing up with the link
 * (also with signups closed), an existing one by accepting it; a link works once, for 7 days,
 * for the email it names, until an admin withdraws it; one 404 message for every dead link.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Account, bearer, bootstrap, call, key, SUITE_PASSWORD, uniqueEmail } from "./support/client.ts"
import { dialectBackends } from "./support/backends.ts"
import { startServer, type TestServer, testHasher } from "./support/server.ts"
import { makeShiftedClock } from "./support/shiftedClock.ts"
import { linkIn, startSmtp, type TestSmtp } from "./support/smtp.ts"

/** An API key for the account a signup answered (a session token only bootstraps). */
const keyOf = async (base: string, signup: { body: any }) =>
  (
    await call(base, "POST", "/v1/api-keys", {
      body: { name: "k" },
      headers: bearer(signup.body.session.access_token)
    })
  ).body.rawKey as string

const DEAD = /^invitation not found: the link is unknown, already used, withdrawn or expired/

describe.each(dialectBackends)("invitations, with mail, on %s", (backend) => {
  let server: TestServer
  let base: string
  let smtp: TestSmtp
  let a: Account
  const clock = makeShiftedClock()

  const invite = (who: Account, body: Record<string, unknown> = {}, workspaceId = who.workspaceId) =>
    call(base, "POST", `/v1/workspaces/${workspaceId}/invitations`, { body, headers: key(who.apiKey) })
  const tokenOf = (url: string) => url.split("/invite/")[1]!

  beforeAll(async () => {
    smtp = await startSmtp()
    server = await startServer({
      backend,
      env: { SMTP_URL: smtp.url, MAIL_FROM: "Board <board@example.com>" },
      clock: clock.clock
    })
    base = server.baseUrl
    a = await bootstrap(base, "Ada")
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.stop()
  })

  it("makes a link shown once, stores only its digest, and lists it without the token", async () => {
    const r = await invite(a, { role: "viewer" })
    expect(r.status, r.text).toBe(201)
    expect(Object.keys(r.body).sort()).toEqual(
      ["id", "workspaceId", "email", "role", "url", "token", "expiresAt", "createdAt"].sort()
    )
    expect(r.body).toMatchObject({ workspaceId: a.workspaceId, email: null, role: "viewer" })
    expect(r.body.token).toMatch(/^svc_inv_[0-9A-Za-z]{36}$/)
    expect(r.body.url).toBe(`${server.config.publicUrl}/invite/${r.body.token}`)
    const days = (Date.parse(r.body.expiresAt) - Date.parse(r.body.createdAt)) / 86_400_000
    expect(days).toBe(7)
    const rows = await server.query(`SELECT t::text AS row FROM invitations t WHERE id = $1`, [r.body.id])
    expect(rows[0].row).not.toContain(r.body.token)
    const listed = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/invitations`, { headers: key(a.apiKey) })
    expect(listed.status).toBe(200)
    const mine = listed.body.find((i: any) => i.id === r.body.id)
    expect(mine).toEqual({
      id: r.body.id,
      workspaceId: a.workspaceId,
      email: null,
      role: "viewer",
      expiresAt: r.body.expiresAt,
      createdAt: r.body.createdAt
    })
    expect(listed.text).not.toContain(r.body.token)
  })

  it("mails the link when the invitation names an email; a new account signs up with it and joins at once", async () => {
    const email = uniqueEmail("bea")
    const r = await invite(a, { email: email.toUpperCase(), role: "admin" })
    expect(r.status, r.text).toBe(201)
    expect(r.body.email).toBe(email)
    const mail = await smtp.next(email)
    expect(mail.user).toBe("board")
    expect(mail.parsed.from?.value[0]).toMatchObject({ address: "board@example.com", name: "Board" })
    expect(mail.parsed.subject).toBe("Ada invited you to Ada's workspace on Board")
    expect(mail.parsed.html).toContain(`href="${r.body.url}"`)
    const url = linkIn(mail, `${server.config.publicUrl}/invite/`)
    expect(url).toBe(r.body.url)

    // what the page shows to whoever holds the link, without a credential
    const preview = await call(base, "GET", `/v1/invitations/${tokenOf(url)}`)
    expect(preview.status, preview.text).toBe(200)
    expect(preview.body).toEqual({
      workspaceName: "Ada's workspace",
      invitedBy: { userId: a.userId, fullName: "Ada" },
      role: "admin",
      email,
      expiresAt: r.body.expiresAt
    })

    const signup = await call(base, "POST", "/v1/auth/signup", {
      body: { email, password: SUITE_PASSWORD, full_name: "Bea", invitation: tokenOf(url) }
    })
    expect(signup.status, signup.text).toBe(201)
    const workspaces = await call(base, "GET", "/v1/workspaces", { headers: key(await keyOf(base, signup)) })
    expect(workspaces.body).toEqual([expect.objectContaining({ id: a.workspaceId, role: "admin" })])
    // the link worked once: it reads and accepts as gone, and signs up no one else
    expect((await call(base, "GET", `/v1/invitations/${tokenOf(url)}`)).status).toBe(404)
    const again = await call(base, "POST", "/v1/auth/signup", {
      body: { email: uniqueEmail("late"), password: SUITE_PASSWORD, full_name: "Late", invitation: tokenOf(url) }
    })
    expect(again.status).toBe(404)
    expect(again.body.error).toMatch(DEAD)
    // and it left the pending list
    const listed = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/invitations`, { headers: key(a.apiKey) })
    expect(listed.body.map((i: any) => i.id)).not.toContain(r.body.id)
  })

  it("an existing account accepts with its own credential: 200 {workspace, member}; once only; 409 when already a member", async () => {
    const c = await bootstrap(base, "Cy")
    const r = await invite(a, { role: "member" })
    const accepted = await call(base, "POST", `/v1/invitations/${r.body.token}/accept`, { headers: key(c.apiKey) })
    expect(accepted.status, accepted.text).toBe(200)
    expect(accepted.body.workspace).toMatchObject({ id: a.workspaceId, name: "Ada's workspace", role: "member" })
    expect(accepted.body.member).toMatchObject({
      userId: c.userId,
      email: c.email.toLowerCase(),
      fullName: "Cy",
      role: "member"
    })
    const board = await call(base, "GET", `/v1/board/${a.projectId}`, { headers: key(c.apiKey) })
    expect(board.status).toBe(200)

    const reused = await call(base, "POST", `/v1/invitations/${r.body.token}/accept`, { headers: key(c.apiKey) })
    expect(reused.status).toBe(404)
    expect(reused.body.error).toMatch(DEAD)

    // a member given a second link: 409, and the link stays usable for someone else
    const second = await invite(a)
    const dup = await call(base, "POST", `/v1/invitations/${second.body.token}/accept`, { headers: key(c.apiKey) })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toBe("you are already a member of this workspace")
    expect((await call(base, "GET", `/v1/invitations/${second.body.token}`)).status).toBe(200)
  })

  it("two accepts of one link at once: exactly one joins, the other is 404", async () => {
    const r = await invite(a)
    const [x, y] = await Promise.all([bootstrap(base, "Race1"), bootstrap(base, "Race2")])
    const answers = await Promise.all(
      [x, y].map((who) => call(base, "POST", `/v1/invitations/${r.body.token}/accept`, { headers: key(who.apiKey) }))
    )
    expect(answers.map((x) => x.status).sort()).toEqual([200, 404])
    const members = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/members`, { headers: key(a.apiKey) })
    const joined = members.body.filter((m: any) => m.userId === x.userId || m.userId === y.userId)
    expect(joined).toHaveLength(1)
  })

  it("an invitation for another email is refused with 403 (accept and signup) and stays usable", async () => {
    const meant = uniqueEmail("meant")
    const r = await invite(a, { email: meant })
    const other = await bootstrap(base, "Other")
    const refused = await call(base, "POST", `/v1/invitations/${r.body.token}/accept`, { headers: key(other.apiKey) })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatch(/this invitation is for another email address/)
    const signup = await call(base, "POST", "/v1/auth/signup", {
      body: { email: uniqueEmail("wrong"), password: SUITE_PASSWORD, full_name: "Wrong", invitation: r.body.token }
    })
    expect(signup.status).toBe(403)
    const members = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/members`, { headers: key(a.apiKey) })
    expect(members.body.map((m: any) => m.userId)).not.toContain(other.userId)
    expect((await call(base, "GET", `/v1/invitations/${r.body.token}`)).status).toBe(200)
  })

  it("a withdrawn link answers 404 from then on; a second DELETE is 404", async () => {
    const r = await invite(a)
    const del = await call(base, "DELETE", `/v1/invitations/${r.body.id}`, { headers: key(a.apiKey) })
    expect(del.status).toBe(204)
    const read = await call(base, "GET", `/v1/invitations/${r.body.token}`)
    expect(read.status).toBe(404)
    expect(read.body.error).toMatch(DEAD)
    const b = await bootstrap(base, "Late")
    expect(
      (await call(base, "POST", `/v1/invitations/${r.body.token}/accept`, { headers: key(b.apiKey) })).status
    ).toBe(404)
    expect((await call(base, "DELETE", `/v1/invitations/${r.body.id}`, { headers: key(a.apiKey) })).status).toBe(404)
  })

  it("a link expires after 7 days: 404 with the same message, also for a link that was never a link", async () => {
    const r = await invite(a)
    clock.advance(7 * 86_400_000 - 60_000)
    expect((await call(base, "GET", `/v1/invitations/${r.body.token}`)).status).toBe(200)
    clock.advance(61_000)
    const expired = await call(base, "GET", `/v1/invitations/${r.body.token}`)
    expect(expired.status).toBe(404)
    const b = await bootstrap(base, "Tardy")
    const accept = await call(base, "POST", `/v1/invitations/${r.body.token}/accept`, { headers: key(b.apiKey) })
    expect(accept.status).toBe(404)
    const bogus = await call(base, "GET", "/v1/invitations/svc_inv_nothing")
    expect(bogus.status).toBe(404)
    for (const answer of [expired, accept, bogus]) expect(answer.body.error).toMatch(DEAD)
    expect(new Set([expired.body.error, accept.body.error, bogus.body.error]).size).toBe(1)
  })

  it("only admins and owners manage invitations (403 naming the role); an owner link only from an owner", async () => {
    const m = await bootstrap(base, "Mo")
    const link = await invite(a, { role: "member" })
    await call(base, "POST", `/v1/invitations/${link.body.token}/accept`, { headers: key(m.apiKey) })
    const byMember = await invite(m, {}, a.workspaceId)
    expect(byMember.status).toBe(403)
    expect(byMember.body.error).toMatch(/your role in this workspace is member: to manage invitations you need/)
    const list = await call(base, "GET", `/v1/workspaces/${a.workspaceId}/invitations`, { headers: key(m.apiKey) })
    expect(list.status).toBe(403)
    const other = await invite(a)
    expect((await call(base, "DELETE", `/v1/invitations/${other.body.id}`, { headers: key(m.apiKey) })).status).toBe(
      403
    )
    // an admin invites, but not owners
    const ad = await bootstrap(base, "Adi")
    const adminLink = await invite(a, { role: "admin" })
    await call(base, "POST", `/v1/invitations/${adminLink.body.token}/accept`, { headers: key(ad.apiKey) })
    expect((await invite(ad, { role: "member" }, a.workspaceId)).status).toBe(201)
    const owner = await invite(ad, { role: "owner" }, a.workspaceId)
    expect(owner.status).toBe(403)
    expect(owner.body.error).toMatch(/to invite an owner you need to be an owner/)
    expect((await invite(a, { role: "owner" })).status).toBe(201)
    // a bad email is 400
    expect((await invite(a, { email: "not-an-address" })).status).toBe(400)
  })
})

describe("invitations while signups are closed, without mail", () => {
  let server: TestServer
  let base: string
  let owner: { apiKey: string; workspaceId: string }

  beforeAll(async () => {
    server = await startServer({ env: { SIGNUPS_OPEN: "false" } })
    base = server.baseUrl
    // the operator's first account, written as an operator would (signups are closed)
    const hash = await server.run(testHasher.hash(SUITE_PASSWORD).pipe(Effect.orDie))
    const email = uniqueEmail("op")
    await server.query(`INSERT INTO users (email, full_name, password_hash) VALUES ($1, 'Op', $2)`, [email, hash])
    const login = await call(base, "POST", "/v1/auth/login", { body: { email, password: SUITE_PASSWORD } })
    const session = login.body.session.access_token
    const ws = await call(base, "POST", "/v1/workspaces", { body: { name: "Closed" }, headers: bearer(session) })
    const k = await call(base, "POST", "/v1/api-keys", { body: { name: "k" }, headers: bearer(session) })
    owner = { apiKey: k.body.rawKey, workspaceId: ws.body.workspace.id }
  })
  afterAll(() => server?.stop())

  it("a signup without an invitation is 403; with one it makes the account and the membership", async () => {
    const email = uniqueEmail("joiner")
    const plain = await call(base, "POST", "/v1/auth/signup", {
      body: { email, password: SUITE_PASSWORD, full_name: "Jo" }
    })
    expect(plain.status).toBe(403)
    expect(plain.body.error).toMatch(/signups are closed on this server; ask .* for an invitation link/)
    // no mail here: the link is in the answer, to pass on by hand
    const r = await call(base, "POST", `/v1/workspaces/${owner.workspaceId}/invitations`, {
      body: { email },
      headers: key(owner.apiKey)
    })
    expect(r.status).toBe(201)
    expect(r.body.url).toContain("/invite/svc_inv_")
    const signup = await call(base, "POST", "/v1/auth/signup", {
      body: { email, password: SUITE_PASSWORD, full_name: "Jo", invitation: r.body.token }
    })
    expect(signup.status, signup.text).toBe(201)
    const listed = await call(base, "GET", "/v1/workspaces", { headers: key(await keyOf(base, signup)) })
    expect(listed.body).toEqual([expect.objectContaining({ id: owner.workspaceId, role: "member" })])
    // a dead link opens nothing while signups are closed, and leaves no account behind
    const other = uniqueEmail("nobody")
    const dead = await call(base, "POST", "/v1/auth/signup", {
      body: { email: other, password: SUITE_PASSWORD, full_name: "No", invitation: r.body.token }
    })
    expect(dead.status).toBe(404)
    expect(await server.query(`SELECT 1 FROM users WHERE email = $1`, [other])).toEqual([])
  })
})
