/**
 * Issue 6 end to end, as a real agent connects: the official MCP SDK meets a 401, discovers the
 * protected-resource and authorization-server metadata, registers, runs the authorization
 * code flow with PKCE (this test plays the browser and posts the consent form), then lists
 * tools, creates and moves a card, and the board shows the change through REST.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { Browser, hiddenFields } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"

const REDIRECT = "http://127.0.0.1:53682/callback"

/** An agent's token store, and the person who signs in when the SDK sends them to the page. */
class TestProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ""
  code: string | undefined
  authorizeUrl: URL | undefined
  readonly person: { email: string; password: string; workspaces: ReadonlyArray<string> }
  constructor(person: { email: string; password: string; workspaces: ReadonlyArray<string> }) {
    this.person = person
  }
  get redirectUrl() {
    return REDIRECT
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "SDK agent",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  saveCodeVerifier(v: string) {
    this.verifier = v
  }
  codeVerifier() {
    return this.verifier
  }
  async redirectToAuthorization(url: URL) {
    this.authorizeUrl = url
    const browser = new Browser()
    const page = await browser.get(url.toString())
    const form: Array<[string, string]> = [
      ...hiddenFields(page.html),
      ["email", this.person.email],
      ["password", this.person.password]
    ]
    for (const w of this.person.workspaces) form.push(["workspace", w])
    form.push(["decision", "allow"])
    const res = await browser.post(new URL("/oauth/authorize", url).toString(), form)
    const location = new URL(res.headers.get("location")!)
    this.code = location.searchParams.get("code") ?? undefined
  }
}

describe.each(backends)("an MCP client signs in with OAuth on %s", (backend) => {
  let server: TestServer
  let a: Account
  beforeAll(async () => {
    server = await startServer(backend)
    a = await bootstrap(server.baseUrl, "sdk-person")
  })
  afterAll(() => server?.stop())

  it("discovers, registers, authorizes with PKCE, and works the board", async () => {
    const mcpUrl = new URL(`${server.baseUrl}/mcp`)
    const provider = new TestProvider({
      email: a.email,
      password: "correct horse battery",
      workspaces: [a.workspaceId]
    })
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })
    await expect(new Client({ name: "sdk-agent", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError
    )
    // the SDK found everything from the 401 and registered itself
    expect(provider.info?.client_id).toEqual(expect.any(String))
    expect(provider.authorizeUrl?.searchParams.get("code_challenge_method")).toBe("S256")
    // RFC 8707: the token is asked for the protected resource the metadata names
    expect(provider.authorizeUrl?.searchParams.get("resource")).toBe(`${server.config.publicUrl}/api`)
    expect(provider.code).toMatch(/^svc_ac_/)
    await first.finishAuth(provider.code!)
    expect(provider.saved?.access_token).toMatch(/^svc_at_/)

    const client = new Client({ name: "sdk-agent", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))
    const tools = await client.listTools()
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["create_card", "move_card", "show_board"]))

    const created = await client.callTool({
      name: "create_card",
      arguments: { projectId: a.projectId, column: "To Do", title: "Filed by an agent" }
    })
    expect(created.isError).toBeFalsy()
    const card = (created.structuredContent as any).card ?? created.structuredContent
    const moved = await client.callTool({
      name: "move_card",
      arguments: { card: card.ref, column: "Done", projectId: a.projectId }
    })
    expect(moved.isError).toBeFalsy()

    const board = await call(server.baseUrl, "GET", `/v1/board/${a.projectId}`, { headers: key(a.apiKey) })
    const onBoard = board.body.cards.find((c: any) => c.title === "Filed by an agent")
    expect(onBoard).toMatchObject({ ref: card.ref, columnId: a.columns[2]!.id })
    await client.close()
  })
})
