/**
 * Issue 30 from the command line: `board workspace rename|delete` and `board project
 * rename|archive|restore|delete`, through the real `bin/board.mjs` against a real server, read
 * back over HTTP. A delete names what will be lost and, without a terminal, needs `--yes`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBoard, tempConfigHome } from "../support/cli.ts"
import { call, key } from "../support/client.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
let home: string
let env: Record<string, string>
let apiKey: string
const email = `cli-manage-${Date.now().toString(36)}@example.com`

const board = (args: ReadonlyArray<string>) => runBoard(args, { env })
const ok = async (args: ReadonlyArray<string>, input?: string) => {
  const run = await runBoard(args, { env, ...(input !== undefined ? { input } : {}) })
  expect(run.code, `board ${args.join(" ")}\n${run.stderr}`).toBe(0)
  return run
}
const json = async (args: ReadonlyArray<string>) => JSON.parse((await ok([...args, "--json"])).stdout)
const get = async (p: string) => call(server.baseUrl, "GET", p, { headers: key(apiKey) })

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
}, 180_000)
afterAll(async () => {
  await server?.stop()
  fs.rmSync(home, { recursive: true, force: true })
})

describe("board workspace and board project management", { timeout: 180_000 }, () => {
  it("renames, archives, restores and deletes a project; a delete without a terminal needs --yes and names the cards", async () => {
    const created = await json(["project", "create", "Launch", "--workspace", "Acme"])
    const id = created.project.id
    await ok(["card", "create", "First", "--project", "Launch"])
    await ok(["card", "create", "Second", "--project", "Launch"])

    const renamed = await json(["project", "rename", "Launch", "Launch 2"])
    expect(renamed).toMatchObject({ id, name: "Launch 2", refPrefix: created.project.refPrefix })
    expect((await get(`/v1/projects/${id}`)).body.name).toBe("Launch 2")

    const archived = await ok(["project", "archive", "Launch 2"])
    expect(archived.stderr).toContain('Archived "Launch 2"')
    expect((await get(`/v1/projects/${id}`)).body.archivedAt).toEqual(expect.any(String))
    expect((await json(["project", "list"])).map((p: any) => p.id)).not.toContain(id)
    expect((await json(["project", "list", "--archived"])).map((p: any) => p.id)).toEqual([id])
    await ok(["project", "restore", "Launch 2"])
    expect((await get(`/v1/projects/${id}`)).body.archivedAt).toBeNull()

    const refused = await board(["project", "delete", "Launch 2"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('deleting "Launch 2" loses 2 cards')
    expect(refused.stderr).toContain("--yes")
    expect((await get(`/v1/projects/${id}`)).status).toBe(200)

    const deleted = await json(["project", "delete", "Launch 2", "--yes"])
    expect(deleted).toEqual({ deleted: { id, name: "Launch 2", cards: 2 } })
    expect((await get(`/v1/projects/${id}`)).status).toBe(404)
    const again = await board(["project", "delete", "Launch 2", "--yes"])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('no project "Launch 2"')
  })

  it("renames a workspace, and deletes one with --yes, naming its projects and cards", async () => {
    const renamed = await json(["workspace", "rename", "Acme", "Acme Inc"])
    expect(renamed).toMatchObject({ name: "Acme Inc", role: "owner" })
    const other = await json(["workspace", "create", "Scratch"])
    await ok(["project", "create", "Tmp", "--workspace", "Scratch"])
    await ok(["card", "create", "Throwaway", "--project", "Tmp"])

    const refused = await board(["workspace", "delete", "Scratch"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain('deleting "Scratch" loses 1 project and 1 card')
    const deleted = await json(["workspace", "delete", "Scratch", "--yes"])
    expect(deleted).toEqual({ deleted: { id: other.id, name: "Scratch", projects: 1, cards: 1 } })
    const left = (await get("/v1/workspaces")).body.map((w: any) => w.name)
    expect(left).toEqual(["Acme Inc"])
  })
})
