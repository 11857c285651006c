/** Issue 8: the CLI's pure parts: API URLs, the config file, the drawn board, failures. */
import { NotFound, TooManyRequests, Unauthorized } from "@board/http"
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { renderColumns, renderStacked, wrap } from "../packages/cli/src/support/boardView.ts"
import { configPath, readConfig, writeConfig } from "../packages/cli/src/support/config.ts"
import { actorLabel, eventLine, memberLabel } from "../packages/cli/src/support/events.ts"
import { describeFailure } from "../packages/cli/src/support/failure.ts"
import { expiryOf } from "../packages/cli/src/commands/intake-token/create.ts"
import { colors, noColors, useColor, visibleLength } from "../packages/cli/src/support/output.ts"
import { normalizeApiUrl } from "../packages/cli/src/support/settings.ts"
import type { BoardView } from "../packages/cli/src/support/types.ts"
import { Board } from "../packages/core/src/contract.ts"

describe("API URL", () => {
  it.each([
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/api", "http://127.0.0.1:8080"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080/api", "http://127.0.0.1:8080"],
    ["http://127.0.0.1:8080/api", "http://127.0.0.1:8080/api", "http://127.0.0.1:8080"],
    ["https://board.example.com/api/", "https://board.example.com/api", "https://board.example.com"],
    ["https://example.com/board/api", "https://example.com/board/api", "https://example.com/board"]
  ])("%s is the API root %s", (raw, apiUrl, origin) => {
    expect(normalizeApiUrl(raw)).toEqual({ apiUrl, origin })
  })

  it.each(["127.0.0.1:8080", "ftp://x/api", "not a url"])("%s is a usage error (exit 2)", (raw) => {
    expect(() => normalizeApiUrl(raw)).toThrow(expect.objectContaining({ code: 2 }))
  })
})

describe("config file", () => {
  it("lives under XDG_CONFIG_HOME when it is absolute, else ~/.config", () => {
    expect(configPath({ XDG_CONFIG_HOME: "/x/conf", HOME: "/home/a" })).toBe("/x/conf/board/config.json")
    expect(configPath({ XDG_CONFIG_HOME: "relative", HOME: "/home/a" })).toBe("/home/a/.config/board/config.json")
    expect(configPath({ HOME: "/home/a" })).toBe("/home/a/.config/board/config.json")
  })

  it("is written with mode 0600 whatever the umask and the old file's mode, and read back", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "board-config-"))
    const file = path.join(dir, "board", "config.json")
    const umask = process.umask(0)
    try {
      fs.mkdirSync(path.dirname(file))
      fs.writeFileSync(file, "{}", { mode: 0o666 })
      writeConfig(file, { apiUrl: "http://h/api", apiKey: "svc_1" })
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(readConfig(file)).toEqual({ apiUrl: "http://h/api", apiKey: "svc_1" })
      expect(fs.readdirSync(path.dirname(file))).toEqual(["config.json"])
    } finally {
      process.umask(umask)
      fs.rmSync(dir, { recursive: true })
    }
  })

  it("an absent file is empty; a broken one is an error naming it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "board-config-"))
    expect(readConfig(path.join(dir, "none.json"))).toEqual({})
    fs.writeFileSync(path.join(dir, "bad.json"), "{not json")
    expect(() => readConfig(path.join(dir, "bad.json"))).toThrow(/bad\.json is not valid JSON/)
    fs.writeFileSync(path.join(dir, "odd.json"), JSON.stringify({ apiKey: 7, apiUrl: "http://h/api", extra: true }))
    expect(readConfig(path.join(dir, "odd.json"))).toEqual({ apiUrl: "http://h/api" })
    fs.rmSync(dir, { recursive: true })
  })
})

const ts = "2026-01-01T00:00:00.000Z"
const card = (
  ref: string,
  columnId: string,
  position: number,
  title: string,
  extra: Partial<(typeof Board.Encoded)["cards"][number]> = {}
) => ({
  id: `id-${ref}`,
  projectId: "p",
  columnId,
  position,
  ref,
  title,
  description: null,
  priority: "medium" as const,
  labels: [],
  subtasks: [],
  assigneeIds: [],
  dueAt: null,
  source: "api",
  intakeTokenId: null,
  createdAt: ts,
  updatedAt: ts,
  archivedAt: null,
  claim: null,
  shippedAt: null,
  shippedTo: null,
  pullRequestMark: null,
  ...extra
})
// the wire form, decoded as the client decodes it (which brands the ids)
const board: BoardView = Schema.decodeSync(Board)({
  project: {
    id: "p",
    workspaceId: "w",
    name: "Website",
    refPrefix: "WEB",
    archivedAt: null,
    automation: { pullRequestOpened: true, pullRequestMerged: true },
    createdAt: ts,
    updatedAt: ts
  },
  columns: (
    [
      ["To Do", "todo"],
      ["In Progress", "in_progress"],
      ["Done", "done"]
    ] as const
  ).map(([name, kind], i) => ({
    id: `c${i}`,
    projectId: "p",
    name,
    position: i,
    kind,
    createdAt: ts,
    updatedAt: ts
  })),
  cards: [
    card("WEB-2", "c0", 1, "A title long enough that it has to wrap over more than one line in a narrow column", {
      priority: "urgent"
    }),
    card("WEB-1", "c0", 0, "Fix login", {
      labels: [{ id: "l", projectId: "p", name: "bug", color: null, createdAt: ts, updatedAt: ts }],
      subtasks: [
        { id: "s", cardId: "id-WEB-1", title: "t", completed: true, position: 0, createdAt: ts, updatedAt: ts }
      ]
    }),
    card("WEB-3", "c2", 0, "Ship it")
  ],
  labels: [],
  eventCursor: "0".repeat(24)
})

describe("the board in a terminal", () => {
  it("wraps words to a width, cutting words longer than a line", () => {
    expect(wrap("the quick brown fox", 9)).toEqual(["the quick", "brown fox"])
    expect(wrap("abcdefghij k", 4)).toEqual(["abcd", "efgh", "ij k"])
  })

  it.each([60, 80, 120, 200])("draws the columns side by side within %i columns, cards in position order", (width) => {
    for (const style of [noColors, colors]) {
      const text = renderColumns(board, width, style)
      for (const line of text.split("\n")) expect(visibleLength(line)).toBeLessThanOrEqual(width)
      const plain = text.replace(/\u001b\[[0-9;]*m/g, "")
      const header = plain.split("\n").find((l) => l.includes("To Do"))!
      expect(header).toMatch(/To Do \(2\)\s+│ In Progress \(0\)\s+│ Done \(1\)/)
      // each column's kind on the line under its name
      const kinds = plain.split("\n")[plain.split("\n").indexOf(header) + 1]!
      expect(kinds).toMatch(/^todo\s+│ in_progress\s+│ done$/)
      expect(plain.indexOf("WEB-1")).toBeLessThan(plain.indexOf("WEB-2"))
      expect(plain).toContain("#bug")
      expect(plain).toContain("urgent")
    }
  })

  it("stacks the columns when the terminal is too narrow, and on a pipe", () => {
    const narrow = renderColumns(board, 40)
    expect(narrow).toBe(renderStacked(board))
    expect(narrow.split("\n")).toEqual([
      "Website (WEB)",
      "",
      "To Do (2) · todo",
      "  WEB-1  Fix login  #bug",
      "  WEB-2  A title long enough that it has to wrap over more than one line in a narrow column  urgent",
      "",
      "In Progress (0) · in_progress",
      "",
      "Done (1) · done",
      "  WEB-3  Ship it"
    ])
  })

  it("colours only a terminal without NO_COLOR", () => {
    expect(useColor({ isTTY: true }, {})).toBe(true)
    expect(useColor({ isTTY: true }, { NO_COLOR: "1" })).toBe(false)
    expect(useColor({ isTTY: false }, {})).toBe(false)
    expect(useColor({}, {})).toBe(false)
  })
})

describe("failures", () => {
  const ctx = { apiUrl: "http://h/api", retryAfter: () => "30", onUnauthorized: "sign in with `board auth login`" }
  const run = (e: unknown) => Effect.runPromise(describeFailure(e, ctx))

  it("a 401 exits 4 with the server's message and how to sign in", async () => {
    expect(await run(new Unauthorized({ error: "invalid API key" }))).toMatchObject({
      code: 4,
      message: "invalid API key\nsign in with `board auth login`"
    })
  })

  it("a 429 says when to retry, from Retry-After unless the message does", async () => {
    expect((await run(new TooManyRequests({ error: "slow down" }))).message).toBe("slow down; try again in 30 seconds")
    expect((await run(new TooManyRequests({ error: "rate limit exceeded; retry in 12s" }))).message).toBe(
      "rate limit exceeded; retry in 12s"
    )
  })

  it("other statuses exit 1 with the server's message; a bad value names its field", async () => {
    expect(await run(new NotFound({ error: "card x not found" }))).toMatchObject({
      code: 1,
      message: "card x not found"
    })
    const schemaError = await Effect.runPromise(
      Effect.flip(
        Schema.decodeUnknownEffect(
          Schema.Struct({ title: Schema.String.check(Schema.isMinLength(1, { message: "must not be empty" })) })
        )({ title: "" })
      )
    )
    expect(await run(schemaError)).toMatchObject({ code: 1, message: "title: must not be empty" })
  })
})

describe("intake token expiry", () => {
  const now = Date.parse("2026-03-01T00:00:00Z")
  it.each([
    ["30d", "2026-03-31T00:00:00.000Z"],
    ["2027-12-31", "2027-12-31T00:00:00Z"],
    ["2027-12-31T12:00:00Z", "2027-12-31T12:00:00Z"],
    ["tomorrow", undefined],
    ["2027-13-45", undefined]
  ])("%s → %s", (value, expected) => expect(expiryOf(value, now)).toBe(expected))
})

describe("actors on the terminal (issue 28)", () => {
  const ada = "00000000-0000-4000-8000-00000000000a"
  it("marks an agent, with the person it acts for when the members are known; a person is a name", () => {
    expect(actorLabel({ type: "agent", userId: ada, name: "alice" } as any)).toBe("alice [agent]")
    expect(actorLabel({ type: "agent", userId: ada, name: "alice" } as any, new Map([[ada, "Ada"]]))).toBe(
      "alice [agent for Ada]"
    )
    expect(actorLabel({ type: "agent", userId: ada } as any)).toBe("an agent [agent]")
    // an agent member (issue 30): its own id, acting for its creator
    const bot = "00000000-0000-4000-8000-0000000000b0"
    const both = new Map([
      [ada, "Ada"],
      [bot, "Claude"]
    ])
    expect(actorLabel({ type: "agent", userId: bot, name: "Claude", onBehalfOf: ada } as any, both)).toBe(
      "Claude [agent for Ada]"
    )
    expect(memberLabel({ fullName: "Claude", email: "", kind: "agent" })).toBe("Claude [agent]")
    expect(memberLabel({ fullName: "Ada", email: "ada@example.com", kind: "person" })).toBe("Ada")
    expect(actorLabel({ type: "user", userId: ada, name: "alice" } as any)).toBe("alice")
    const line = eventLine(
      {
        id: "0".repeat(24),
        type: "card.moved",
        createdAt: "2026-11-26T06:00:00.000Z",
        workspaceId: "w",
        projectId: "p",
        actor: { type: "agent", userId: ada, name: "alice" },
        data: { object: { ref: "WEB-3", title: "Fix login" } }
      } as any,
      noColors
    )
    expect(line).toContain("alice [agent]  WEB-3 Fix login")
    // a forge's events name the pull request or commit, and a move its cause (issue 31)
    const forge = (type: string, data: unknown) =>
      eventLine(
        {
          id: "0".repeat(24),
          type,
          createdAt: "2026-11-26T06:00:00.000Z",
          workspaceId: "w",
          projectId: "p",
          actor: { type: "system", name: "github" },
          data
        } as any,
        noColors
      )
    expect(
      forge("card.moved", {
        object: { ref: "WEB-3", title: "Fix login" },
        cause: { repository: "acme/web", number: 42, action: "merged" }
      })
    ).toContain("github  WEB-3 Fix login (acme/web#42 merged)")
    expect(
      forge("card.pull_request_linked", {
        object: { cardId: "c", ref: "WEB-3", repository: "acme/web", pullRequest: { number: 42, state: "open" } }
      })
    ).toContain("github  WEB-3 acme/web#42 open")
    expect(
      forge("card.commit_linked", {
        object: { cardId: "c", ref: "WEB-3", repository: "acme/web", commit: { sha: "2222222abc", message: "Fix it" } }
      })
    ).toContain("github  WEB-3 acme/web@2222222 Fix it")
  })
})
