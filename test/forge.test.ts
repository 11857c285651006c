/**
 * Issue 31, from card to shipped change (CONTRACT.md): a GitHub repository connected to a
 * project; GitHub's own example payloads (`@octokit/webhooks-examples`, signed with
 * `@octokit/webhooks-methods`), edited only to name this test's cards, commits and states, drive
 * the flow over real HTTP: an opened pull request moves its card to In Progress, a review asking
 * for changes and failed checks reach the agent's session as `feedback`, a merge with "Fixes"
 * moves it to Done by GitHub, and a deployment ships it. On each database.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { githubExample, sendGithub } from "./support/forge.ts"
import { runBoard, tempConfigHome } from "./support/cli.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { tmpDirs } from "./support/tmp.ts"

const REPO = "Codertocat/Hello-World" // the examples' repository
const HEAD = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
const tmp = tmpDirs("forge-git-")

/** A real git repository: a first commit (already deployed) and the pull request's merge commit. */
const gitRepository = () => {
  const dir = tmp()
  const git = (...args: Array<string>) =>
    execFileSync("git", ["-C", dir, ...args], {
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "T",
        GIT_AUTHOR_EMAIL: "t@example.com",
        GIT_COMMITTER_NAME: "T",
        GIT_COMMITTER_EMAIL: "t@example.com"
      }
    }).trim()
  git("init", "-q", "-b", "main")
  fs.writeFileSync(path.join(dir, "a.txt"), "one\n")
  git("add", ".")
  git("commit", "-q", "-m", "First")
  const first = git("rev-parse", "HEAD")
  fs.writeFileSync(path.join(dir, "a.txt"), "two\n")
  git("commit", "-q", "-am", "Merge pull request #7")
  return { dir, first, merge: git("rev-parse", "HEAD") }
}
const repoDir = gitRepository()
const MERGE = repoDir.merge

describe.each(backends)("forge flow on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account
  let h: Record<string, string>
  let repo: { id: string; webhookSecret: string; webhookUrl: string }
  const cards: Record<string, { id: string; ref: string }> = {}
  let sessionId: string

  const column = (kind: string) => A.columns[["todo", "in_progress", "done"].indexOf(kind)]!.id
  const card = async (id: string) => (await call(base, "GET", `/v1/cards/${id}`, { headers: h })).body
  const prs = async (id: string) => (await call(base, "GET", `/v1/cards/${id}/pull-requests`, { headers: h })).body
  /** The card's compact mark as the card read and the board (its own SQL) both give it. */
  const mark = async (id: string) => {
    const board = await call(base, "GET", `/v1/board/${A.projectId}`, { headers: h })
    const onBoard = board.body.cards.find((c: any) => c.id === id).pullRequestMark
    expect((await card(id)).pullRequestMark).toBe(onBoard)
    return onBoard
  }
  const historyOf = async (id: string) =>
    (await call(base, "GET", `/v1/cards/${id}/history`, { headers: h })).body.events as Array<any>
  const send = (event: string, payload: unknown, options?: { delivery?: string; signature?: string | null }) =>
    sendGithub(base, repo.id, repo.webhookSecret, event, payload, options)

  /** GitHub's `pull_request` example with `action`, edited to be pull request 7 naming our cards. */
  const pullRequest = (action: string, edit: (pr: any) => void = () => {}) => {
    const p = githubExample("pull_request", (e) => e.action === action)
    p.number = 7
    Object.assign(p.pull_request, {
      number: 7,
      title: "Handle empty passwords",
      body: `Fixes ${cards.login!.ref}; see ${cards.docs!.ref} for the copy.`,
      draft: false
    })
    p.pull_request.head.ref = `${cards.login!.ref.toLowerCase()}-empty-passwords`
    p.pull_request.head.sha = HEAD
    p.unknown_field_from_the_future = { nested: [1, { deeper: true }] }
    edit(p.pull_request)
    return p
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    A = await bootstrap(base, "forge")
    h = key(A.apiKey)
    for (const [name, title] of [
      ["login", "Fix login"],
      ["docs", "Login copy"]
    ] as const) {
      const r = await call(base, "POST", "/v1/cards", {
        body: { projectId: A.projectId, columnId: column("todo"), title },
        headers: h
      })
      cards[name] = { id: r.body.id, ref: r.body.ref }
    }
  }, 120_000)
  afterAll(() => server?.stop())

  it("connects a repository: the secret is shown once, the list has none", async () => {
    const r = await call(base, "POST", `/v1/projects/${A.projectId}/repositories`, {
      body: { provider: "github", name: REPO },
      headers: h
    })
    expect(r.status, r.text).toBe(201)
    expect(r.body.webhookSecret).toMatch(/^whsec_/)
    expect(r.body.webhookUrl).toBe(`${server.config.publicUrl}/api/v1/forge-hooks/${r.body.id}`)
    repo = r.body
    const list = await call(base, "GET", `/v1/projects/${A.projectId}/repositories`, { headers: h })
    expect(list.status).toBe(200)
    expect(list.body).toEqual([{ ...r.body, webhookSecret: undefined }].map(({ webhookSecret: _, ...rest }) => rest))
    const again = await call(base, "POST", `/v1/projects/${A.projectId}/repositories`, {
      body: { provider: "github", name: REPO.toLowerCase() },
      headers: h
    })
    expect(again.status).toBe(409)
    const bad = await call(base, "POST", `/v1/projects/${A.projectId}/repositories`, {
      body: { provider: "bitbucket", name: "a/b" },
      headers: h
    })
    expect(bad.status).toBe(400)
  })

  it("an agent claims the card it will work", async () => {
    const r = await call(base, "POST", `/v1/cards/${cards.login!.id}/claim`, { body: {}, headers: h })
    expect(r.status, r.text).toBe(201)
    sessionId = r.body.id
  })

  it("an opened pull request links the cards it names and moves the one its branch names to In Progress", async () => {
    const r = await send("pull_request", pullRequest("opened"))
    expect(r.status, r.text).toBe(202)
    expect(r.body).toEqual({ ok: true })
    const login = await card(cards.login!.id)
    expect(login.columnId).toBe(column("in_progress"))
    // a bare mention in the body only links
    expect((await card(cards.docs!.id)).columnId).toBe(column("todo"))
    const [pr] = await prs(cards.login!.id)
    expect(pr).toMatchObject({
      repositoryId: repo.id,
      provider: "github",
      number: 7,
      title: "Handle empty passwords",
      branch: `${cards.login!.ref.toLowerCase()}-empty-passwords`,
      state: "open",
      closes: true,
      checks: null,
      review: null,
      mergeCommitSha: null,
      mergedAt: null
    })
    expect(pr.url).toMatch(/^https:\/\/github\.com\//)
    expect((await prs(cards.docs!.id))[0]).toMatchObject({ number: 7, closes: false })
    const history = await call(base, "GET", `/v1/cards/${cards.login!.id}/history`, { headers: h })
    const types = history.body.events.map((e: any) => e.type)
    expect(types).toContain("card.pull_request_linked")
    const moved = history.body.events.find((e: any) => e.type === "card.moved")
    expect(moved.actor).toEqual({ type: "system", name: "github" })
    // an ordinary move that names its cause: the pull request and what it did
    expect(moved.data.cause).toEqual({ repository: REPO, number: 7, action: "opened" })
    expect(moved.data.previous).toEqual({ columnId: column("todo"), position: 0 })
    const linked = history.body.events.find((e: any) => e.type === "card.pull_request_linked")
    expect(linked.data.object).toMatchObject({
      ref: cards.login!.ref,
      repository: REPO,
      pullRequest: { number: 7 },
      pullRequestMark: "open"
    })
    // the board card's compact mark: both cards name an open pull request
    expect(await mark(cards.login!.id)).toBe("open")
    expect(await mark(cards.docs!.id)).toBe("open")
  })

  it("a review asking for changes adds feedback to the agent's session", async () => {
    const p = githubExample("pull_request_review", (e) => e.action === "submitted")
    p.review.state = "changes_requested"
    p.review.body = "Please reject blank passwords too."
    p.pull_request = pullRequest("opened").pull_request
    const r = await send("pull_request_review", p)
    expect(r.status, r.text).toBe(202)
    expect((await prs(cards.login!.id))[0].review).toBe("changes_requested")
    const session = await call(base, "GET", `/v1/agent-sessions/${sessionId}`, { headers: h })
    const feedback = session.body.activities.filter((a: any) => a.type === "feedback")
    expect(feedback).toHaveLength(1)
    expect(feedback[0].body).toContain("Please reject blank passwords too.")
    expect(feedback[0].body).toContain(`${REPO}#7`)
  })

  it("failed checks reach the agent with their names; green checks follow", async () => {
    const failed = githubExample("check_run", (e) => e.check_run.conclusion === "failure")
    failed.check_run.head_sha = HEAD
    failed.check_run.name = "unit tests"
    expect((await send("check_run", failed)).status).toBe(202)
    expect((await prs(cards.login!.id))[0].checks).toBe("failure")
    const session = await call(base, "GET", `/v1/agent-sessions/${sessionId}`, { headers: h })
    const feedback = session.body.activities.filter((a: any) => a.type === "feedback")
    expect(feedback).toHaveLength(2)
    expect(feedback.at(-1).body).toContain("unit tests")
    expect(await mark(cards.login!.id)).toBe("checks_failing")
    const failing = (await historyOf(cards.login!.id)).find(
      (e) => e.type === "card.pull_request_updated" && e.data.previous.checks !== undefined
    )
    expect(failing.data.object.pullRequestMark).toBe("checks_failing")

    const green = githubExample("check_run", (e) => e.check_run.conclusion === "success")
    green.check_run.head_sha = HEAD
    green.check_run.name = "unit tests"
    expect((await send("check_run", green)).status).toBe(202)
    const suite = githubExample("check_suite", (e) => e.check_suite.conclusion === "success")
    suite.check_suite.head_sha = HEAD
    expect((await send("check_suite", suite)).status).toBe(202)
    const status = githubExample("status")
    status.sha = HEAD
    expect((await send("status", status)).status).toBe(202)
    expect((await prs(cards.login!.id))[0].checks).toBe("success")
    const queued = githubExample("check_suite", (e) => e.action === "requested")
    queued.check_suite.head_sha = HEAD
    expect((await send("check_suite", queued)).status).toBe(202)
    expect((await prs(cards.login!.id))[0].checks).toBe("pending")
    queued.check_suite.status = "completed"
    queued.check_suite.conclusion = "success"
    expect((await send("check_suite", queued)).status).toBe(202)
    expect((await prs(cards.login!.id))[0].checks).toBe("success")
    expect(await mark(cards.login!.id)).toBe("open")
  })

  it("with no live session, feedback goes to the card's latest one, which stays as it ended (a runner's --follow-up reads it)", async () => {
    const released = await call(base, "POST", `/v1/agent-sessions/${sessionId}/release`, { body: {}, headers: h })
    expect(released.status, released.text).toBe(200)
    const failed = githubExample("check_run", (e) => e.check_run.conclusion === "failure")
    failed.check_run.head_sha = HEAD
    failed.check_run.name = "lint"
    expect((await send("check_run", failed)).status).toBe(202)
    const session = await call(base, "GET", `/v1/agent-sessions/${sessionId}`, { headers: h })
    expect(session.body.status).toBe(released.body.status)
    expect(session.body.activities.filter((a: any) => a.type === "feedback").at(-1).body).toContain("lint")
    // the check passes again (what the later steps read)
    const green = githubExample("check_run", (e) => e.check_run.conclusion === "success")
    green.check_run.head_sha = HEAD
    green.check_run.name = "lint"
    expect((await send("check_run", green)).status).toBe(202)
    expect((await prs(cards.login!.id))[0].checks).toBe("success")
  })

  it("a merge with Fixes moves the card to Done by GitHub; the bare mention stays", async () => {
    const p = pullRequest("closed", (pr) => {
      pr.merged = true
      pr.merged_at = "2026-05-01T12:00:00Z"
      pr.merge_commit_sha = MERGE
      pr.state = "closed"
    })
    expect((await send("pull_request", p)).status).toBe(202)
    expect((await card(cards.login!.id)).columnId).toBe(column("done"))
    expect((await card(cards.docs!.id)).columnId).toBe(column("todo"))
    expect(await mark(cards.login!.id)).toBe("merged")
    expect(await mark(cards.docs!.id)).toBe("merged")
    const done = (await historyOf(cards.login!.id)).find(
      (e) => e.type === "card.moved" && e.data.object.columnId === column("done")
    )
    expect(done.actor).toEqual({ type: "system", name: "github" })
    expect(done.data.cause).toEqual({ repository: REPO, number: 7, action: "merged" })
    expect(done.data.previous.columnId).toBe(column("in_progress"))
    expect((await prs(cards.login!.id))[0]).toMatchObject({
      state: "merged",
      mergeCommitSha: MERGE,
      mergedAt: "2026-05-01T12:00:00.000Z"
    })
    // a late "opened" delivery neither reopens it nor moves the card back
    expect((await send("pull_request", pullRequest("opened"))).status).toBe(202)
    expect((await prs(cards.login!.id))[0].state).toBe("merged")
    expect((await card(cards.login!.id)).columnId).toBe(column("done"))
  })

  it("board ship, against a real git repository, ships the cards linked to the merged pull request", async () => {
    const run = await runBoard(
      [
        "ship",
        "--env",
        "production",
        "--range",
        `${repoDir.first}..HEAD`,
        "--dir",
        repoDir.dir,
        "--project",
        A.projectId,
        "--json"
      ],
      { env: { XDG_CONFIG_HOME: tempConfigHome(), BOARD_API_URL: base, BOARD_API_KEY: A.apiKey } }
    )
    expect(run.code, run.stderr).toBe(0)
    const deployment = JSON.parse(run.stdout)
    expect(deployment.environment).toBe("production")
    // every card the pull request names is linked to it, the bare mention too
    expect([...deployment.shippedCardIds].sort()).toEqual([cards.login!.id, cards.docs!.id].sort())
    const shipped = await card(cards.login!.id)
    expect(shipped.shippedTo).toBe("production")
    expect(shipped.shippedAt).toEqual(expect.any(String))
    // board card show lists the pull requests and the shipped state
    const show = await runBoard(["card", "show", cards.login!.ref, "--project", A.projectId], {
      env: { XDG_CONFIG_HOME: tempConfigHome(), BOARD_API_URL: base, BOARD_API_KEY: A.apiKey, NO_COLOR: "1" }
    })
    expect(show.code, show.stderr).toBe(0)
    expect(show.stdout).toContain("Pull requests")
    expect(show.stdout).toMatch(/#7 Handle empty passwords {2}merged · checks success · changes requested · closes/)
    expect(show.stdout).toContain("to production")
    // shipped to the same environment again: nothing changes
    const again = await call(base, "POST", `/v1/projects/${A.projectId}/deployments`, {
      body: { environment: "production", commits: [MERGE] },
      headers: h
    })
    expect(again.body.shippedCardIds).toEqual([])
    expect((await card(cards.login!.id)).shippedAt).toBe(shipped.shippedAt)
    const history = await call(base, "GET", `/v1/cards/${cards.login!.id}/history`, { headers: h })
    expect(history.body.events.map((e: any) => e.type)).toContain("card.shipped")
    const board = await call(base, "GET", `/v1/board/${A.projectId}`, { headers: h })
    expect(board.body.cards.find((c: any) => c.id === cards.login!.id).shippedTo).toBe("production")
  })

  it("a pushed commit links its card, and a GitHub deployment_status ships it", async () => {
    const push = githubExample("push", (e) => e.commits.length === 1)
    push.commits[0].id = "2222222222222222222222222222222222222222"
    push.commits[0].message = `Reword the login copy (${cards.docs!.ref})\n\nThe long story.`
    expect((await send("push", push)).status).toBe(202)
    // the link is one event, by GitHub, with the commit
    const linkedOf = async () => (await historyOf(cards.docs!.id)).filter((e) => e.type === "card.commit_linked")
    const [linked, ...more] = await linkedOf()
    expect(more).toEqual([])
    expect(linked.actor).toEqual({ type: "system", name: "github" })
    expect(linked.data.object).toEqual({
      cardId: cards.docs!.id,
      ref: cards.docs!.ref,
      repository: REPO,
      commit: {
        sha: "2222222222222222222222222222222222222222",
        message: `Reword the login copy (${cards.docs!.ref})`,
        url: push.commits[0].url,
        closes: false
      }
    })
    const events = await call(base, "GET", `/v1/projects/${A.projectId}/events?types=card.commit_linked`, {
      headers: h
    })
    expect(events.status, events.text).toBe(200)
    expect(events.body.events.map((e: any) => e.data.object.commit.sha)).toEqual([
      "2222222222222222222222222222222222222222"
    ])
    // the same commit pushed again (another branch, a new delivery): linked already, no event
    expect((await send("push", push)).status).toBe(202)
    expect(await linkedOf()).toHaveLength(1)
    const deployed = githubExample("deployment_status", (e) => e.deployment_status.state === "success")
    deployed.deployment.sha = "2222222222222222222222222222222222222222"
    deployed.deployment_status.environment = "staging"
    expect((await send("deployment_status", deployed)).status).toBe(202)
    expect((await card(cards.docs!.id)).shippedTo).toBe("staging")
    const pending = githubExample("deployment_status", (e) => e.deployment_status.state !== "success")
    expect((await send("deployment_status", pending)).status).toBe(202)
  })
  it("removing the repository drops its links, and the cards' marks with them", async () => {
    expect(await mark(cards.login!.id)).toBe("merged")
    const r = await call(base, "DELETE", `/v1/repositories/${repo.id}`, { headers: h })
    expect(r.status, r.text).toBe(204)
    expect(await prs(cards.login!.id)).toEqual([])
    expect(await mark(cards.login!.id)).toBe(null)
    expect(await mark(cards.docs!.id)).toBe(null)
  })
})
