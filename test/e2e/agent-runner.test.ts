import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Account, bearer, bootstrap, call, key } from "../support/client.ts"
import { eventually, waitFor } from "../support/poll.ts"
import { freePort } from "../support/server.ts"
import { embeddedEnv, type Spawned, spawnBoard, waitForHealth } from "../support/spawn.ts"
import { git, gitEnv, makeRepo as makeGitRepo } from "../support/gitRepo.ts"
import { migratedDataDir } from "../support/templates.ts"
import { tmpDirs } from "../support/tmp.ts"

const tmpDir = tmpDirs("board-runner-")
const spawned: Array<Spawned> = []
let base: string

beforeAll(async () => {
  const port = await freePort()
  // a migrated copy (templates.ts): this file is about the runner, not a first start
  const server = spawnBoard(
    ["serve"],
    embeddedEnv({
      DATA_DIR: migratedDataDir(tmpDir()),
      PORT: String(port),
      RATE_LIMIT: "1000000/60s",
      LOG_LEVEL: "error"
    })
  )
  spawned.push(server)
  base = `http://127.0.0.1:${port}/api`
  await waitForHealth(base, 60_000)
}, 90_000)
afterAll(async () => {
  for (const p of spawned) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL")
})

const makeRepo = () => makeGitRepo(tmpDir())

/** A script file standing in for the agent; the runner runs `sh <file>`. */
const agentScript = (body: string) => {
  const file = path.join(tmpDir(), "agent.sh")
  fs.writeFileSync(file, `set -e\n${body}\n`)
  return `sh ${file}`
}

const startRunner = (a: Account, repo: string, command: string, extra: Array<string> = []) => {
  const runner = spawnBoard(
    [
      "agent",
      "run",
      "--project",
      a.projectId,
      "--repo",
      repo,
      "--command",
      command,
      "--lease",
      "30",
      "--poll",
      "300ms",
      ...extra
    ],
    { ...gitEnv, BOARD_API_URL: base, BOARD_API_KEY: a.apiKey, XDG_CONFIG_HOME: tmpDir(), BOARD_TIMEOUT: undefined }
  )
  spawned.push(runner)
  return runner
}

const stopRunner = async (runner: Spawned) => {
  runner.child.kill("SIGTERM")
  const { code } = await runner.exited
  expect(code, runner.output()).toBe(0)
  // one JSON line per action
  for (const line of runner.output().trim().split("\n")) expect(() => JSON.parse(line), line).not.toThrow()
}

const createCard = async (a: Account, title: string, priority = "medium") =>
  (
    await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title, priority },
      headers: key(a.apiKey)
    })
  ).body as { id: string; ref: string }

const getCard = async (a: Account, id: string) =>
  (await call(base, "GET", `/v1/cards/${id}`, { headers: key(a.apiKey) })).body
const sessionsOf = async (a: Account, cardId: string) =>
  (await call(base, "GET", `/v1/cards/${cardId}/agent-sessions`, { headers: key(a.apiKey) })).body as Array<any>
const detail = async (a: Account, sessionId: string) =>
  (await call(base, "GET", `/v1/agent-sessions/${sessionId}?limit=500`, { headers: key(a.apiKey) })).body
const column = (a: Account, name: string) => a.columns.find((c) => c.name === name)!.id
const onOrigin = (origin: string, ref: string) => {
  try {
    return git(origin, "rev-parse", "--verify", "--quiet", ref)
  } catch {
    return undefined
  }
}

describe("board agent run", { timeout: 120_000 }, () => {
  it("exit 0 with a change: branch pushed with the commit, card in In Progress, activities read back, the key never echoed", async () => {
    const a = await bootstrap(base, "runner-ok")
    const repo = makeRepo()
    const card = await createCard(a, "Add a changelog")
    const runner = startRunner(
      a,
      repo.work,
      agentScript(`echo "thinking about $BOARD_CARD_REF"
echo "my key is $BOARD_API_KEY"
echo "working" >&2
cat > prompt.txt
echo "entry" > CHANGELOG.md`)
    )
    const done = await waitFor(
      "the card in In Progress, free",
      async () => {
        const c = await getCard(a, card.id)
        return c.columnId === column(a, "In Progress") && c.claim === null ? c : undefined
      },
      { timeoutMs: 60_000, intervalMs: 200 }
    )
    expect(done.ref).toBe(card.ref)
    const branch = `${card.ref.toLowerCase()}-add-a-changelog`
    const sha = onOrigin(repo.origin, `refs/heads/${branch}`)
    expect(sha, runner.output()).toBeDefined()
    expect(git(repo.origin, "log", "-1", "--format=%s", branch)).toBe(
      `${card.ref}: changes left uncommitted by the agent`
    )
    expect(git(repo.origin, "show", `${branch}:CHANGELOG.md`)).toBe("entry")
    // the prompt reached standard input: the card's execute prompt names its title
    expect(git(repo.origin, "show", `${branch}:prompt.txt`)).toContain("Add a changelog")
    const [session] = await sessionsOf(a, card.id)
    expect(session.status).toBe("complete")
    const acts = (await detail(a, session.id)).activities as Array<{ type: string; body: string }>
    const types = new Set(acts.map((x) => x.type))
    expect([...types]).toEqual(expect.arrayContaining(["action", "thought", "response"]))
    expect(acts.find((x) => x.type === "thought")!.body).toContain(`thinking about ${card.ref}`)
    expect(acts.find((x) => x.type === "response")!.body).toContain(branch)
    expect(acts.some((x) => x.body.includes("my key is [redacted]"))).toBe(true)
    expect(JSON.stringify(acts)).not.toContain(a.apiKey)
    expect(runner.output()).not.toContain(a.apiKey)
    // batched: a handful of activities for the lines, not one per line
    expect(acts.length).toBeLessThan(8)
    await stopRunner(runner)
    // the worktree is gone, the repository clean
    expect(git(repo.work, "status", "--porcelain")).toBe("")
  })

  it("exit 1: an error activity with the last lines, the branch kept, the card back in To Do and not taken again", async () => {
    const a = await bootstrap(base, "runner-fail")
    const repo = makeRepo()
    const card = await createCard(a, "Break things")
    const runner = startRunner(
      a,
      repo.work,
      agentScript(`echo "half done" > half.txt\necho "boom: tests failed"\nexit 1`)
    )
    const session = await waitFor(
      "a released session",
      async () => (await sessionsOf(a, card.id)).find((s) => s.status === "released"),
      { timeoutMs: 60_000, intervalMs: 200 }
    )
    const acts = (await detail(a, session.id)).activities as Array<{ type: string; body: string }>
    const error = acts.find((x) => x.type === "error")!
    expect(error.body).toContain("exit 1")
    expect(error.body).toContain("boom: tests failed")
    const c = await getCard(a, card.id)
    expect(c.columnId).toBe(column(a, "To Do"))
    expect(c.claim).toBeNull()
    const branch = `${card.ref.toLowerCase()}-break-things`
    expect(git(repo.work, "rev-parse", "--verify", `refs/heads/${branch}`)).toMatch(/^[0-9a-f]{40}$/)
    expect(onOrigin(repo.origin, `refs/heads/${branch}`)).toBeUndefined()
    // a few polls later the failed card was not claimed again
    await new Promise((r) => setTimeout(r, 1500))
    expect(await sessionsOf(a, card.id)).toHaveLength(1)
    await stopRunner(runner)
  })

  it("--timeout: a command past its limit is stopped, an error activity says so, the card goes back", async () => {
    const a = await bootstrap(base, "runner-slow")
    const repo = makeRepo()
    const card = await createCard(a, "Never ends")
    const runner = startRunner(a, repo.work, agentScript("echo starting\nsleep 60"), ["--timeout", "2s"])
    const session = await waitFor(
      "a released session",
      async () => (await sessionsOf(a, card.id)).find((s) => s.status === "released"),
      { timeoutMs: 60_000, intervalMs: 200 }
    )
    const error = ((await detail(a, session.id)).activities as Array<{ type: string; body: string }>).find(
      (x) => x.type === "error"
    )!
    expect(error.body).toContain("stopped after 2 s (--timeout)")
    expect(error.body).toContain("starting")
    expect((await getCard(a, card.id)).columnId).toBe(column(a, "To Do"))
    await stopRunner(runner)
  })

  it("a question: the elicitation appears, a person's comment is the answer the command reads", async () => {
    const a = await bootstrap(base, "runner-ask")
    const repo = makeRepo()
    const card = await createCard(a, "Pick a colour")
    const runner = startRunner(
      a,
      repo.work,
      agentScript(
        `echo "before asking"\nanswer=$(board agent ask "Which colour?")\nprintf '%s\\n' "$answer" > colour.txt`
      )
    )
    const session = await waitFor(
      "the session waiting for input",
      async () => (await sessionsOf(a, card.id)).find((s) => s.status === "awaitingInput"),
      { timeoutMs: 60_000, intervalMs: 200 }
    )
    const acts = (await detail(a, session.id)).activities as Array<{ type: string; body: string }>
    expect(acts.find((x) => x.type === "elicitation")!.body).toBe("Which colour?")
    // still waiting after a few of the runner's flushes and heartbeats
    await new Promise((r) => setTimeout(r, 2500))
    expect((await detail(a, session.id)).status).toBe("awaitingInput")
    // the person answers with a credential of their own, not the runner's key
    const personKey = (
      await call(base, "POST", "/v1/api-keys", { body: { name: "person" }, headers: bearer(a.session) })
    ).body.rawKey as string
    const answered = await call(base, "POST", `/v1/cards/${card.id}/comments`, {
      body: { body: "Teal, please" },
      headers: key(personKey)
    })
    expect(answered.status).toBe(201)
    const branch = `${card.ref.toLowerCase()}-pick-a-colour`
    await eventually(() => expect(onOrigin(repo.origin, `refs/heads/${branch}`)).toBeDefined(), { timeoutMs: 60_000 })
    expect(git(repo.origin, "show", `${branch}:colour.txt`)).toBe("Teal, please")
    await stopRunner(runner)
  })

  it("SIGTERM mid-run: the command stopped, every claim released, exit 0", async () => {
    const a = await bootstrap(base, "runner-term")
    const repo = makeRepo()
    const card = await createCard(a, "Long job")
    const started = path.join(tmpDir(), "started")
    const runner = startRunner(a, repo.work, agentScript(`touch ${started}\nsleep 60`))
    await waitFor("the command to start", () => fs.existsSync(started), { timeoutMs: 60_000, intervalMs: 100 })
    expect((await getCard(a, card.id)).claim).not.toBeNull()
    runner.child.kill("SIGTERM")
    const { code } = await runner.exited
    expect(code, runner.output()).toBe(0)
    const c = await getCard(a, card.id)
    expect(c.claim).toBeNull()
    const live = (
      await call(base, "GET", `/v1/projects/${a.projectId}/agent-sessions?status=active`, { headers: key(a.apiKey) })
    ).body
    expect(live).toEqual([])
    expect((await sessionsOf(a, card.id))[0].status).toBe("released")
  })

  it("two runners on a queue of 20 cards: each card worked exactly once", async () => {
    const a = await bootstrap(base, "runner-fleet")
    const repo = makeRepo()
    const cards = []
    for (let i = 0; i < 20; i++) cards.push(await createCard(a, `Task ${i}`))
    const worked = path.join(tmpDir(), "worked.log")
    const script = agentScript(`echo "$BOARD_CARD_REF" >> ${worked}\necho "$BOARD_CARD_REF" > done.txt`)
    const one = startRunner(a, repo.clone("one"), script, ["--concurrency", "2"])
    const two = startRunner(a, repo.clone("two"), script, ["--concurrency", "2"])
    await waitFor(
      "every card in In Progress",
      async () => {
        const board = (await call(base, "GET", `/v1/board/${a.projectId}`, { headers: key(a.apiKey) })).body
        return board.cards.every((c: any) => c.columnId === column(a, "In Progress") && c.claim === null)
      },
      { timeoutMs: 90_000, intervalMs: 300 }
    )
    await Promise.all([stopRunner(one), stopRunner(two)])
    const refs = fs.readFileSync(worked, "utf8").trim().split("\n")
    expect(refs).toHaveLength(20)
    expect(new Set(refs).size).toBe(20)
    for (const c of cards) {
      const sessions = (await sessionsOf(a, c.id)) as Array<{ status: string }>
      // what each runner logged about this card, to tell a second claim from a second piece of work
      const about = (r: { output: () => string }) =>
        r
          .output()
          .split("\n")
          .filter((l) => l.includes(c.ref) || l.includes(c.id))
          .join("\n")
      const why = `${c.ref}: sessions ${JSON.stringify(sessions)}\nrunner one:\n${about(one)}\nrunner two:\n${about(two)}`
      // exactly one session did the work (complete); a claim handed back without working the card
      // (a runner holding a card it already tried, or a set-up that failed before the command ran)
      // ends released or error, and is no second piece of work: worked.log above counts the work
      expect(sessions.filter((s) => s.status === "complete").length, why).toBe(1)
      expect(
        sessions.filter((s) => s.status !== "complete" && s.status !== "released" && s.status !== "error"),
        why
      ).toEqual([])
    }
    // both runners took part
    expect(one.output()).toContain('"msg":"shipped"')
    expect(two.output()).toContain('"msg":"shipped"')
  })

  it("a title with shell metacharacters and quotes: slugged into the branch, only on stdin, nothing run", async () => {
    const a = await bootstrap(base, "runner-meta")
    const repo = makeRepo()
    const canary = tmpDir()
    const title = `Fix "it" $(touch ${canary}/a); touch ${canary}/b && echo \`touch ${canary}/c\` 'q' | tee ${canary}/d`
    const card = await createCard(a, title)
    const runner = startRunner(a, repo.work, agentScript(`cat > prompt.txt`))
    const branch = await waitFor(
      "a pushed branch",
      () =>
        git(repo.origin, "for-each-ref", "--format=%(refname:short)", "refs/heads/")
          .split("\n")
          .find((b) => b.startsWith(card.ref.toLowerCase())),
      { timeoutMs: 60_000, intervalMs: 200 }
    )
    expect(branch).toMatch(/^[a-z0-9-]+$/)
    expect(branch.startsWith(`${card.ref.toLowerCase()}-fix-it-touch-`)).toBe(true)
    expect(git(repo.origin, "show", `${branch}:prompt.txt`)).toContain(title)
    expect(fs.readdirSync(canary)).toEqual([])
    await stopRunner(runner)
  })

  it("refuses a dirty repository and one without origin", async () => {
    const a = await bootstrap(base, "runner-refuse")
    const repo = makeRepo()
    fs.writeFileSync(path.join(repo.work, "stray.txt"), "x")
    const dirty = startRunner(a, repo.work, "true")
    expect((await dirty.exited).code).toBe(1)
    expect(dirty.output()).toMatch(/uncommitted changes/)
    const lone = tmpDir()
    git(lone, "init", "--quiet")
    const noOrigin = startRunner(a, lone, "true")
    expect((await noOrigin.exited).code).toBe(1)
    expect(noOrigin.output()).toMatch(/no remote named origin/)
  })
})
