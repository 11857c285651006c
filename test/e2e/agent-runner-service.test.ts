import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type Account, bootstrap, call, key } from "../support/client.ts"
import { eventually, waitFor } from "../support/poll.ts"
import { freePort } from "../support/server.ts"
import { embeddedEnv, type Spawned, spawnBoard, waitForHealth } from "../support/spawn.ts"
import { git, gitEnv, makeRepo as makeGitRepo } from "../support/gitRepo.ts"
import { tmpDirs } from "../support/tmp.ts"
import { migratedDataDir } from "../support/templates.ts"

const tmpDir = tmpDirs("board-runner-svc-")
const spawned: Array<Spawned> = []
afterAll(() => {
  for (const p of spawned) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL")
})

const makeRepo = () => makeGitRepo(tmpDir())

const serve = async (dataDir: string, port: number) => {
  const server = spawnBoard(
    ["serve"],
    embeddedEnv({ DATA_DIR: dataDir, PORT: String(port), RATE_LIMIT: "1000000/60s", LOG_LEVEL: "error" })
  )
  spawned.push(server)
  await waitForHealth(`http://127.0.0.1:${port}/api`, 60_000)
  return server
}

const startRunner = (base: string, a: Account, repo: string, script: string, extra: Array<string> = []) => {
  const file = path.join(tmpDir(), "agent.sh")
  fs.writeFileSync(file, `set -e\n${script}\n`)
  const runner = spawnBoard(
    ["agent", "run", "--project", a.projectId, "--repo", repo, "--command", `sh ${file}`, "--poll", "300ms", ...extra],
    { ...gitEnv, BOARD_API_URL: base, BOARD_API_KEY: a.apiKey, XDG_CONFIG_HOME: tmpDir() }
  )
  spawned.push(runner)
  return runner
}

const createCard = async (base: string, a: Account, title: string) =>
  (
    await call(base, "POST", "/v1/cards", {
      body: { projectId: a.projectId, columnId: a.columns[0]!.id, title },
      headers: key(a.apiKey)
    })
  ).body as { id: string; ref: string }

const inProgress = (base: string, a: Account, cardId: string) =>
  waitFor(
    "the card in In Progress, free",
    async () => {
      const c = (await call(base, "GET", `/v1/cards/${cardId}`, { headers: key(a.apiKey) })).body
      return c.columnId === a.columns.find((x) => x.name === "In Progress")!.id && c.claim === null
    },
    { timeoutMs: 60_000, intervalMs: 200 }
  )

describe("board agent run as a service", { timeout: 150_000 }, () => {
  it("survives a server restart mid-run: output kept, card shipped once the server is back", async () => {
    const dataDir = migratedDataDir(tmpDir())
    const port = await freePort()
    const base = `http://127.0.0.1:${port}/api`
    let server = await serve(dataDir, port)
    const a = await bootstrap(base, "runner-restart")
    const repo = makeRepo()
    const card = await createCard(base, a, "Outlive a restart")
    const flags = tmpDir()
    const runner = startRunner(
      base,
      a,
      repo.work,
      `touch ${flags}/started
while [ ! -f ${flags}/go ]; do sleep 0.1; done
echo "written while the server was away"
echo done > result.txt`,
      ["--lease", "120"]
    )
    await waitFor("the command to start", () => fs.existsSync(path.join(flags, "started")), { timeoutMs: 60_000 })
    server.child.kill("SIGTERM")
    expect((await server.exited).code).toBe(0)
    // the command ends while the server is down: push done, the reports wait
    fs.writeFileSync(path.join(flags, "go"), "")
    await waitFor("the runner to notice", () => runner.output().includes("cannot reach the server"), {
      timeoutMs: 30_000
    })
    server = await serve(dataDir, port)
    await inProgress(base, a, card.id)
    const branch = `${card.ref.toLowerCase()}-outlive-a-restart`
    expect(git(repo.origin, "show", `${branch}:result.txt`)).toBe("done")
    const [session] = (await call(base, "GET", `/v1/cards/${card.id}/agent-sessions`, { headers: key(a.apiKey) })).body
    const acts = (await call(base, "GET", `/v1/agent-sessions/${session.id}`, { headers: key(a.apiKey) })).body
      .activities as Array<{ type: string; body: string }>
    expect(acts.some((x) => x.body.includes("written while the server was away"))).toBe(true)
    expect(acts.at(-1)!.type).toBe("response")
    runner.child.kill("SIGTERM")
    expect((await runner.exited).code).toBe(0)
  })

  it("--follow-up: feedback on a shipped card reruns the command on its branch with the feedback in the prompt", async () => {
    const port = await freePort()
    const base = `http://127.0.0.1:${port}/api`
    await serve(migratedDataDir(tmpDir()), port)
    const a = await bootstrap(base, "runner-follow")
    const repo = makeRepo()
    const card = await createCard(base, a, "Polish the page")
    const runner = startRunner(base, a, repo.work, `cat > prompt.txt\necho run >> runs.txt`, [
      "--follow-up",
      "--lease",
      "30"
    ])
    await inProgress(base, a, card.id)
    const branch = `${card.ref.toLowerCase()}-polish-the-page`
    expect(git(repo.origin, "show", `${branch}:runs.txt`)).toBe("run")
    // what the forge integration does on "changes requested": a feedback activity on the card
    const claim = await call(base, "POST", `/v1/cards/${card.id}/claim`, { body: {}, headers: key(a.apiKey) })
    expect(claim.status).toBe(201)
    const fed = await call(base, "POST", `/v1/agent-sessions/${claim.body.id}/activities`, {
      body: { type: "feedback", body: "Changes requested: rename the button to Save" },
      headers: key(a.apiKey)
    })
    expect(fed.status).toBe(201)
    await call(base, "POST", `/v1/agent-sessions/${claim.body.id}/release`, { body: {}, headers: key(a.apiKey) })
    await eventually(() => expect(git(repo.origin, "show", `${branch}:runs.txt`)).toBe("run\nrun"), {
      timeoutMs: 60_000,
      intervalMs: 300
    })
    expect(git(repo.origin, "show", `${branch}:prompt.txt`)).toContain("rename the button to Save")
    expect(runner.output()).toContain("claimed again for feedback")
    runner.child.kill("SIGTERM")
    expect((await runner.exited).code).toBe(0)
  })
})
