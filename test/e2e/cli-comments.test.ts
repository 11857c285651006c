/**
 * Issue 19 from the command line: `board card assign|unassign` (by email among the workspace's
 * members, or @me) and `board comment add|list`, through the real `bin/board.mjs` against a real
 * server, read back over HTTP.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBoard, tempConfigHome } from "../support/cli.ts"
import { type Account, bootstrap, call, key } from "../support/client.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
let home: string
let env: Record<string, string>
let apiKey: string
let member: Account
const email = `cli-assign-${Date.now().toString(36)}@example.com`

const board = (args: ReadonlyArray<string>, input?: string) =>
  runBoard(args, { env, ...(input !== undefined ? { input } : {}) })
const ok = async (args: ReadonlyArray<string>, input?: string) => {
  const run = await board(args, input)
  expect(run.code, `board ${args.join(" ")}\n${run.stderr}`).toBe(0)
  return run
}
const json = async (args: ReadonlyArray<string>, input?: string) =>
  JSON.parse((await ok([...args, "--json"], input)).stdout)

beforeAll(async () => {
  server = await startServer("pglite")
  home = tempConfigHome()
  env = { XDG_CONFIG_HOME: home, BOARD_API_URL: server.baseUrl }
  await ok(
    [
      "auth",
      "signup",
      "--email",
      email,
      "--full-name",
      "Ada",
      "--workspace",
      "Acme",
      "--project",
      "Website",
      "--password-stdin"
    ],
    "correct horse battery\n"
  )
  apiKey = JSON.parse(fs.readFileSync(path.join(home, "board", "config.json"), "utf8")).apiKey
  member = await bootstrap(server.baseUrl, "grace")
  const [workspace] = (await call(server.baseUrl, "GET", "/v1/workspaces", { headers: key(apiKey) })).body
  const added = await call(server.baseUrl, "POST", `/v1/workspaces/${workspace.id}/members`, {
    body: { email: member.email },
    headers: key(apiKey)
  })
  expect(added.status, added.text).toBe(201)
}, 180_000)
afterAll(async () => {
  await server?.stop()
  fs.rmSync(home, { recursive: true, force: true })
})

describe("board card assign and board comment", { timeout: 180_000 }, () => {
  it("assigns @me and a member by email, unassigns, and refuses someone outside the workspace", async () => {
    const card = await json(["card", "create", "Pair on this"])
    const me = (await call(server.baseUrl, "GET", `/v1/cards/${card.id}`, { headers: key(apiKey) })).body
    const assigned = await json(["card", "assign", card.ref, "@me", member.email.toUpperCase()])
    expect(assigned.assigneeIds).toHaveLength(2)
    expect(assigned.assigneeIds).toContain(member.userId)
    const myId = assigned.assigneeIds.find((id: string) => id !== member.userId)
    const read = (await call(server.baseUrl, "GET", `/v1/cards/${card.id}`, { headers: key(apiKey) })).body
    expect(read.assigneeIds).toEqual(assigned.assigneeIds)
    expect(read.updatedAt >= me.updatedAt).toBe(true)

    const human = await ok(["card", "unassign", card.ref, member.email])
    expect(human.stderr).toContain(`${card.ref} is assigned to ${email}.`)
    expect(human.stdout.trim()).toBe(card.ref)
    const after = (await call(server.baseUrl, "GET", `/v1/cards/${card.id}`, { headers: key(apiKey) })).body
    expect(after.assigneeIds).toEqual([myId])

    const refused = await board(["card", "assign", card.ref, "nobody@example.com"])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("nobody@example.com is not a member of Acme")
    const usage = await board(["card", "assign", card.ref])
    expect(usage.code).toBe(2)
  })

  it("adds comments (argument or stdin) and lists them oldest first, as text and JSON", async () => {
    const card = await json(["card", "create", "Discuss"])
    const first = await json(["comment", "add", card.ref, "Which **API** version?"])
    expect(first).toMatchObject({
      cardId: card.id,
      body: "Which **API** version?",
      author: { type: "user", name: "Ada" }
    })
    await ok(["comment", "add", card.ref, "-"], "v2, see\nthe notes\n")
    const listed = (await call(server.baseUrl, "GET", `/v1/cards/${card.id}/comments`, { headers: key(apiKey) })).body
    expect(listed.comments.map((c: any) => c.body)).toEqual(["Which **API** version?", "v2, see\nthe notes"])

    const page = await json(["comment", "list", card.ref])
    expect(page).toEqual(listed)
    expect((await json(["comment", "list", card.ref, "--limit", "1", "--offset", "1"])).comments).toEqual([
      listed.comments[1]
    ])
    const text = await ok(["comment", "list", card.ref])
    expect(text.stdout).toContain("Ada")
    expect(text.stdout.indexOf("Which **API** version?")).toBeLessThan(text.stdout.indexOf("v2, see\nthe notes"))

    const empty = await board(["comment", "add", card.ref, " "])
    expect(empty.code).toBe(1)
    expect(empty.stderr).toContain("body")
  })
})
