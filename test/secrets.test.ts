/**
 * No raw secret is ever stored or logged: after minting every kind of credential (API key,
 * session, intake token, OAuth code, access and refresh tokens, client secret) and using them,
 * a dump of every table and every log line (at debug level) is searched for each one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { bootstrap, call, key } from "./support/client.ts"
import { mintToken } from "@board/core"
import { findSecrets } from "./support/leaks.ts"
import { fullFlow, registerClient, tokenRequest } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("secrets on %s", (backend) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer(backend, { LOG_LEVEL: "debug" })
  })
  afterAll(() => server?.stop())

  it("stores and logs digests only", async () => {
    const base = server.baseUrl
    const a = await bootstrap(base, "secretive")
    const intake = await call(base, "POST", "/v1/intake-tokens", {
      body: { columnId: a.columns[0]!.id },
      headers: key(a.apiKey)
    })
    await call(base, "POST", "/v1/intake", {
      body: { title: "via intake" },
      headers: { "x-intake-key": intake.body.token }
    })
    const { client, tokens, code } = await fullFlow(base, a, [a.workspaceId])
    await call(base, "GET", "/v1/workspaces", { headers: { authorization: `Bearer ${tokens.access_token}` } })
    const refreshed = await tokenRequest(base, {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.client_id
    })
    const confidential = await registerClient(base, {
      token_endpoint_auth_method: "client_secret_post",
      redirect_uris: ["https://agent.example/cb"]
    })
    await call(base, "POST", "/v1/auth/login", { body: { email: a.email, password: "correct horse battery" } })
    // a client that pastes a credential into a path by mistake: the request log masks it
    expect((await call(base, "GET", `/v1/cards/${a.apiKey}`, { headers: key(a.apiKey) })).status).toBe(400)
    await call(base, "GET", `/v1/cards/${tokens.access_token}/prompt`, { headers: key(a.apiKey) })
    await call(base, "GET", `/v1/board/${a.session}`, { headers: key(a.apiKey) })
    expect(server.logLines.some((l) => l.includes("/v1/cards/svc_…[masked]"))).toBe(true)

    const secrets = [
      a.apiKey,
      a.session,
      intake.body.token,
      code,
      tokens.access_token,
      tokens.refresh_token,
      refreshed.body.access_token,
      refreshed.body.refresh_token,
      confidential.body.client_secret,
      "correct horse battery"
    ]
    expect(secrets.every((s) => typeof s === "string" && s.length > 8)).toBe(true)

    const tables = await server.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`
    )
    expect(tables.length).toBeGreaterThan(10)
    let dump = ""
    for (const { table_name } of tables) {
      const rows = await server.query(`SELECT * FROM "${table_name}"`)
      dump += JSON.stringify(rows, (_k, v) => (typeof v === "bigint" ? v.toString() : v))
    }
    const logs = server.logLines.join("\n")
    expect(logs.length).toBeGreaterThan(0)
    for (const secret of secrets) {
      expect(dump.includes(secret), "a raw secret is in the database").toBe(false)
      expect(logs.includes(secret), "a raw secret is in the logs").toBe(false)
    }
  })

  it("every suite's server checks its logs and database when it stops, and that check fails on a leak", async () => {
    for (const kind of ["apiKey", "oauthAccess", "oauthRefresh", "intake", "authCode"] as const) {
      const token = mintToken(kind)
      expect(findSecrets(`GET /v1/cards?x=${token} 200`)).toEqual([token])
      // the same shape with a wrong checksum is not a credential
      expect(findSecrets(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"))).toEqual([])
    }
    const leaky = await startServer(backend)
    const a = await bootstrap(leaky.baseUrl, "leaky")
    leaky.logLines.push(JSON.stringify({ message: "oops", key: a.apiKey }))
    await expect(leaky.stop()).rejects.toThrow(/raw secrets leaked/)
    const stored = await startServer(backend)
    const b = await bootstrap(stored.baseUrl, "stored")
    await call(stored.baseUrl, "POST", "/v1/cards", {
      body: { projectId: b.projectId, columnId: b.columns[0]!.id, title: `pasted ${b.apiKey}` },
      headers: key(b.apiKey)
    })
    await expect(stored.stop()).rejects.toThrow(/table cards/)
  })
})
