/**
 * Issue 20: a client generated from the served document works. `openapi-typescript` turns
 * GET /api/v1/openapi.json into types; a small program written against them with `openapi-fetch`
 * (the named `Card` type, the versioned update-feed path) must type-check with tsc, then run
 * against the real server: sign up, make a workspace, a project and an API key, create a card,
 * read it back, and fetch a release's file from the update feed.
 */
import { Blobs } from "@board/core"
import { Effect } from "effect"
import { execFile, execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import openapiTS, { astToString } from "openapi-typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { publishRelease } from "../packages/core/src/desktop/publish.ts"
import { makeBuild } from "./support/desktopHttp.ts"
import { startServer, type TestServer } from "./support/server.ts"

const repo = path.resolve(import.meta.dirname, "..")
const bin = (name: string) => path.join(repo, "node_modules", ".bin", name)

/** The program a client author would write, using only the generated types. */
const program = `import createClient from "openapi-fetch"
import type { components, paths } from "./api.ts"

type Card = components["schemas"]["Card"]

const [baseUrl, email] = process.argv.slice(2) as [string, string]
const client = createClient<paths>({ baseUrl })

const signup = await client.POST("/v1/auth/signup", {
  body: { email, password: "correct horse battery staple", full_name: "Generated Client" }
})
if (signup.data === undefined) throw new Error("signup failed: " + signup.response.status)
const session = { Authorization: "Bearer " + signup.data.session.access_token }
const ws = await client.POST("/v1/workspaces", { body: { name: "Generated" }, headers: session })
if (ws.data === undefined) throw new Error("workspace failed")
const project = await client.POST("/v1/projects", {
  body: { workspaceId: ws.data.workspace.id, name: "Client", template: "kanban" },
  headers: session
})
if (project.data === undefined) throw new Error("project failed")
const apiKey = await client.POST("/v1/api-keys", { body: { name: "generated" }, headers: session })
if (apiKey.data === undefined) throw new Error("api key failed")
const headers = { "X-API-Key": apiKey.data.rawKey }

const column = project.data.columns[0]!
const created = await client.POST("/v1/cards", {
  body: { projectId: project.data.project.id, columnId: column.id, title: "Typed end to end", priority: "high" },
  headers
})
if (created.data === undefined) throw new Error("create failed: " + JSON.stringify(created.error))
const read = await client.GET("/v1/cards/{id}", { params: { path: { id: created.data.id } }, headers })
if (read.data === undefined) throw new Error("read failed")
const card: Card = read.data
const score: number | null = null satisfies components["schemas"]["ProjectLink"]["score"]

const missing = await client.GET("/v1/cards/{id}", {
  params: { path: { id: "00000000-0000-4000-8000-000000000000" } },
  headers
})
const error: components["schemas"]["Error"] | undefined = missing.error

const feed = await client.GET("/v1/desktop/updates/{platform}/{version}/{artifact}", {
  params: { path: { platform: "darwin-arm64", version: "1.2.3", artifact: "Board-1.2.3-arm64-mac.zip" } },
  headers,
  redirect: "manual"
})
const channel = await client.GET("/v1/desktop/updates/{platform}/latest-mac.yml", {
  params: { path: { platform: "darwin-arm64" } },
  headers,
  redirect: "manual"
})

// @ts-expect-error: the generated paths are real, so an unknown one does not compile
await client.GET("/v1/no-such-path", {})

console.log(
  JSON.stringify({
    card: { id: card.id, ref: card.ref, title: card.title, priority: card.priority, columnId: card.columnId },
    created: created.response.status,
    score,
    missing: { status: missing.response.status, error: error?.error },
    feed: { status: feed.response.status, location: feed.response.headers.get("location") },
    channel: { status: channel.response.status, location: channel.response.headers.get("location") }
  })
)
`

describe("a client generated from the OpenAPI document", () => {
  let server: TestServer
  let dir: string

  beforeAll(async () => {
    server = await startServer("pglite")
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "board-openapi-client-"))
    // the program resolves openapi-fetch and @types/node from the repository, as an app would its own
    fs.symlinkSync(path.join(repo, "node_modules"), path.join(dir, "node_modules"))
    const build = makeBuild(dir, "1.2.3", 64 * 1024)
    await server.run(
      Effect.gen(function* () {
        const blobs = yield* Blobs
        return yield* publishRelease(blobs, {
          platform: "darwin-arm64",
          version: "1.2.3",
          notes: "First",
          files: [build.zip, build.dmg, build.blockmap]
        })
      })
    )
  })
  afterAll(async () => {
    await server?.stop()
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true })
  })

  it("type-checks a program using the named Card type and the versioned feed path, which then runs against the server", async () => {
    const r = await fetch(`${server.baseUrl}/v1/openapi.json`)
    expect(r.status).toBe(200)
    const document = (await r.json()) as Parameters<typeof openapiTS>[0]
    const types = astToString(await openapiTS(document))
    // the resources are named types, and numbers are numbers
    expect(types).toMatch(/\bCard: \{/)
    expect(types).toMatch(/score: number \| null/)
    expect(types).not.toMatch(/"Infinity"/)
    fs.writeFileSync(path.join(dir, "api.ts"), types)
    fs.writeFileSync(path.join(dir, "program.ts"), program)
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          allowImportingTsExtensions: true,
          skipLibCheck: true,
          types: ["node"]
        },
        files: ["program.ts"]
      })
    )
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }))
    try {
      execFileSync(bin("tsc"), ["-p", dir], { encoding: "utf8", stdio: "pipe" })
    } catch (e) {
      const failure = e as { stdout?: string; stderr?: string }
      throw new Error(`the generated client does not type-check:\n${failure.stdout}${failure.stderr}`)
    }

    const email = `generated-${Date.now()}@example.org`
    // asynchronously: the server answers from this very process
    const { stdout: out } = await promisify(execFile)(
      bin("node"),
      [path.join(dir, "program.ts"), server.baseUrl, email],
      {
        encoding: "utf8",
        cwd: dir
      }
    )
    const result = JSON.parse(out.trim().split("\n").at(-1)!)
    expect(result.created).toBe(201)
    expect(result.card).toEqual({
      id: expect.any(String),
      ref: expect.stringMatching(/^[A-Z]+-1$/),
      title: "Typed end to end",
      priority: "high",
      columnId: expect.any(String)
    })
    expect(result.score).toBeNull()
    expect(result.missing).toEqual({ status: 404, error: expect.any(String) })
    // the versioned feed path and the channel file: a 302 to a signed URL of that file
    expect(result.feed.status).toBe(302)
    expect(result.feed.location).toMatch(/Board-1\.2\.3-arm64-mac\.zip/)
    expect(result.channel.status).toBe(302)
    expect(result.channel.location).toMatch(/latest-mac\.yml/)
  })
})
