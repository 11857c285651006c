/** Issue 8: every command's flags as commander parses them, without a server. */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import type { App, Needs } from "../packages/cli/src/support/app.ts"
import { buildProgram, main } from "../packages/cli/src/main.ts"
import { resolveSettings } from "../packages/cli/src/support/settings.ts"
import { invitationToken } from "../packages/cli/src/commands/invite/index.ts"

// commander is the CLI package's dependency, not the root's: its types come through buildProgram
type Command = ReturnType<typeof buildProgram>
interface CommanderError {
  readonly code: string
  readonly exitCode: number
}

interface Call {
  readonly path: string
  readonly options: unknown
  readonly needs: Needs
  readonly globals: Record<string, unknown>
  readonly cmd: Command
}

const pathOf = (cmd: Command) => {
  const names: Array<string> = []
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name())
  return names.join(" ")
}

const parse = async (args: ReadonlyArray<string>): Promise<Call> => {
  const calls: Array<Call> = []
  const app: App = {
    run: async (cmd, options, _program, needs = "apiKey") => {
      calls.push({ path: pathOf(cmd), options, needs, globals: cmd.optsWithGlobals(), cmd })
    }
  }
  await buildProgram(app, { writeOut: () => {}, writeErr: () => {} }).parseAsync([...args], { from: "user" })
  expect(calls).toHaveLength(1)
  return calls[0]
}

/** The commander error of a command line that must not run. */
const refused = async (args: ReadonlyArray<string>): Promise<CommanderError> => {
  let err = ""
  const app: App = { run: async () => expect.fail(`${args.join(" ")} ran`) }
  try {
    await buildProgram(app, {
      writeOut: () => {},
      writeErr: (s) => {
        err += s
      }
    }).parseAsync([...args], {
      from: "user"
    })
  } catch (e) {
    expect((e as CommanderError).code).toMatch(/^commander\./)
    expect(err).toMatch(/error:/)
    return e as CommanderError
  }
  return expect.fail(`${args.join(" ")} was accepted`)
}

const savedEnv = { ...process.env }
afterEach(() => {
  for (const key of ["BOARD_API_KEY", "BOARD_API_URL", "BOARD_INTAKE_KEY"]) {
    if (savedEnv[key] === undefined) delete process.env[key]
    else process.env[key] = savedEnv[key]
  }
})
delete process.env.BOARD_API_KEY
delete process.env.BOARD_API_URL

describe("board auth", () => {
  it("signup takes every answer as a flag, for scripts, and needs no key", async () => {
    const call = await parse([
      "auth",
      "signup",
      "--email",
      "ada@example.com",
      "--full-name",
      "Ada Lovelace",
      "--password-stdin",
      "--workspace",
      "Acme",
      "--project",
      "Website",
      "--key-name",
      "ci"
    ])
    expect(call).toMatchObject({
      path: "auth signup",
      needs: "nothing",
      options: {
        email: "ada@example.com",
        fullName: "Ada Lovelace",
        passwordStdin: true,
        workspace: "Acme",
        project: "Website",
        keyName: "ci"
      }
    })
    expect((await parse(["auth", "signup"])).options).toEqual({})
    expect((await parse(["auth", "signup", "--password", "pw"])).options).toEqual({ password: "pw" })
  })

  it("login, status and logout", async () => {
    expect(await parse(["auth", "login", "--email", "a@b.c", "--password-stdin"])).toMatchObject({
      path: "auth login",
      needs: "nothing",
      options: { email: "a@b.c", passwordStdin: true }
    })
    expect(await parse(["auth", "status"])).toMatchObject({ path: "auth status", needs: "nothing", options: {} })
    expect(await parse(["auth", "logout"])).toMatchObject({ path: "auth logout", needs: "nothing", options: {} })
    expect(await parse(["login", "--email", "a@b.c", "--password-stdin"])).toMatchObject({
      path: "login",
      needs: "nothing",
      options: { email: "a@b.c", passwordStdin: true }
    })
    expect(await parse(["signup", "--email", "a@b.c"])).toMatchObject({
      path: "signup",
      needs: "nothing",
      options: { email: "a@b.c" }
    })
    expect(await parse(["auth", "keys"])).toMatchObject({ path: "auth keys", needs: "apiKey", options: {} })
    expect(await parse(["auth", "revoke", "0b6f1a52-0000-4000-8000-000000000000"])).toMatchObject({
      path: "auth revoke",
      needs: "apiKey",
      options: { id: "0b6f1a52-0000-4000-8000-000000000000" }
    })
  })
})

describe("workspaces, projects, the board", () => {
  it("workspace list|ls|create", async () => {
    expect(await parse(["workspace", "list"])).toMatchObject({ path: "workspace list", needs: "apiKey", options: {} })
    expect((await parse(["workspace", "ls"])).path).toBe("workspace list")
    expect(await parse(["workspace", "create", "Side projects"])).toMatchObject({
      path: "workspace create",
      options: { name: "Side projects" }
    })
    expect((await refused(["workspace", "create"])).code).toBe("commander.missingArgument")
  })

  it("project list|create with a workspace", async () => {
    expect((await parse(["project", "list", "--workspace", "Acme"])).options).toEqual({ workspace: "Acme" })
    expect(await parse(["project", "create", "Web App", "-w", "Acme"])).toMatchObject({
      path: "project create",
      options: { name: "Web App", workspace: "Acme" }
    })
  })

  it("board show with and without a project", async () => {
    expect(await parse(["board", "show"])).toMatchObject({ path: "board show", options: {} })
    expect((await parse(["board", "show", "Website"])).options).toEqual({ project: "Website" })
  })
})

describe("board card", () => {
  it("create: title, project, column, description, priority, labels", async () => {
    const call = await parse([
      "card",
      "create",
      "Fix login",
      "-p",
      "Website",
      "--column",
      "In Progress",
      "-d",
      "-",
      "--priority",
      "high",
      "-l",
      "bug",
      "--label",
      "backend"
    ])
    expect(call).toMatchObject({
      path: "card create",
      needs: "apiKey",
      options: {
        title: "Fix login",
        project: "Website",
        column: "In Progress",
        description: "-",
        priority: "high",
        label: ["bug", "backend"]
      }
    })
    expect((await refused(["card", "create", "x", "--priority", "whenever"])).code).toBe("commander.invalidArgument")
    expect((await refused(["card", "create"])).code).toBe("commander.missingArgument")
  })

  it("show, edit, delete", async () => {
    expect((await parse(["card", "show", "WEB-12", "--project", "Website"])).options).toEqual({
      card: "WEB-12",
      project: "Website"
    })
    expect(
      (await parse(["card", "edit", "WEB-12", "--title", "New", "--description", "-", "--priority", "low"])).options
    ).toEqual({
      card: "WEB-12",
      title: "New",
      description: "-",
      priority: "low"
    })
    expect((await parse(["card", "edit", "WEB-12", "--clear-description"])).options).toEqual({
      card: "WEB-12",
      clearDescription: true
    })
    expect((await parse(["card", "delete", "WEB-12", "-y"])).options).toEqual({ card: "WEB-12", yes: true })
    expect((await parse(["card", "delete", "WEB-12"])).options).toEqual({ card: "WEB-12" })
    expect(await parse(["card", "archive", "WEB-12"])).toMatchObject({
      path: "card archive",
      options: { card: "WEB-12" }
    })
    expect(await parse(["card", "restore", "WEB-12", "--project", "WEB"])).toMatchObject({
      path: "card restore",
      options: { card: "WEB-12", project: "WEB" }
    })
    expect((await refused(["card", "archive"])).code).toBe("commander.missingArgument")
  })

  it("move: a column by name, --position as a whole number from 0, --top", async () => {
    expect(await parse(["card", "move", "WEB-12", "In Progress"])).toMatchObject({
      path: "card move",
      options: { card: "WEB-12", column: "In Progress" }
    })
    expect((await parse(["card", "move", "WEB-12", "Done", "--position", "0"])).options).toEqual({
      card: "WEB-12",
      column: "Done",
      position: 0
    })
    expect((await parse(["card", "move", "WEB-12", "Done", "--top"])).options).toEqual({
      card: "WEB-12",
      column: "Done",
      top: true
    })
    for (const bad of ["-1", "1.5", "two"]) {
      expect((await refused(["card", "move", "WEB-12", "Done", `--position=${bad}`])).code).toBe(
        "commander.invalidArgument"
      )
    }
    expect((await refused(["card", "move", "WEB-12"])).code).toBe("commander.missingArgument")
  })
})

describe("search, labels, subtasks, links", () => {
  it("search joins its words; --limit is 1 to 200", async () => {
    expect(await parse(["search", "login", "bug", "-n", "5"])).toMatchObject({
      path: "search",
      options: { query: "login bug", limit: 5 }
    })
    expect((await parse(["search", "login bug"])).options).toEqual({ query: "login bug" })
    for (const bad of ["0", "201"])
      expect((await refused(["search", "x", "--limit", bad])).code).toBe("commander.invalidArgument")
    expect((await refused(["search"])).code).toBe("commander.missingArgument")
  })

  it("column list|create|edit: --kind is one of todo, in_progress, done", async () => {
    expect((await parse(["column", "ls", "-p", "WEB"])).path).toBe("column list")
    expect((await parse(["column", "create", "Review", "--kind", "in_progress", "--position", "2"])).options).toEqual({
      name: "Review",
      kind: "in_progress",
      position: 2
    })
    expect((await parse(["column", "edit", "Done", "-k", "done", "--name", "Shipped"])).options).toEqual({
      column: "Done",
      kind: "done",
      name: "Shipped"
    })
    expect((await refused(["column", "create", "X", "--kind", "doing"])).code).toBe("commander.invalidArgument")
    expect((await refused(["column", "edit", "X", "--position", "-1"])).code).toBe("commander.invalidArgument")
    expect((await refused(["column", "edit"])).code).toBe("commander.missingArgument")
  })

  it("label create|add|remove|list", async () => {
    expect((await parse(["label", "create", "bug", "--color", "#d73a4a", "-p", "WEB"])).options).toEqual({
      name: "bug",
      color: "#d73a4a",
      project: "WEB"
    })
    expect((await parse(["label", "add", "WEB-1", "bug", "backend"])).options).toEqual({
      card: "WEB-1",
      labels: ["bug", "backend"]
    })
    expect((await parse(["label", "remove", "WEB-1", "bug"])).options).toEqual({ card: "WEB-1", labels: ["bug"] })
    expect((await parse(["label", "rm", "WEB-1", "bug"])).path).toBe("label remove")
    expect((await parse(["label", "list"])).path).toBe("label list")
    expect((await refused(["label", "add", "WEB-1"])).code).toBe("commander.missingArgument")
  })

  it("subtask add|toggle", async () => {
    expect((await parse(["subtask", "add", "WEB-1", "Write tests", "--position", "0"])).options).toEqual({
      card: "WEB-1",
      title: "Write tests",
      position: 0
    })
    expect((await parse(["subtask", "toggle", "WEB-1", "2"])).options).toEqual({ card: "WEB-1", subtask: "2" })
    expect((await refused(["subtask", "toggle", "WEB-1"])).code).toBe("commander.missingArgument")
  })

  it("link add|list|remove: types are the four the API knows", async () => {
    expect((await parse(["link", "add", "WEB-4", "WEB-5", "--type", "blocks"])).options).toEqual({
      card: "WEB-4",
      target: "WEB-5",
      type: "blocks"
    })
    expect((await parse(["link", "add", "WEB-4", "WEB-5"])).options).toEqual({
      card: "WEB-4",
      target: "WEB-5",
      type: "relates_to"
    })
    expect((await refused(["link", "add", "WEB-4", "WEB-5", "--type", "causes"])).code).toBe(
      "commander.invalidArgument"
    )
    expect((await parse(["link", "list", "WEB-4"])).options).toEqual({ card: "WEB-4" })
    expect((await parse(["link", "remove", "WEB-4", "WEB-5", "-t", "blocks"])).options).toEqual({
      card: "WEB-4",
      target: "WEB-5",
      type: "blocks"
    })
    const id = "0b6f1a52-0000-4000-8000-000000000000"
    expect((await parse(["link", "rm", id])).options).toEqual({ card: id })
  })

  it("links add|list|review|evaluate|delete", async () => {
    expect(
      (
        await parse([
          "links",
          "add",
          "https://x.example/a",
          "--title",
          "A",
          "--note",
          "n",
          "--tag",
          "auth",
          "--tag",
          "docs"
        ])
      ).options
    ).toEqual({
      url: "https://x.example/a",
      title: "A",
      note: "n",
      tag: ["auth", "docs"]
    })
    expect((await parse(["links", "list", "-r", "unrated", "-n", "20", "--offset", "40"])).options).toEqual({
      relevance: "unrated",
      limit: 20,
      offset: 40
    })
    expect((await refused(["links", "list", "--limit", "501"])).code).toBe("commander.invalidArgument")
    expect((await refused(["links", "list", "--relevance", "great"])).code).toBe("commander.invalidArgument")
    expect((await parse(["links", "review", "https://x.example/a", "-r", "low", "--reason", "old"])).options).toEqual({
      link: "https://x.example/a",
      relevance: "low",
      reason: "old"
    })
    expect((await refused(["links", "review", "L", "--relevance", "unrated"])).code).toBe("commander.invalidArgument")
    expect(await parse(["links", "evaluate", "L", "-p", "Website"])).toMatchObject({
      path: "web-link evaluate",
      options: { link: "L", project: "Website" }
    })
    expect(await parse(["links", "delete", "L"])).toMatchObject({ path: "web-link delete", options: { link: "L" } })
  })

  // issue 16: one noun per thing and `delete` ends a thing; the old spellings stay as aliases
  it("web-link is the project links' noun (links its alias); link delete (remove its alias)", async () => {
    expect(await parse(["web-link", "delete", "L"])).toMatchObject({ path: "web-link delete", options: { link: "L" } })
    expect(await parse(["web-link", "list", "-r", "high"])).toMatchObject({
      path: "web-link list",
      options: { relevance: "high" }
    })
    expect(await parse(["link", "delete", "WEB-4", "WEB-5"])).toMatchObject({
      path: "link delete",
      options: { card: "WEB-4", target: "WEB-5" }
    })
    expect(await parse(["link", "remove", "WEB-4", "WEB-5"])).toMatchObject({ path: "link delete" })
  })
})

describe("prompt, do, intake, intake tokens", () => {
  it("prompt CARD --variant", async () => {
    expect((await parse(["prompt", "WEB-1", "--variant", "draft"])).options).toEqual({
      card: "WEB-1",
      variant: "draft"
    })
    expect((await refused(["prompt", "WEB-1", "--variant", "poem"])).code).toBe("commander.invalidArgument")
  })

  it("do joins its words into one command", async () => {
    expect(await parse(["do", "move WEB-12 to Done"])).toMatchObject({
      path: "do",
      options: { command: "move WEB-12 to Done" }
    })
    expect((await parse(["do", "move", "WEB-12", "to", "Done", "-p", "Website"])).options).toEqual({
      command: "move WEB-12 to Done",
      project: "Website"
    })
  })

  it("intake needs the intake token, not an API key", async () => {
    expect(
      await parse(["intake", "Printer on fire", "--description", "-", "--idempotency-key", "ticket-1"])
    ).toMatchObject({
      path: "intake",
      needs: "intakeKey",
      options: { title: "Printer on fire", description: "-", idempotencyKey: "ticket-1" }
    })
    expect((await parse(["intake", "t", "-d", "3rd floor", "-k", "k"])).options).toEqual({
      title: "t",
      description: "3rd floor",
      idempotencyKey: "k"
    })
  })

  it("intake-token create|list|revoke", async () => {
    expect(
      (await parse(["intake-token", "create", "--column", "To Do", "--name", "form", "--expires", "30d", "-p", "WEB"]))
        .options
    ).toEqual({
      column: "To Do",
      name: "form",
      expires: "30d",
      project: "WEB"
    })
    expect((await refused(["intake-token", "create"])).code).toBe("commander.missingMandatoryOptionValue")
    expect((await parse(["intake-token", "list"])).path).toBe("intake-token list")
    expect((await parse(["intake-token", "revoke", "0b6f"])).options).toEqual({ id: "0b6f" })
  })

  it("webhook create|list|delete|deliveries", async () => {
    expect(
      (await parse(["webhook", "create", "--url", "https://h.example/b", "-w", "Acme", "--events", "card.moved"]))
        .options
    ).toEqual({ url: "https://h.example/b", workspace: "Acme", events: "card.moved" })
    expect((await refused(["webhook", "create"])).code).toBe("commander.missingMandatoryOptionValue")
    expect((await parse(["webhook", "list", "-p", "WEB"])).options).toEqual({ project: "WEB" })
    expect((await parse(["webhook", "delete", "0b6f"])).options).toEqual({ id: "0b6f" })
    expect((await parse(["webhook", "deliveries", "0b6f", "-n", "5"])).options).toEqual({ id: "0b6f", limit: 5 })
    expect((await refused(["webhook", "deliveries", "0b6f", "-n", "0"])).code).toBe("commander.invalidArgument")
  })
})

describe("global options", () => {
  it("--json, --quiet, --api-url and --api-key go before or after the command", async () => {
    const before = await parse(["--json", "--api-url", "http://h:1/api", "card", "show", "WEB-1"])
    expect(before.globals).toMatchObject({ json: true, apiUrl: "http://h:1/api" })
    const after = await parse(["card", "show", "WEB-1", "--json", "-q", "--api-key", "svc_x"])
    expect(after.globals).toMatchObject({ json: true, quiet: true, apiKey: "svc_x" })
    expect(after.options).toEqual({ card: "WEB-1" })
  })

  it("flag over environment over config file; the URL defaults to the local server", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "board-parse-"))
    fs.mkdirSync(path.join(home, "board"))
    fs.writeFileSync(
      path.join(home, "board/config.json"),
      JSON.stringify({ apiUrl: "http://saved:1/api", apiKey: "svc_saved" })
    )
    const env = { XDG_CONFIG_HOME: home }
    const settingsOf = async (args: ReadonlyArray<string>) => resolveSettings((await parse(args)).cmd, env)

    expect(await settingsOf(["workspace", "list"])).toMatchObject({
      apiUrl: "http://saved:1/api",
      apiUrlSource: "config",
      apiKey: "svc_saved",
      apiKeySource: "config"
    })
    process.env.BOARD_API_KEY = "svc_env"
    process.env.BOARD_API_URL = "http://env:2"
    expect(await settingsOf(["workspace", "list"])).toMatchObject({
      apiUrl: "http://env:2/api",
      origin: "http://env:2",
      apiUrlSource: "env",
      apiKey: "svc_env",
      apiKeySource: "env"
    })
    expect(
      await settingsOf(["workspace", "list", "--api-key", "svc_flag", "--api-url", "https://flag.example/api/"])
    ).toMatchObject({
      apiUrl: "https://flag.example/api",
      apiUrlSource: "flag",
      apiKey: "svc_flag",
      apiKeySource: "flag"
    })
    delete process.env.BOARD_API_KEY
    delete process.env.BOARD_API_URL
    fs.rmSync(path.join(home, "board/config.json"))
    expect(await settingsOf(["workspace", "list"])).toMatchObject({
      apiUrl: "http://127.0.0.1:8080/api",
      apiUrlSource: "default",
      apiKey: undefined,
      apiKeySource: "none"
    })
    fs.rmSync(home, { recursive: true })
  })
})

describe("team commands (issue 30)", () => {
  it("member invite takes an optional email, --role and --workspace; invite accept takes a link or a token", async () => {
    const invite = await parse(["member", "invite", "ada@example.com", "--role", "admin", "-w", "Acme"])
    expect(invite.path).toBe("member invite")
    expect(invite.options).toEqual({ email: "ada@example.com", role: "admin", workspace: "Acme" })
    expect((await parse(["member", "invite", "--role", "viewer"])).options).toEqual({ role: "viewer" })
    const accept = await parse(["invite", "accept", "https://b.example/invite/svc_inv_x"])
    expect(accept.path).toBe("invite accept")
    expect(accept.options).toEqual({ token: "https://b.example/invite/svc_inv_x" })
    expect((await refused(["invite", "accept"])).code).toBe("commander.missingArgument")
  })

  it("invitationToken reads the token out of a link or takes the token as it is", () => {
    expect(invitationToken("https://b.example/invite/svc_inv_abc")).toBe("svc_inv_abc")
    expect(invitationToken("https://b.example/invite/svc_inv_abc?x=1")).toBe("svc_inv_abc")
    expect(invitationToken(" svc_inv_abc ")).toBe("svc_inv_abc")
  })
})

describe("help", () => {
  const everyCommand = (cmd: Command, prefix: Array<string> = []): Array<Array<string>> =>
    cmd.commands.flatMap((c) => [[...prefix, c.name()], ...everyCommand(c, [...prefix, c.name()])])

  it("board --help and every command's help show examples; --help states the credential precedence", async () => {
    const helpOf = async (args: ReadonlyArray<string>) => {
      let out = ""
      const program = buildProgram(
        { run: async () => {} },
        {
          writeOut: (s) => {
            out += s
          },
          writeErr: (s) => {
            out += s
          }
        }
      )
      await expect(program.parseAsync([...args, "--help"], { from: "user" })).rejects.toMatchObject({ exitCode: 0 })
      return out
    }
    const top = await helpOf([])
    expect(top).toContain("Examples:")
    expect(top).toMatch(/--api-key, else BOARD_API_KEY, else the one `board auth signup\|login` saved/)
    // `board desktop` is issue 7's (desktop builds), with its own tests
    const commands = everyCommand(buildProgram({ run: async () => {} })).filter((c) => c[0] !== "desktop")
    expect(commands.length).toBeGreaterThan(40)
    for (const args of commands) {
      const text = await helpOf(args)
      expect(text, `board ${args.join(" ")} --help`).toContain("Examples:")
    }
  })
})

describe("main", () => {
  it("a usage error exits 2 without running anything; help exits 0", async () => {
    const write = process.stderr.write
    process.stderr.write = (() => true) as typeof process.stderr.write
    const stdoutWrite = process.stdout.write
    process.stdout.write = (() => true) as typeof process.stdout.write
    try {
      await main(["node", "board", "card", "move", "WEB-1"])
      expect(process.exitCode).toBe(2)
      await main(["node", "board", "card", "--frobnicate"])
      expect(process.exitCode).toBe(2)
      await main(["node", "board", "card", "move", "--help"])
      expect(process.exitCode).toBe(0)
    } finally {
      process.stderr.write = write
      process.stdout.write = stdoutWrite
      process.exitCode = 0
    }
  })
})
