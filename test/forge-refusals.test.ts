/**
 * Issue 31's bad input for the forge endpoint, each with its answer and nothing changed: a
 * missing or wrong signature (401, nothing recorded), a replayed delivery (202, no change), a
 * payload of another repository (400), refs of another project or workspace (never linked), a
 * 50 MiB body (413), malformed JSON (400), a merge of a pull request whose card was deleted (202,
 * nothing to do), an unknown repository (404), an event the service does not read (202); and
 * GitLab, Gitea and Forgejo deliveries, built to their documented shapes (docs/forges.md):
 * - GitLab "Merge Request Hook" and "Pipeline Hook": docs.gitlab.com, user/project/integrations/webhook_events
 * - Gitea/Forgejo `pull_request` (PullRequestPayload) and `status` (CommitStatusPayload): their modules/structs/hook.go
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { githubExample, sendGitea, sendGithub, sendGitlab } from "./support/forge.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("forge refusals on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account
  let B: Account
  let h: Record<string, string>
  let repo: { id: string; webhookSecret: string }
  let cardA: { id: string; ref: string }
  let cardB: { id: string; ref: string }

  const connect = async (provider: string, name: string, account = A) => {
    const r = await call(base, "POST", `/v1/projects/${account.projectId}/repositories`, {
      body: { provider, name },
      headers: key(account.apiKey)
    })
    expect(r.status, r.text).toBe(201)
    return r.body as { id: string; webhookSecret: string }
  }
  const newCard = async (account: Account, title: string) => {
    const r = await call(base, "POST", "/v1/cards", {
      body: { projectId: account.projectId, columnId: account.columns[0]!.id, title },
      headers: key(account.apiKey)
    })
    return { id: r.body.id as string, ref: r.body.ref as string }
  }
  const prs = async (id: string, account = A) =>
    (await call(base, "GET", `/v1/cards/${id}/pull-requests`, { headers: key(account.apiKey) })).body
  const opened = (number: number, title: string, body = "") => {
    const p = githubExample("pull_request", (e) => e.action === "opened")
    p.number = number
    Object.assign(p.pull_request, { number, title, body, draft: false })
    p.pull_request.head.ref = "topic"
    return p
  }

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    A = await bootstrap(base, "refusals")
    B = await bootstrap(base, "other") // another workspace, its project also named Website
    h = key(A.apiKey)
    cardA = await newCard(A, "Mine")
    cardB = await newCard(B, "Theirs")
    repo = await connect("github", "Codertocat/Hello-World")
  }, 120_000)
  afterAll(() => server?.stop())

  it("refuses a missing or wrong signature with 401 and records nothing", async () => {
    const payload = opened(1, `Fixes ${cardA.ref}`)
    const missing = await sendGithub(base, repo.id, repo.webhookSecret, "pull_request", payload, { signature: null })
    expect(missing.status).toBe(401)
    expect(missing.body.error).toMatch(/missing signature/)
    const wrong = await sendGithub(base, repo.id, "whsec_not-the-secret", "pull_request", payload, { delivery: "d-1" })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toMatch(/wrong signature/)
    expect(await prs(cardA.id)).toEqual([])
    expect(await server.query("SELECT * FROM forge_deliveries")).toEqual([])
    // the refused delivery id was not recorded: the genuine one with the same id is applied
    const genuine = await sendGithub(base, repo.id, repo.webhookSecret, "pull_request", payload, { delivery: "d-1" })
    expect(genuine.status).toBe(202)
    expect(await prs(cardA.id)).toHaveLength(1)
  })

  it("answers a replayed delivery 202 and changes nothing", async () => {
    const replay = opened(1, `Fixes ${cardA.ref} (edited)`)
    const r = await sendGithub(base, repo.id, repo.webhookSecret, "pull_request", replay, { delivery: "d-1" })
    expect(r.status).toBe(202)
    expect((await prs(cardA.id))[0].title).toBe(`Fixes ${cardA.ref}`)
  })

  it("refuses another repository's payload with 400", async () => {
    const p = opened(2, `Fixes ${cardA.ref}`)
    p.repository.full_name = "someone/else"
    const r = await sendGithub(base, repo.id, repo.webhookSecret, "pull_request", p)
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/someone\/else/)
    expect((await prs(cardA.id)).map((x: any) => x.number)).toEqual([1])
  })

  it("never links a ref of another workspace's project, even with the same prefix", async () => {
    expect(cardB.ref).toBe(cardA.ref)
    const other = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: A.workspaceId, name: "Api", template: "kanban" },
      headers: key(A.apiKey)
    })
    const apiCard = await call(base, "POST", "/v1/cards", {
      body: { projectId: other.body.project.id, columnId: other.body.columns[0].id, title: "API card" },
      headers: h
    })
    const r = await sendGithub(
      base,
      repo.id,
      repo.webhookSecret,
      "pull_request",
      opened(3, `Fixes ${apiCard.body.ref}`, `Closes ${cardB.ref}`)
    )
    expect(r.status).toBe(202)
    expect(await prs(cardB.id, B)).toEqual([])
    expect(await prs(apiCard.body.id)).toEqual([])
    // the project's own card of that ref is linked (the text named it)
    expect((await prs(cardA.id)).map((x: any) => x.number)).toEqual([1, 3])
  })

  it("refuses a 50 MiB body with 413 and malformed JSON with 400", async () => {
    const big = await fetch(`${base}/v1/forge-hooks/${repo.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-github-event": "push" },
      body: "x".repeat(50 * 1024 * 1024)
    }).catch((e) => e as Error)
    if (big instanceof Error) throw big
    expect(big.status).toBe(413)
    expect(((await big.json()) as { error: string }).error).toMatch(/too large/)
    const { sign } = await import("@octokit/webhooks-methods")
    const raw = '{"action": "opened", "pull_request": '
    const r = await call(base, "POST", `/v1/forge-hooks/${repo.id}`, {
      raw,
      headers: {
        "x-github-event": "pull_request",
        "x-github-delivery": "malformed",
        "x-hub-signature-256": await sign(repo.webhookSecret, raw)
      }
    })
    expect(r.status).toBe(400)
    expect(r.body.error).toMatch(/malformed JSON/)
  })

  it("answers a merge whose card was deleted 202, and unknown repositories 404", async () => {
    const gone = await newCard(A, "Short-lived")
    await sendGithub(base, repo.id, repo.webhookSecret, "pull_request", opened(4, `Fixes ${gone.ref}`))
    expect((await call(base, "DELETE", `/v1/cards/${gone.id}`, { headers: h })).status).toBe(204)
    const merged = opened(4, `Fixes ${gone.ref}`)
    Object.assign(merged.pull_request, {
      state: "closed",
      merged: true,
      merged_at: "2026-05-01T00:00:00Z",
      merge_commit_sha: "a".repeat(40)
    })
    merged.action = "closed"
    expect((await sendGithub(base, repo.id, repo.webhookSecret, "pull_request", merged)).status).toBe(202)
    const unknown = await sendGithub(base, "00000000-0000-4000-8000-000000000000", "x", "pull_request", merged)
    expect(unknown.status).toBe(404)
    expect((await sendGithub(base, "not-a-uuid", "x", "pull_request", merged)).status).toBe(404)
  })

  it("answers an event it does not read 202", async () => {
    const issue = githubExample("issues")
    issue.repository.full_name = "nobody/cares"
    expect((await sendGithub(base, repo.id, repo.webhookSecret, "issues", issue)).status).toBe(202)
  })

  it("refuses repository changes to non-admins, and lets members read", async () => {
    // the bootstrap account owns its workspace; a viewer-less check: a stranger sees nothing
    const r = await call(base, "GET", `/v1/projects/${A.projectId}/repositories`, { headers: key(B.apiKey) })
    expect(r.status).toBe(404)
    const d = await call(base, "DELETE", `/v1/repositories/${repo.id}`, { headers: key(B.apiKey) })
    expect(d.status).toBe(404)
  })

  it("reads GitLab merge requests and pipelines, with X-Gitlab-Token", async () => {
    const lab = await connect("gitlab", "acme/platform/web")
    const card = await newCard(A, "GitLab work")
    const mr = {
      object_kind: "merge_request",
      event_type: "merge_request",
      user: { username: "root" },
      project: { id: 1, path_with_namespace: "acme/platform/web" },
      object_attributes: {
        iid: 12,
        title: "Speed up search",
        description: `Closes: ${card.ref}`,
        url: "https://gitlab.example.com/acme/platform/web/-/merge_requests/12",
        source_branch: "speed",
        state: "opened",
        action: "open",
        draft: false,
        last_commit: { id: "b".repeat(40), message: "Speed" },
        merge_commit_sha: null
      },
      reviewers: [{ username: "ana", state: "unreviewed" }]
    }
    expect((await sendGitlab(base, lab.id, "wrong", "Merge Request Hook", mr)).status).toBe(401)
    expect((await sendGitlab(base, lab.id, null, "Merge Request Hook", mr)).status).toBe(401)
    expect((await sendGitlab(base, lab.id, lab.webhookSecret, "Merge Request Hook", mr)).status).toBe(202)
    const pipeline = {
      object_kind: "pipeline",
      project: { path_with_namespace: "acme/platform/web" },
      object_attributes: { id: 9, sha: "b".repeat(40), status: "failed" },
      merge_request: { iid: 12 }
    }
    expect((await sendGitlab(base, lab.id, lab.webhookSecret, "Pipeline Hook", pipeline)).status).toBe(202)
    const [pr] = await prs(card.id)
    expect(pr).toMatchObject({ provider: "gitlab", number: 12, state: "open", closes: true, checks: "failure" })
    const after = await call(base, "GET", `/v1/cards/${card.id}`, { headers: h })
    expect(after.body.columnId).toBe(A.columns[1]!.id)
    mr.object_attributes.state = "merged"
    mr.object_attributes.action = "merge"
    ;(mr.object_attributes as any).merge_commit_sha = "c".repeat(40)
    expect((await sendGitlab(base, lab.id, lab.webhookSecret, "Merge Request Hook", mr)).status).toBe(202)
    const done = await call(base, "GET", `/v1/cards/${card.id}`, { headers: h })
    expect(done.body.columnId).toBe(A.columns[2]!.id)
  })

  for (const flavour of ["gitea", "forgejo"] as const)
    it(`reads ${flavour} pull requests and commit statuses, signed with its HMAC header`, async () => {
      const tea = await connect(flavour, `acme/${flavour}-app`)
      const card = await newCard(A, `${flavour} work`)
      const payload = {
        action: "opened",
        number: 5,
        pull_request: {
          id: 99,
          number: 5,
          title: "Tidy",
          body: `Resolves ${card.ref}`,
          html_url: `https://${flavour}.example.com/acme/${flavour}-app/pulls/5`,
          state: "open",
          merged: false,
          draft: false,
          head: { ref: "tidy", sha: "d".repeat(40) },
          base: { ref: "main" }
        },
        repository: { full_name: `acme/${flavour}-app` },
        sender: { login: "ana" }
      }
      const wrong = await sendGitea(base, tea.id, "whsec_wrong", "pull_request", payload, flavour)
      expect(wrong.status).toBe(401)
      expect((await sendGitea(base, tea.id, tea.webhookSecret, "pull_request", payload, flavour)).status).toBe(202)
      const status = {
        sha: "d".repeat(40),
        state: "failure",
        context: "ci/build",
        target_url: "https://ci.example.com/1",
        repository: { full_name: `acme/${flavour}-app` }
      }
      expect((await sendGitea(base, tea.id, tea.webhookSecret, "status", status, flavour)).status).toBe(202)
      const rejected = {
        ...payload,
        action: "reviewed",
        review: { type: "pull_request_review_rejected", content: "No." }
      }
      expect(
        (await sendGitea(base, tea.id, tea.webhookSecret, "pull_request_rejected", rejected, flavour)).status
      ).toBe(202)
      const [pr] = await prs(card.id)
      expect(pr).toMatchObject({
        provider: flavour,
        number: 5,
        closes: true,
        checks: "failure",
        review: "changes_requested"
      })
    })
})
