/**
 * Issue 30 from the command line: `board member list|add|role|remove` (and `remove --me` to
 * leave), through the real `bin/board.mjs` against a real server, read back over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBoard, tempConfigHome } from "../support/cli.ts"
import { type Account, bootstrap, call, key } from "../support/client.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
let owner: Account
let grace: Account

const board = (who: Account, args: ReadonlyArray<string>) =>
  runBoard(args, {
    env: { XDG_CONFIG_HOME: tempConfigHome(), BOARD_API_URL: server.baseUrl, BOARD_API_KEY: who.apiKey }
  })
const ok = async (who: Account, args: ReadonlyArray<string>) => {
  const run = await board(who, args)
  expect(run.code, `board ${args.join(" ")}\n${run.stderr}`).toBe(0)
  return run
}

beforeAll(async () => {
  server = await startServer("pglite")
  owner = await bootstrap(server.baseUrl, "owner")
  grace = await bootstrap(server.baseUrl, "grace")
}, 180_000)
afterAll(async () => {
  await server?.stop()
})

describe("board member", () => {
  it("adds, lists, changes a role, refuses a viewer's write, and leaves", async () => {
    const added = await ok(owner, ["member", "add", grace.email, "--role", "viewer"])
    expect(added.stdout.trim()).toBe(grace.userId)
    const listed = JSON.parse((await ok(owner, ["member", "list", "--json"])).stdout)
    expect(listed.map((m: any) => [m.email, m.role, m.kind])).toEqual([
      [owner.email, "owner", "person"],
      [grace.email, "viewer", "person"]
    ])
    // a viewer's write is refused with the role named, exit 1
    const refused = await board(grace, ["member", "add", "someone@example.com", "--workspace", owner.workspaceId])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/viewer: to add members you need to be an admin/)
    await ok(owner, ["member", "role", grace.email, "admin"])
    const members = await call(server.baseUrl, "GET", `/v1/workspaces/${owner.workspaceId}/members`, {
      headers: key(owner.apiKey)
    })
    expect(members.body.find((m: any) => m.userId === grace.userId).role).toBe("admin")
    const usage = await board(grace, ["member", "remove"])
    expect(usage.code).toBe(2)
    await ok(grace, ["member", "remove", "--me", "--workspace", owner.workspaceId])
    const after = await call(server.baseUrl, "GET", `/v1/workspaces/${owner.workspaceId}/members`, {
      headers: key(owner.apiKey)
    })
    expect(after.body.map((m: any) => m.email)).toEqual([owner.email])
  })

  it("the last owner cannot leave (409 as exit 1, saying why)", async () => {
    const run = await board(owner, ["member", "remove", "--me"])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/without an owner/)
  })
})
