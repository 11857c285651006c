/**
 * Issue 31: many forge deliveries at once (pull requests naming the same card, as a busy
 * repository sends them) all apply, and the card moves once: one `card.moved` by the forge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { githubExample, sendGithub } from "./support/forge.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("concurrent forge deliveries on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    A = await bootstrap(base, "busy")
  }, 120_000)
  afterAll(() => server?.stop())

  it("applies 30 pull requests naming one card at once, and moves it once", async () => {
    const h = key(A.apiKey)
    const card = await call(base, "POST", "/v1/cards", {
      body: { projectId: A.projectId, columnId: A.columns[0]!.id, title: "Popular" },
      headers: h
    })
    const repo = await call(base, "POST", `/v1/projects/${A.projectId}/repositories`, {
      body: { provider: "github", name: "Codertocat/Hello-World" },
      headers: h
    })
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const p = githubExample("pull_request", (e) => e.action === "opened")
        p.number = 100 + i
        Object.assign(p.pull_request, { number: 100 + i, title: `Fixes ${card.body.ref}`, body: "", draft: false })
        return sendGithub(base, repo.body.id, repo.body.webhookSecret, "pull_request", p)
      })
    )
    expect(replies.map((r) => r.status)).toEqual(replies.map(() => 202))
    const prs = await call(base, "GET", `/v1/cards/${card.body.id}/pull-requests`, { headers: h })
    expect(prs.body).toHaveLength(30)
    const history = await call(base, "GET", `/v1/cards/${card.body.id}/history`, { headers: h })
    expect(history.body.events.filter((e: any) => e.type === "card.moved")).toHaveLength(1)
    expect((await call(base, "GET", `/v1/cards/${card.body.id}`, { headers: h })).body.columnId).toBe(A.columns[1]!.id)
    expect((await call(base, "GET", `/v1/cards/${card.body.id}`, { headers: h })).body.pullRequestMark).toBe("open")
  }, 120_000)

  it("keeps a card's mark the highest of its pull requests through concurrent openings, merges, closes and checks", async () => {
    const h = key(A.apiKey)
    const card = await call(base, "POST", "/v1/cards", {
      body: { projectId: A.projectId, columnId: A.columns[0]!.id, title: "Contested" },
      headers: h
    })
    const repo = await call(base, "POST", `/v1/projects/${A.projectId}/repositories`, {
      body: { provider: "github", name: "Codertocat/Contested" },
      headers: h
    })
    const mark = async () => (await call(base, "GET", `/v1/cards/${card.body.id}`, { headers: h })).body.pullRequestMark
    const head = (n: number) => n.toString(16).padStart(40, "0")
    const pr = (n: number, state: "open" | "merged" | "closed") => {
      const p = githubExample("pull_request", (e) => e.action === (state === "open" ? "opened" : "closed"))
      p.number = n
      p.repository.full_name = "Codertocat/Contested"
      Object.assign(p.pull_request, {
        number: n,
        title: `Fixes ${card.body.ref}`,
        body: "",
        draft: false,
        state: state === "open" ? "open" : "closed",
        merged: state === "merged",
        merge_commit_sha: state === "merged" ? head(n + 1000) : null
      })
      p.pull_request.head.sha = head(n)
      return sendGithub(base, repo.body.id, repo.body.webhookSecret, "pull_request", p)
    }
    const checks = (n: number, conclusion: "failure" | "success") => {
      const c = githubExample("check_run", (e) => e.check_run.conclusion === conclusion)
      c.repository.full_name = "Codertocat/Contested"
      c.check_run.head_sha = head(n)
      c.check_run.name = "unit tests"
      return sendGithub(base, repo.body.id, repo.body.webhookSecret, "check_run", c)
    }
    const all = async (sends: Array<Promise<{ status: number }>>) =>
      expect((await Promise.all(sends)).map((r) => r.status)).toEqual(sends.map(() => 202))
    // ten merged, one whose checks fail: failing wins over merged
    await all([...Array.from({ length: 10 }, (_, i) => pr(200 + i, "merged")), pr(300, "open")])
    expect(await mark()).toBe("open")
    await checks(300, "failure")
    expect(await mark()).toBe("checks_failing")
    // new open pull requests at once do not lower it (each only raises the mark: markCte)
    await all(Array.from({ length: 10 }, (_, i) => pr(400 + i, "open")))
    expect(await mark()).toBe("checks_failing")
    // the failing one passes while the open ones close, all at once: what is left is merged
    await all([
      checks(300, "success"),
      pr(300, "closed"),
      ...Array.from({ length: 10 }, (_, i) => pr(400 + i, "closed"))
    ])
    expect(await mark()).toBe("merged")
    // one reopened with failing checks: failing again; closed: merged again
    await pr(300, "open")
    await checks(300, "failure")
    expect(await mark()).toBe("checks_failing")
    await pr(300, "closed")
    expect(await mark()).toBe("merged")
    // a close (which reads every pull request again) at the same time as an opening (which only
    // raises): whichever runs first, the other sees it, and the new one stays open
    for (let i = 0; i < 5; i++) {
      await pr(600 + 2 * i, "open")
      await all([pr(600 + 2 * i, "closed"), pr(601 + 2 * i, "open")])
      expect(await mark()).toBe("open")
      await pr(601 + 2 * i, "closed")
      expect(await mark()).toBe("merged")
    }
  }, 120_000)
})
