/**
 * Issue 30: the team commands of the real `board` program (dist/), in processes of their own:
 * `board member invite` prints a link, `board invite accept` joins by it, and the operator's
 * `board admin reset-password` prints a reset link through the server that owns the embedded
 * database (its admin channel), with no mail configured.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Account, bootstrap, call, key, SUITE_PASSWORD } from "./support/client.ts"
import { runBoard, tempConfigHome } from "./support/cli.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { tmpDirs } from "./support/tmp.ts"

const tmpDir = tmpDirs("board-team-")

describe("team commands beside a server on an embedded database", () => {
  let dataDir: string
  let server: TestServer
  let a: Account
  let b: Account

  const client = (who: Account, args: ReadonlyArray<string>) =>
    runBoard(args, {
      env: { BOARD_API_URL: server.baseUrl, BOARD_API_KEY: who.apiKey, XDG_CONFIG_HOME: tempConfigHome() }
    })
  const operator = (args: ReadonlyArray<string>) =>
    runBoard(args, { env: { DATA_DIR: dataDir, DATABASE_URL: undefined, REDIS_URL: undefined } })

  beforeAll(async () => {
    dataDir = tmpDir()
    server = await startServer({ env: { DATA_DIR: dataDir } })
    a = await bootstrap(server.baseUrl, "Ada")
    b = await bootstrap(server.baseUrl, "Bo")
  }, 120_000)
  afterAll(() => server?.stop())

  it("board member invite prints the link; board invite accept joins by it, once", async () => {
    const invited = await client(a, ["member", "invite", "--role", "viewer"])
    expect(invited.code, invited.stderr).toBe(0)
    const url = invited.stdout.trim()
    expect(url).toMatch(new RegExp(`^${server.config.publicUrl}/invite/svc_inv_[0-9A-Za-z]{36}$`))
    expect(invited.stderr).toContain(`to "Ada's workspace" as viewer`)

    const accepted = await client(b, ["invite", "accept", url])
    expect(accepted.code, accepted.stderr).toBe(0)
    expect(accepted.stdout.trim()).toBe(a.workspaceId)
    expect(accepted.stderr).toContain(`Joined "Ada's workspace" as viewer`)
    const again = await client(b, ["invite", "accept", url.split("/invite/")[1]!])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/invitation not found/)

    const json = await client(a, ["member", "invite", "cy@example.com", "--json"])
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({ email: "cy@example.com", role: "member" })
    const badRole = await client(a, ["member", "invite", "--role", "boss"])
    expect(badRole.code).toBe(2)
    expect(badRole.stderr).toMatch(/--role: one of owner, admin, member, viewer/)
  })

  it("board admin reset-password prints a one-time link through the running server; the link sets the password", async () => {
    const r = await operator(["admin", "reset-password", a.email])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain("through the running server")
    const url = r.stdout.trim()
    expect(url).toMatch(new RegExp(`^${server.config.publicUrl}/reset-password/svc_pr_[0-9A-Za-z]{36}$`))
    const token = url.split("/reset-password/")[1]!
    const confirm = (password: string) =>
      call(server.baseUrl, "POST", "/v1/auth/password-reset/confirm", { body: { token, password } })
    const done = await confirm("an operator chose this")
    expect(done.status, done.text).toBe(200)
    expect((await confirm("and this one too")).status).toBe(404)
    const old = await call(server.baseUrl, "POST", "/v1/auth/login", {
      body: { email: a.email, password: SUITE_PASSWORD }
    })
    expect(old.status).toBe(401)
    const fresh = await call(server.baseUrl, "POST", "/v1/auth/login", {
      body: { email: a.email, password: "an operator chose this" }
    })
    expect(fresh.status).toBe(200)
    // the API key was not a web session: it still works
    expect((await call(server.baseUrl, "GET", "/v1/me", { headers: key(a.apiKey) })).status).toBe(200)
  })

  it("board admin reset-password for an email without an account fails with one line, exit 1", async () => {
    const r = await operator(["admin", "reset-password", "nobody@example.com"])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toContain("board admin reset-password: no account has this email")
  })
})
