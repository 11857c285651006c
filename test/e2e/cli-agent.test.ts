/**
 * Issue 19's CLI end to end: the real `bin/board.mjs` works the queue against a real server
 * (embedded database): take the next card, report, heartbeat, list sessions, release it into Done;
 * without a column the queue passes over Done, and `board show` names each column's kind.
 */
import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBoard, tempConfigHome } from "../support/cli.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
let home: string
let env: Record<string, string>

beforeAll(async () => {
  server = await startServer("pglite")
  home = tempConfigHome()
  env = { XDG_CONFIG_HOME: home, BOARD_API_URL: server.baseUrl }
})
afterAll(async () => {
  await server?.stop()
  fs.rmSync(home, { recursive: true, force: true })
})

const ok = async (args: ReadonlyArray<string>, input?: string) => {
  const run = await runBoard(args, { env, ...(input !== undefined ? { input } : {}) })
  expect(run.code, `board ${args.join(" ")}\n${run.stderr}`).toBe(0)
  return run
}
const json = async <T = any>(args: ReadonlyArray<string>): Promise<T> =>
  JSON.parse((await ok([...args, "--json"])).stdout) as T

describe("board agent, against a real server", { timeout: 180_000 }, () => {
  it("next, report, heartbeat, sessions, release --move-to: each read back", async () => {
    await ok(
      [
        "auth",
        "signup",
        "--email",
        `agent-${Date.now().toString(36)}@example.com`,
        "--full-name",
        "Cli Agent",
        "--workspace",
        "Acme",
        "--project",
        "Website",
        "--password-stdin"
      ],
      "correct horse battery\n"
    )
    await ok(["card", "create", "Routine", "--priority", "low"])
    const urgent = await json(["card", "create", "Fire", "--priority", "urgent"])
    const taken = await json(["agent", "next", "--column", "To Do", "--ttl", "120"])
    expect(taken.card.id).toBe(urgent.id)
    const session = taken.session.id as string
    expect(Date.parse(taken.session.leaseExpiresAt) - Date.parse(taken.session.createdAt)).toBe(120_000)
    const activity = await json(["agent", "report", session, "--type", "thought", "Looking into it"])
    expect(activity).toMatchObject({ sessionId: session, type: "thought", body: "Looking into it" })
    const beat = await json(["agent", "heartbeat", session])
    expect(Date.parse(beat.leaseExpiresAt)).toBeGreaterThanOrEqual(Date.parse(taken.session.leaseExpiresAt))
    const active = await json(["agent", "sessions", "--status", "active"])
    expect(active.map((s: any) => s.id)).toEqual([session])
    const human = await ok(["agent", "sessions"])
    expect(human.stdout).toContain(`${session} ${urgent.ref} active`)
    const released = await json(["agent", "release", session, "--move-to", "Done", "--status", "complete"])
    expect(released.status).toBe("complete")
    const card = await json(["card", "show", urgent.ref])
    expect(card.claim).toBeNull()
    const board = await json(["board", "show"])
    expect(board.columns.find((c: any) => c.id === card.columnId).name).toBe("Done")
    // the low card next, then nothing in To Do: exit 0 with a message, `null` as JSON
    expect((await json(["agent", "next", "-c", "to do"])).card.title).toBe("Routine")
    const none = await ok(["agent", "next", "-c", "To Do", "--json"])
    expect(JSON.parse(none.stdout)).toBeNull()
    expect(none.stderr).toMatch(/nothing was claimed/)
    // without --column the queue is the todo columns only: the finished card in Done, free of
    // claims, is not handed out (issue 28)
    const anywhere = await ok(["agent", "next", "--json"])
    expect(JSON.parse(anywhere.stdout)).toBeNull()
    // the board names each column's kind (a pipe gets the stacked board)
    const shown = (await ok(["board", "show"])).stdout.split("\n")
    expect(shown).toContain("To Do (1) · todo")
    expect(shown).toContain("In Progress (0) · in_progress")
    expect(shown).toContain("Done (1) · done")
    // the columns with their kinds; a column made todo from the CLI puts its cards in the queue
    const listed = (await ok(["column", "list"])).stdout
    expect(listed).toMatch(/^To Do\s+todo\s+1\s/m)
    expect(listed).toMatch(/^Done\s+done\s+1\s/m)
    const review = await json(["column", "create", "Review", "--position", "1"])
    expect(review).toMatchObject({ name: "Review", kind: "in_progress", position: 1 })
    expect((await json(["column", "edit", "done", "--kind", "todo"])).kind).toBe("todo")
    expect((await json(["agent", "next"])).card.id).toBe(urgent.id)
    const refused = await runBoard(["column", "edit", "Review"], { env })
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/nothing to change/)
    const columns = await json(["column", "list"])
    expect(columns.map((c: any) => [c.name, c.kind])).toEqual([
      ["To Do", "todo"],
      ["Review", "in_progress"],
      ["In Progress", "in_progress"],
      ["Done", "todo"]
    ])
    // a bad report type is a usage error
    const bad = await runBoard(["agent", "report", session, "--type", "musing", "x"], { env })
    expect(bad.code).toBe(2)
  })
})
