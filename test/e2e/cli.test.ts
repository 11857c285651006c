/**
 * Issue 8 end to end: the real `bin/board.mjs`, spawned as a user runs it, against a real
 * server (embedded database, random port), with a config home of its own.
 */
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runBoard, tempConfigHome } from "../support/cli.ts"
import { startServer, type TestServer } from "../support/server.ts"

let server: TestServer
const homes: Array<string> = []
let home: string
let env: Record<string, string>
const password = "correct horse battery"
const email = `cli-${Date.now().toString(36)}@example.com`

beforeAll(async () => {
  server = await startServer("pglite")
  home = freshHome()
  env = { XDG_CONFIG_HOME: home, BOARD_API_URL: server.baseUrl }
})
afterAll(async () => {
  await server?.stop()
  for (const dir of homes) fs.rmSync(dir, { recursive: true, force: true })
})

/** A config home of its own, removed after the suite. */
const freshHome = () => {
  const dir = tempConfigHome()
  homes.push(dir)
  return dir
}

const board = (
  args: ReadonlyArray<string>,
  options: { env?: Record<string, string | undefined>; input?: string } = {}
) => runBoard(args, { ...options, env: { ...env, ...options.env } })

const ok = async (
  args: ReadonlyArray<string>,
  options: { env?: Record<string, string | undefined>; input?: string } = {}
) => {
  const run = await board(args, options)
  expect(run.code, `board ${args.join(" ")}\n${run.stderr}`).toBe(0)
  return run
}

const json = async <T = any>(
  args: ReadonlyArray<string>,
  options: { env?: Record<string, string | undefined>; input?: string } = {}
): Promise<T> => JSON.parse((await ok([...args, "--json"], options)).stdout) as T

describe("board, the command line, against a real server", { timeout: 180_000 }, () => {
  it("auth signup bootstraps an account and saves the key (mode 0600); the next command uses it", async () => {
    const signup = await ok(
      [
        "auth",
        "signup",
        "--email",
        email,
        "--full-name",
        "Ada Lovelace",
        "--workspace",
        "Acme",
        "--project",
        "Website",
        "--password-stdin"
      ],
      { input: `${password}\n` }
    )
    expect(signup.stderr).toContain(`Signed up as ${email}`)
    expect(signup.stderr).toContain("To Do, In Progress, Done")
    const file = path.join(home, "board", "config.json")
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    const saved = JSON.parse(fs.readFileSync(file, "utf8"))
    expect(saved).toMatchObject({ apiUrl: server.baseUrl, email })
    expect(saved.apiKey).toMatch(/^svc_/)
    expect(signup.stdout).not.toContain(saved.apiKey)

    // a second command, with no key anywhere but the config file
    const workspaces = await json(["workspace", "list"], { env: { BOARD_API_URL: undefined } })
    expect(workspaces).toEqual([expect.objectContaining({ name: "Acme", role: "owner" })])
    const projects = await json(["project", "list"])
    expect(projects).toEqual([expect.objectContaining({ name: "Website", refPrefix: "WEB", workspaceName: "Acme" })])
    expect((await ok(["auth", "status"])).stdout).toContain("signed in")
  })

  it("cards: create, move by column name, search, show, all parsed from --json", async () => {
    const created = await ok(["card", "create", "Fix login bug", "--priority", "high"])
    expect(created.stdout.trim()).toBe("WEB-1")
    expect(created.stderr).toContain("Created WEB-1 in To Do")
    const second = await json(["card", "create", "Write docs", "--column", "done", "--description", "-"], {
      input: "The README\n"
    })
    expect(second).toMatchObject({ ref: "WEB-2", title: "Write docs", description: "The README" })

    const moved = await json(["card", "move", "WEB-1", "in progress"])
    const view = await json(["board", "show"])
    const inProgress = view.columns.find((c: { name: string }) => c.name === "In Progress")
    expect(moved).toMatchObject({ ref: "WEB-1", columnId: inProgress.id, position: 0 })

    // archive and restore by ref: off the board and search, then back at the end of its column
    const archived = await ok(["card", "archive", "WEB-2"])
    expect(archived.stdout.trim()).toBe("WEB-2")
    expect(archived.stderr).toContain("Archived WEB-2: Write docs (board card restore WEB-2 brings it back)")
    expect((await json(["board", "show"])).cards.map((c: { ref: string }) => c.ref)).toEqual(["WEB-1"])
    expect((await json(["card", "restore", "WEB-2"])).archivedAt).toBeNull()

    const found = await json(["search", "login"])
    expect(found.map((c: { ref: string }) => c.ref)).toEqual(["WEB-1"])
    expect((await ok(["search", "login"])).stdout).toMatch(/WEB-1\s+high\s+Fix login bug/)
    expect((await json(["card", "show", "WEB-1"])).columnId).toBe(inProgress.id)

    const drawn = await ok(["board", "show"])
    expect(drawn.stdout).toContain("In Progress (1)")
    expect(drawn.stdout).not.toMatch(/\u001b\[/)
  })

  it("a command's requests share one kept-alive connection, on node:http, not fetch", async () => {
    // card show sends five requests: one connection for them all (one TLS handshake to a hosted
    // server), and Node's fetch (undici, about a quarter of a short command's CPU to load) unused
    const target = new URL(server.baseUrl)
    let connections = 0
    const proxy = net.createServer((client) => {
      connections++
      const upstream = net.connect(Number(target.port), target.hostname)
      client.pipe(upstream).pipe(client)
      client.on("error", () => upstream.destroy())
      upstream.on("error", () => client.destroy())
    })
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r))
    const hook = path.join(home, "loaded.cjs")
    fs.writeFileSync(
      hook,
      `process.on("exit", () => process.stderr.write("undici loaded: " + process.moduleLoadList.some((m) => m.includes("undici")) + "\\n"))\n`
    )
    try {
      const port = (proxy.address() as net.AddressInfo).port
      const shown = await ok(["card", "show", "WEB-1"], {
        env: { BOARD_API_URL: `http://127.0.0.1:${port}/api`, NODE_OPTIONS: `--require=${hook}` }
      })
      expect(shown.stdout).toContain("Fix login bug")
      expect(shown.stderr).toContain("undici loaded: false")
      expect(connections).toBe(1)
    } finally {
      proxy.close()
    }
  })

  it("intake from a script: BOARD_INTAKE_KEY, stdin, and one card for a repeated idempotency key", async () => {
    const mint = await ok(["intake-token", "create", "--column", "To Do", "--name", "cron", "--quiet"])
    const token = mint.stdout.trim()
    expect(token).toMatch(/^svc_in_/)
    expect(mint.stderr).toBe("")
    const intake = { env: { BOARD_INTAKE_KEY: token, XDG_CONFIG_HOME: freshHome() } }

    await ok(["intake", "Printer on fire", "--description", "-"], { ...intake, input: "3rd floor\n" })
    await ok(["intake", "Printer on fire"], intake)
    const keyed = await json(["intake", "Disk full", "--idempotency-key", "disk-2026-01-01"], intake)
    expect(keyed).toEqual({ ok: true })
    await ok(["intake", "Disk full, again", "--idempotency-key", "disk-2026-01-01"], intake)

    const rows = await server.query<{ title: string; description: string | null; source: string }>(
      "SELECT title, description, source FROM cards WHERE source = 'intake' ORDER BY created_at, title"
    )
    expect(rows.filter((r) => r.title === "Printer on fire")).toHaveLength(2)
    expect(rows.filter((r) => r.title.startsWith("Disk full"))).toEqual([
      { title: "Disk full", description: null, source: "intake" }
    ])
    expect(rows[0]).toMatchObject({ title: "Printer on fire", description: "3rd floor" })

    const refused = await board(["intake", "Nope"], {
      env: { BOARD_INTAKE_KEY: "svc_in_nonsense", XDG_CONFIG_HOME: intake.env.XDG_CONFIG_HOME }
    })
    expect(refused.code).toBe(4)
    expect(refused.stderr).toContain("BOARD_INTAKE_KEY")
  })

  it("board do runs a plain-English command", async () => {
    const done = await json(["do", "move WEB-1 to Done"])
    expect(done).toMatchObject({ intent: "move_card", understood: true, result: { ref: "WEB-1" } })
    const view = await json(["board", "show", "Website"])
    const doneColumn = view.columns.find((c: { name: string }) => c.name === "Done")
    expect(view.cards.find((c: { ref: string }) => c.ref === "WEB-1").columnId).toBe(doneColumn.id)
    const text = await ok(["do", "add", "subtask", "'write tests'", "to", "WEB-1"])
    expect(text.stdout).toContain("WEB-1")
    const unclear = await board(["do", "please make everything better"])
    expect(unclear.code).toBe(1)
    expect(unclear.stderr).toMatch(/^error: .*Try: /)
  })

  it("exit codes: 4 for a bad key, 2 for a usage error, 1 for a 404 or a 429, each with the server's message", async () => {
    const badKey = await board(["workspace", "list", "--api-key", "svc_not_a_real_key"])
    expect(badKey.code).toBe(4)
    expect(badKey.stderr).toMatch(/^error: invalid API key/)
    expect(badKey.stderr).toContain("board auth login")
    expect(badKey.stdout).toBe("")

    const usage = await board(["card", "move", "WEB-1"])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("missing required argument 'column'")

    const missing = await board(["card", "show", "7d0e1f7a-5c2b-4f4e-9a51-0c5f3b0c9d11"])
    expect(missing.code).toBe(1)
    expect(missing.stderr.trim()).toBe("error: card 7d0e1f7a-5c2b-4f4e-9a51-0c5f3b0c9d11 not found")
    const noRef = await board(["card", "show", "WEB-99"])
    expect(noRef.code).toBe(1)
    expect(noRef.stderr).toContain("no card WEB-99")

    // a second signup for the same email within SIGNUP_INTERVAL: 429, and when to retry
    const again = await board(["auth", "signup", "--email", email, "--full-name", "Ada", "--password-stdin"], {
      env: { XDG_CONFIG_HOME: freshHome() },
      input: password
    })
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/^error: .*try again in \d+ seconds?/)

    const signedOut = await board(["workspace", "list"], { env: { XDG_CONFIG_HOME: freshHome() } })
    expect(signedOut.code).toBe(4)
    expect(signedOut.stderr).toContain("not signed in")
  })

  it("auth login saves a new key; logout forgets it", async () => {
    const loginHome = freshHome()
    const login = await ok(["auth", "login", "--email", email, "--password-stdin"], {
      env: { XDG_CONFIG_HOME: loginHome },
      input: password
    })
    expect(login.stderr).toContain(`Signed in as ${email}`)
    const file = path.join(loginHome, "board", "config.json")
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect((await json(["workspace", "list"], { env: { XDG_CONFIG_HOME: loginHome } }))[0].name).toBe("Acme")

    const wrong = await board(["auth", "login", "--email", email, "--password-stdin"], {
      env: { XDG_CONFIG_HOME: loginHome },
      input: "wrong password"
    })
    expect(wrong.code).toBe(4)

    const savedKey = JSON.parse(fs.readFileSync(file, "utf8")).apiKey as string
    const keys = await json(["auth", "keys"], { env: { XDG_CONFIG_HOME: loginHome } })
    expect(keys.filter((k: any) => k.current)).toHaveLength(1)
    expect(JSON.stringify(keys)).not.toContain("svc_")
    const out = await ok(["auth", "logout"], { env: { XDG_CONFIG_HOME: loginHome } })
    expect(out.stderr + out.stdout).toContain("Revoked the saved API key")
    expect(JSON.parse(fs.readFileSync(file, "utf8")).apiKey).toBeUndefined()
    expect((await board(["auth", "status"], { env: { XDG_CONFIG_HOME: loginHome } })).code).toBe(4)
    // revoked on the server, not only forgotten
    const after = await board(["workspace", "list"], { env: { XDG_CONFIG_HOME: freshHome(), BOARD_API_KEY: savedKey } })
    expect(after.code).toBe(4)
  })

  it("board signup and board login (CONTRACT.md's names) are the auth commands at the top level", async () => {
    const home = freshHome()
    const other = `top-${Date.now()}@example.com`
    await ok(
      [
        "signup",
        "--email",
        other,
        "--full-name",
        "Top Level",
        "--workspace",
        "Top",
        "--project",
        "Website",
        "--password-stdin"
      ],
      { env: { XDG_CONFIG_HOME: home }, input: password }
    )
    expect((await json(["workspace", "list"], { env: { XDG_CONFIG_HOME: home } }))[0].name).toBe("Top")
    const loginHome = freshHome()
    const login = await ok(["login", "--email", other, "--password-stdin"], {
      env: { XDG_CONFIG_HOME: loginHome },
      input: password
    })
    expect(login.stderr).toContain(`Signed in as ${other}`)
    expect((await json(["workspace", "list"], { env: { XDG_CONFIG_HOME: loginHome } }))[0].name).toBe("Top")
  })

  it("auth revoke revokes another of your keys by id", async () => {
    const home = freshHome()
    await ok(["auth", "login", "--email", email, "--password-stdin"], {
      env: { XDG_CONFIG_HOME: home },
      input: password
    })
    const spareHome = freshHome()
    await ok(["auth", "login", "--email", email, "--password-stdin"], {
      env: { XDG_CONFIG_HOME: spareHome },
      input: password
    })
    const spare = (await json(["auth", "keys"], { env: { XDG_CONFIG_HOME: spareHome } })).find((k: any) => k.current)
    await ok(["auth", "revoke", spare.id], { env: { XDG_CONFIG_HOME: home } })
    expect((await board(["auth", "status"], { env: { XDG_CONFIG_HOME: spareHome } })).code).toBe(4)
    expect((await json(["auth", "keys"], { env: { XDG_CONFIG_HOME: home } })).map((k: any) => k.id)).not.toContain(
      spare.id
    )
    const bad = await board(["auth", "revoke", "svc_not_an_id"], { env: { XDG_CONFIG_HOME: home } })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain("not the key itself")
  })
})
