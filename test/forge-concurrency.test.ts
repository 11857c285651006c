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
  }, 120_000)
})
