/**
 * Issue 17, the CLI: every request has a deadline (a server that accepts and never answers no
 * longer holds a command, or a cron intake, forever); a natural-language command that deletes
 * asks like `board card delete`; operator commands name the variable and the cause when the
 * database cannot be reached.
 */
import * as fs from "node:fs"
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBoard, tempConfigHome } from "../support/cli.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
let silent: net.Server
let silentUrl: string
const sockets = new Set<net.Socket>()
const homes: Array<string> = []
let env: Record<string, string>

beforeAll(async () => {
  server = await startServer("pglite")
  const home = tempConfigHome()
  homes.push(home)
  env = { XDG_CONFIG_HOME: home, BOARD_API_URL: server.baseUrl }
  // accepts every connection and never answers
  silent = net.createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
  silentUrl = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/api`
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  silent?.close()
  await server?.stop()
  for (const dir of homes) fs.rmSync(dir, { recursive: true, force: true })
})

const board = (
  args: ReadonlyArray<string>,
  options: { env?: Record<string, string | undefined>; input?: string } = {}
) => runBoard(args, { ...options, env: { ...env, ...options.env } })

describe("the CLI's deadline", () => {
  it("card show against a server that never answers gives up after --timeout, naming the server and the way to wait longer", async () => {
    const started = Date.now()
    const run = await board(["card", "show", "WEB-1", "--timeout", "1s"], {
      env: { BOARD_API_URL: silentUrl, BOARD_API_KEY: "svc_not_needed" }
    })
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(run.code).toBe(1)
    expect(run.stderr.trim()).toBe(
      `error: the server at ${silentUrl} did not answer within 1s; to wait longer, pass --timeout (for example --timeout 2m) or set BOARD_TIMEOUT`
    )
  })

  it("a cron intake (BOARD_TIMEOUT in plain seconds) gives up too", async () => {
    const started = Date.now()
    const run = await board(["intake", "Printer on fire"], {
      env: { BOARD_API_URL: silentUrl, BOARD_INTAKE_KEY: "svc_in_not_needed", BOARD_TIMEOUT: "1" }
    })
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`the server at ${silentUrl} did not answer within 1s`)
  })

  it("a malformed --timeout or BOARD_TIMEOUT is a usage error naming it", async () => {
    const flag = await board(["card", "show", "WEB-1", "--timeout", "soon"], { env: { BOARD_API_KEY: "svc_x" } })
    expect(flag.code).toBe(2)
    expect(flag.stderr).toMatch(/^error: --timeout: expected a duration such as 30s/)
    const variable = await board(["card", "show", "WEB-1"], { env: { BOARD_API_KEY: "svc_x", BOARD_TIMEOUT: "0" } })
    expect(variable.code).toBe(2)
    expect(variable.stderr).toMatch(/^error: BOARD_TIMEOUT: expected a duration/)
  })

  it("a live server answers well within the deadline", async () => {
    const run = await board(["card", "show", "WEB-1", "--timeout", "30s"], {
      env: { BOARD_API_KEY: "svc_unknown_key_000000000000000000000000" }
    })
    expect(run.stderr).not.toContain("did not answer")
  })
})

describe("board do asks before a command that deletes", () => {
  it('in a script, `board do "delete WEB-3"` needs --yes (exit 2, card kept); with --yes it deletes', async () => {
    const signup = await board(
      ["auth", "signup", "--email", "do-delete@example.com", "--full-name", "D", "--workspace", "Acme"].concat([
        "--project",
        "Website",
        "--password-stdin"
      ]),
      { input: "correct horse battery\n" }
    )
    expect(signup.code, signup.stderr).toBe(0)
    for (const title of ["One", "Two", "Three"]) {
      expect((await board(["card", "create", title])).code).toBe(0)
    }
    // the same refusal `board card delete` gives in a script
    const cardDelete = await board(["card", "delete", "WEB-3"])
    const refused = await board(["do", "delete WEB-3"])
    expect(refused.code).toBe(2)
    expect(refused.stderr.trim()).toBe("error: deleting WEB-3 cannot be undone: confirm with --yes")
    expect(refused.stderr.trim()).toBe(cardDelete.stderr.trim())
    expect((await board(["card", "show", "WEB-3"])).code).toBe(0)

    // a title is named as typed; a command that does not delete needs nothing
    const byTitle = await board(["do", 'delete "Two"'])
    expect(byTitle.code).toBe(2)
    expect(byTitle.stderr.trim()).toBe('error: deleting "Two" cannot be undone: confirm with --yes')
    expect((await board(["do", "move WEB-1 to Done"])).code).toBe(0)

    const deleted = await board(["do", "delete WEB-3", "--yes"])
    expect(deleted.code, deleted.stderr).toBe(0)
    const gone = await board(["card", "show", "WEB-3"])
    expect(gone.code).toBe(1)
    expect((await board(["card", "show", "WEB-2"])).code).toBe(0)
  })
})

describe("operator commands and an unreachable DATABASE_URL", () => {
  it.each([["migrate"], ["desktop publish"]])(
    "board %s names DATABASE_URL and the cause in one line, without the password",
    async (command) => {
      const args =
        command === "migrate"
          ? ["migrate"]
          : ["desktop", "publish", "--platform", "linux", "--version", "1.0.0", "--notes", "x", "package.json"]
      const run = await runBoard(args, {
        env: { DATABASE_URL: "postgres://postgres:hunter2@127.0.0.1:1/x", REDIS_URL: undefined, S3_BUCKET: undefined }
      })
      expect(run.code).toBe(1)
      const last = run.stderr.trim().split("\n").at(-1)
      expect(last).toMatch(
        new RegExp(
          `^board ${command} failed: DATABASE_URL: cannot use PostgreSQL at postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:1/x \\(.+\\)$`
        )
      )
      expect(run.stdout + run.stderr).not.toContain("hunter2")
    }
  )
})
