/**
 * Issue 30, part 6 from the command line: `board agent create|list|key create` through the real
 * `bin/board.mjs` against a real server; the agent's key then works the board, and `board card
 * show` and `board card history` show it as an agent acting for its creator.
 */
import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBoard, tempConfigHome } from "../support/cli.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
let home: string
let env: Record<string, string>
const email = `cli-agents-${Date.now().toString(36)}@example.com`

const board = (args: ReadonlyArray<string>, extra: Record<string, string> = {}, input?: string) =>
  runBoard(args, { env: { ...env, ...extra }, ...(input !== undefined ? { input } : {}) })
const ok = async (args: ReadonlyArray<string>, extra: Record<string, string> = {}, input?: string) => {
  const run = await board(args, extra, input)
  expect(run.code, `board ${args.join(" ")}\n${run.stderr}`).toBe(0)
  return run
}

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
    {},
    "correct horse battery\n"
  )
}, 180_000)
afterAll(async () => {
  await server?.stop()
  fs.rmSync(home, { recursive: true, force: true })
})

describe("board agent create, list and key create", { timeout: 180_000 }, () => {
  it("an admin makes an agent and its key; the key works the board as the agent, shown as one", async () => {
    const created = await ok(["agent", "create", "Claude", "--description", "Writes the code"])
    const agentId = created.stdout.trim()
    expect(agentId).toMatch(/^[0-9a-f-]{36}$/)
    expect(created.stderr).toContain('Created agent "Claude" [agent] in "Acme"')

    const listed = await ok(["agent", "list"])
    expect(listed.stdout).toContain("Claude [agent]")
    expect(listed.stdout).toContain("Ada")
    const listedJson = JSON.parse((await ok(["agent", "list", "--json"])).stdout)
    expect(listedJson).toEqual([
      expect.objectContaining({ id: agentId, name: "Claude", description: "Writes the code" })
    ])

    const keyRun = await ok(["agent", "key", "create", "claude", "--scope", "read,write", "--quiet"])
    const rawKey = keyRun.stdout.trim()
    expect(rawKey).toMatch(/^svc_/)
    expect((await board(["agent", "key", "create", "Nobody"])).code).not.toBe(0)

    // the agent's key at work
    const agentEnv = { BOARD_API_KEY: rawKey }
    const card = JSON.parse((await ok(["card", "create", "Agent's work", "--json"], agentEnv)).stdout)
    await ok(["card", "assign", card.ref, "Claude"])
    await ok(["agent", "next", "--json"], agentEnv)

    const shown = await ok(["card", "show", card.ref])
    expect(shown.stdout).toMatch(/assignees\s+Claude \[agent\]/)
    expect(shown.stdout).toMatch(/claimed\s+by Claude \[agent for Ada\]/)
    const history = await ok(["card", "history", card.ref])
    const lines = history.stdout.trim().split("\n")
    expect(lines.find((l) => l.includes("card.created"))).toContain("Claude [agent for Ada]")
    expect(lines.find((l) => l.includes("card.assigned"))).toMatch(/card\.assigned\s+Ada\s/)

    // the agent's key cannot make agents: it is a member
    const refused = await board(["agent", "create", "Child"], agentEnv)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/member/)
  })
})
