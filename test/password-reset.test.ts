/**
 * Issue 30, part 4: password reset by mail (CONTRACT.md "Teams"), with a real SMTP server
 * (support/smtp.ts). One answer whether or not the email has an account; the mailed link works
 * once, for 1 hour; using it sets the password and ends every web session of the account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Account, bootstrap, call, key, SUITE_PASSWORD, uniqueEmail } from "./support/client.ts"
import { pause } from "./support/poll.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { makeShiftedClock } from "./support/shiftedClock.ts"
import { linkIn, startSmtp, type TestSmtp } from "./support/smtp.ts"

const NEW_PASSWORD = "purple staple orbit lantern"
const GONE = /^password reset link not found: it is unknown, already used or expired/

const sessionCookie = (headers: Headers) => {
  const cookies = Object.fromEntries(
    headers.getSetCookie().map((line) => {
      const pair = line.split(";")[0]!
      return [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]
    })
  )
  return `board_session=${cookies.board_session}; board_csrf=${cookies.board_csrf}`
}

describe("password reset by mail", () => {
  let server: TestServer
  let base: string
  let app: string
  let smtp: TestSmtp
  let a: Account
  const clock = makeShiftedClock()

  const ask = (email: string) => call(base, "POST", "/v1/auth/password-reset", { body: { email } })
  const confirm = (token: string, password: string, headers: Record<string, string> = {}) =>
    call(base, "POST", "/v1/auth/password-reset/confirm", { body: { token, password }, headers })
  const webLogin = async (password = SUITE_PASSWORD) => {
    const r = await call(base, "POST", "/v1/auth/login", {
      body: { email: a.email, password },
      headers: { origin: app }
    })
    expect(r.status, r.text).toBe(200)
    return sessionCookie(r.headers)
  }
  const me = (cookie: string) => call(base, "GET", "/v1/me", { headers: { cookie, "sec-fetch-site": "same-origin" } })
  const mailedToken = async (email: string) => {
    const mail = await smtp.next(email)
    expect(mail.parsed.subject).toBe("Reset your Board password")
    const url = linkIn(mail, `${server.config.publicUrl}/reset-password/`)
    expect(mail.parsed.html).toContain(`href="${url}"`)
    return url.split("/reset-password/")[1]!
  }

  beforeAll(async () => {
    smtp = await startSmtp()
    server = await startServer({
      env: { SMTP_URL: smtp.url, MAIL_FROM: "board@example.com" },
      clock: clock.clock
    })
    base = server.baseUrl
    app = new URL(server.config.publicUrl).origin
    a = await bootstrap(base, "Ada")
  })
  afterAll(async () => {
    await server?.stop()
    await smtp?.stop()
  })

  it("answers 202 with one body whether or not the email has an account, and mails only the account", async () => {
    const nobody = uniqueEmail("nobody")
    const unknown = await ask(nobody)
    const known = await ask(a.email.toUpperCase())
    expect(unknown.status).toBe(202)
    expect(known.status).toBe(202)
    expect(known.text).toBe(unknown.text)
    await mailedToken(a.email.toLowerCase())
    await pause(300)
    expect(smtp.received.filter((m) => m.rcptTo.includes(nobody))).toEqual([])
  })

  it("the mailed link sets the password once, ends every web session, and answers the login body", async () => {
    const web1 = await webLogin()
    const web2 = await webLogin()
    expect((await me(web1)).status).toBe(200)
    await ask(a.email)
    const token = await mailedToken(a.email.toLowerCase())
    expect(token).toMatch(/^svc_pr_[0-9A-Za-z]{36}$/)
    // a weak password is refused and the link stays good
    const weak = await confirm(token, "password1")
    expect(weak.status).toBe(400)
    expect(weak.body.error).toMatch(/commonly used passwords/)
    expect((await confirm(token, "short")).status).toBe(400)

    const done = await confirm(token, NEW_PASSWORD, { origin: app })
    expect(done.status, done.text).toBe(200)
    expect(done.body.user).toMatchObject({ id: a.userId, email: a.email.toLowerCase() })
    expect(done.body.session.token_type).toBe("bearer")
    // the other sessions are over; the one this page opened works
    expect((await me(web1)).status).toBe(401)
    expect((await me(web2)).status).toBe(401)
    expect((await me(sessionCookie(done.headers))).status).toBe(200)
    // API keys are not web sessions: they stay
    expect((await call(base, "GET", "/v1/me", { headers: key(a.apiKey) })).status).toBe(200)

    const again = await confirm(token, "another fine password")
    expect(again.status).toBe(404)
    expect(again.body.error).toMatch(GONE)
    const old = await call(base, "POST", "/v1/auth/login", { body: { email: a.email, password: SUITE_PASSWORD } })
    expect(old.status).toBe(401)
    await webLogin(NEW_PASSWORD)
  })

  it("using one link ends the account's other links; a link lasts 1 hour", async () => {
    await ask(a.email)
    const first = await mailedToken(a.email.toLowerCase())
    await ask(a.email)
    const second = await mailedToken(a.email.toLowerCase())
    expect((await confirm(second, "a third good password")).status).toBe(200)
    expect((await confirm(first, "a fourth good password")).status).toBe(404)

    await ask(a.email)
    const late = await mailedToken(a.email.toLowerCase())
    clock.advance(60 * 60_000 + 1_000)
    const expired = await confirm(late, "a fifth good password")
    expect(expired.status).toBe(404)
    expect(expired.body.error).toMatch(GONE)
    expect((await confirm("svc_pr_not-a-token", "a fifth good password")).status).toBe(404)
  })

  it("stores only the link's digest", async () => {
    const rows = await server.query<{ row: string }>(`SELECT t::text AS row FROM password_resets t`)
    expect(rows.length).toBeGreaterThan(0)
    for (const { row } of rows) expect(row).not.toMatch(/svc_pr_/)
  })
})

describe("password reset without mail", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server?.stop())

  it("answers 202 as with mail and makes no link nobody could receive", async () => {
    const a = await bootstrap(server.baseUrl, "Nomail")
    const r = await call(server.baseUrl, "POST", "/v1/auth/password-reset", { body: { email: a.email } })
    expect(r.status).toBe(202)
    expect(r.body.message).toMatch(/board admin reset-password EMAIL/)
    expect(await server.query(`SELECT 1 FROM password_resets`)).toEqual([])
  })
})
