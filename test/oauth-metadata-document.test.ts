/**
 * Issue 33, part 2: Client ID Metadata Documents. A client whose `client_id` is the https URL of
 * its metadata completes the whole authorization code flow (consent, code, token, an API call)
 * against a real `board serve`, the document served by this test over https on loopback with a
 * self-signed certificate: the server trusts it through NODE_EXTRA_CA_CERTS (Node's own
 * setting, read at start, so the server runs in its own process) and may fetch from loopback
 * because WEBHOOK_ALLOW_PRIVATE is set. The document is cached as its Cache-Control says; a
 * document whose client_id is not its URL, a redirect, an oversized one are refused with why;
 * a server without the allowance refuses the loopback address.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as https from "node:https"
import type * as net from "node:net"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Account, bearer, bootstrap, call, SUITE_PASSWORD } from "./support/client.ts"
import { authorizeUrl, Browser, consent, pkce, tokenRequest } from "./support/oauthFlow.ts"
import { exited } from "./support/poll.ts"
import { freePort } from "./support/server.ts"
import { embeddedEnv, type Spawned, spawnBoard, waitForHealth } from "./support/spawn.ts"
import { migratedDataDir } from "./support/templates.ts"
import { tmpDirs } from "./support/tmp.ts"

const REDIRECT = "http://127.0.0.1:47001/callback"
const tmp = tmpDirs("board-cimd-")

/** A self-signed certificate for 127.0.0.1, made with openssl for this run only. */
const selfSigned = () => {
  const dir = tmp()
  const key = path.join(dir, "key.pem")
  const cert = path.join(dir, "cert.pem")
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1"
    ],
    { stdio: "ignore" }
  )
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert), certFile: cert }
}

const startServe = async (env: Record<string, string>) => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}/api`
  const spawned = spawnBoard(
    ["serve"],
    // a migrated copy (templates.ts): this file is about client metadata documents, not a first start
    embeddedEnv({
      DATA_DIR: migratedDataDir(tmp()),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env
    })
  )
  try {
    await waitForHealth(base, 90_000)
  } catch (e) {
    spawned.child.kill("SIGKILL")
    throw new Error(`${(e as Error).message}; its output: ${spawned.output()}`)
  }
  return { base, spawned }
}

describe("Client ID Metadata Documents", () => {
  let docs: https.Server
  let docOrigin: string
  const fetches = new Map<string, number>()
  let server: { base: string; spawned: Spawned }
  let strict: { base: string; spawned: Spawned }
  let a: Account

  const docUrl = (name: string) => `${docOrigin}/clients/${name}.json`

  beforeAll(async () => {
    const tls = selfSigned()
    docs = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      const name = /^\/clients\/([a-z-]+)\.json$/.exec(req.url ?? "")?.[1] ?? ""
      fetches.set(name, (fetches.get(name) ?? 0) + 1)
      const doc = (extra: Record<string, unknown> = {}) =>
        JSON.stringify({
          client_id: docUrl(name),
          client_name: "Doc Agent",
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: "none",
          ...extra
        })
      const json = { "content-type": "application/json" }
      if (name === "agent") return res.writeHead(200, { ...json, "cache-control": "max-age=300" }).end(doc())
      if (name === "fresh") return res.writeHead(200, { ...json, "cache-control": "no-store" }).end(doc())
      if (name === "wrong-id") return res.writeHead(200, json).end(doc({ client_id: docUrl("agent") }))
      if (name === "moved") return res.writeHead(302, { location: docUrl("agent") }).end()
      if (name === "big") return res.writeHead(200, json).end(doc({ padding: "x".repeat(10_000) }))
      res.writeHead(404).end()
    })
    await new Promise<void>((r) => docs.listen(0, "127.0.0.1", r))
    docOrigin = `https://127.0.0.1:${(docs.address() as net.AddressInfo).port}`
    server = await startServe({ WEBHOOK_ALLOW_PRIVATE: "true", NODE_EXTRA_CA_CERTS: tls.certFile })
    strict = await startServe({ NODE_EXTRA_CA_CERTS: tls.certFile })
    a = await bootstrap(server.base, "cimd")
  }, 240_000)
  afterAll(async () => {
    for (const s of [server, strict]) {
      s?.spawned.child.kill("SIGTERM")
      if (s !== undefined) await exited(s.spawned.child, 30_000)
    }
    docs?.close()
  })

  it("the authorization server's metadata says it supports them, and registration stays", async () => {
    const meta = await fetch(`${server.base.replace(/\/api$/, "")}/.well-known/oauth-authorization-server`)
    const body = (await meta.json()) as Record<string, unknown>
    expect(body.client_id_metadata_document_supported).toBe(true)
    expect(body.registration_endpoint).toMatch(/\/oauth\/register$/)
  })

  it("a client named by its document's URL completes the authorization code flow", async () => {
    const clientId = docUrl("agent")
    const { verifier, challenge } = pkce()
    const { page, location } = await consent(server.base, {
      clientId,
      redirectUri: REDIRECT,
      challenge,
      email: a.email,
      password: SUITE_PASSWORD,
      workspaces: [a.workspaceId]
    })
    // the consent page names the client as its document does
    expect(page.html).toContain("Doc Agent")
    const code = new URL(location!).searchParams.get("code")!
    expect(code).toBeTruthy()
    const tokens = await tokenRequest(server.base, {
      grant_type: "authorization_code",
      code,
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_verifier: verifier
    })
    expect(tokens.status).toBe(200)
    const list = await call(server.base, "GET", "/v1/workspaces", { headers: bearer(tokens.body.access_token) })
    expect(list.status).toBe(200)
    expect(list.body.map((w: any) => w.id)).toEqual([a.workspaceId])
    // the grant shows the client by its name
    const grants = await call(server.base, "GET", "/v1/oauth/grants", { headers: bearer(a.session) })
    expect(JSON.stringify(grants.body)).toContain("Doc Agent")
    // max-age=300: fetched once for the authorization request, its consent and the token
    expect(fetches.get("agent")).toBe(1)
    // a redirect URI the document does not list is refused, and never redirected to
    const stray = await new Browser().get(
      authorizeUrl(server.base, { clientId, redirectUri: "http://127.0.0.1:9/x", challenge })
    )
    expect(stray.status).toBe(400)
    expect(stray.html).toMatch(/redirect_uri does not match/)
  })

  it("a document that says no-store is fetched again each time", async () => {
    const { challenge } = pkce()
    for (let i = 0; i < 2; i++) {
      const page = await new Browser().get(
        authorizeUrl(server.base, { clientId: docUrl("fresh"), redirectUri: REDIRECT, challenge })
      )
      expect(page.status).toBe(200)
    }
    expect(fetches.get("fresh")).toBe(2)
  })

  it("refuses, saying why, a document naming another client_id, a redirect, an oversized one", async () => {
    const { challenge } = pkce()
    const cases: Array<[string, RegExp]> = [
      ["wrong-id", /client_id must be its own URL/],
      ["moved", /redirects are not followed/],
      ["big", /larger than 5120 bytes/],
      ["missing", /answered 404/]
    ]
    for (const [name, why] of cases) {
      const page = await new Browser().get(
        authorizeUrl(server.base, { clientId: docUrl(name), redirectUri: REDIRECT, challenge })
      )
      expect(page.status).toBe(400)
      expect(page.html).toMatch(why)
      expect(page.headers.get("location")).toBeNull()
    }
    // and the token endpoint answers invalid_client with the reason
    const token = await tokenRequest(server.base, {
      grant_type: "authorization_code",
      code: "nope",
      client_id: docUrl("wrong-id"),
      redirect_uri: REDIRECT,
      code_verifier: "x".repeat(43)
    })
    expect(token.status).toBe(401)
    expect(token.body).toMatchObject({ error: "invalid_client", error_description: expect.stringMatching(/own URL/) })
  })

  it("without the operator's allowance a loopback document is not fetched", async () => {
    const before = fetches.get("agent") ?? 0
    const { challenge } = pkce()
    const page = await new Browser().get(
      authorizeUrl(strict.base, { clientId: docUrl("agent"), redirectUri: REDIRECT, challenge })
    )
    expect(page.status).toBe(400)
    expect(page.html).toMatch(/loopback address.*WEBHOOK_ALLOW_PRIVATE/s)
    expect(fetches.get("agent") ?? 0).toBe(before)
  })
})
