/** Issue 4: project links and agent prompts over real HTTP on each database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

describe.each(backends)("project links and prompts on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  let h: Record<string, string>
  let project: string

  const newProject = async (name: string) => {
    const r = await call(base, "POST", "/v1/projects", {
      body: { workspaceId: a.workspaceId, name, template: "kanban" },
      headers: h
    })
    return { id: r.body.project.id as string, columns: r.body.columns as Array<{ id: string }> }
  }
  const submit = (body: Record<string, unknown>, pid = project) =>
    call(base, "POST", `/v1/projects/${pid}/links`, { body, headers: h })

  beforeAll(async () => {
    server = await startServer(backend)
    base = server.baseUrl
    a = await bootstrap(base, "linker")
    h = key(a.apiKey)
    project = a.projectId
  })
  afterAll(() => server?.stop())

  describe("submit", () => {
    it("stores, evaluates and answers 201 with every field", async () => {
      const r = await submit({
        url: "https://Docs.Example.com:443/Guide/?utm_source=x&b=2&a=1#top",
        title: "Guide",
        note: "read me",
        tags: ["docs", "docs", "api"]
      })
      expect(r.status).toBe(201)
      expect(r.body.created).toBe(true)
      expect(r.body.link).toEqual({
        id: expect.any(String),
        projectId: project,
        url: "https://Docs.Example.com:443/Guide/?utm_source=x&b=2&a=1#top",
        normalizedUrl: "https://docs.example.com/Guide?a=1&b=2",
        title: "Guide",
        note: "read me",
        tags: ["docs", "api"],
        relevance: expect.stringMatching(/^(none|low|medium|high)$/),
        score: expect.any(Number),
        evidence: expect.any(Array),
        evaluation_source: "heuristic",
        reviewedBy: null,
        reviewedAt: null,
        reviewReason: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String)
      })
      const rows = await server.query(`SELECT url, normalized_url FROM project_links WHERE id = $1`, [r.body.link.id])
      expect(rows[0]).toEqual({ url: r.body.link.url, normalized_url: "https://docs.example.com/Guide?a=1&b=2" })
    })

    it("answers 200 with the stored row for the same page differing in tracking, fragment, slash, case or port", async () => {
      const p = await newProject("Dedupe")
      const first = await submit({ url: "https://shop.example.com/item?id=7" }, p.id)
      expect(first.status).toBe(201)
      for (const url of [
        "https://shop.example.com/item?id=7&utm_campaign=spring",
        "https://shop.example.com/item/?id=7#reviews",
        "HTTPS://SHOP.EXAMPLE.COM:443/item?id=7&fbclid=abc&gclid=1",
        "https://shop.example.com/item?id=7&mc_cid=1&mc_eid=2"
      ]) {
        const again = await submit({ url }, p.id)
        expect(again.status).toBe(200)
        expect(again.body).toEqual({ created: false, link: first.body.link })
      }
      expect(await server.query(`SELECT 1 FROM project_links WHERE project_id = $1`, [p.id])).toHaveLength(1)
      expect((await submit({ url: "https://shop.example.com/item?id=8" }, p.id)).status).toBe(201)
    })

    it("stores one row when the same page is submitted concurrently", async () => {
      const p = await newProject("Race")
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => submit({ url: `https://race.example.com/page?utm_medium=${i}` }, p.id))
      )
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
      expect(new Set(results.map((r) => r.body.link.id)).size).toBe(1)
      expect(await server.query(`SELECT 1 FROM project_links WHERE project_id = $1`, [p.id])).toHaveLength(1)
    })

    it.each([
      [{ url: "ftp://example.com/file" }, /url/],
      [{ url: "javascript:alert(1)" }, /url/],
      [{ url: "/relative/path" }, /url/],
      [{ url: "not a url" }, /url/],
      [{ url: `https://e.com/${"a".repeat(2035)}` }, /url/],
      [{ url: "https://e.com", title: "t".repeat(201) }, /title/],
      [{ url: "https://e.com", note: "n".repeat(2001) }, /note/],
      [{ url: "https://e.com", tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, /tags/],
      [{ url: "https://e.com", tags: ["x".repeat(51)] }, /tags/],
      [{ title: "no url" }, /url/]
    ])("rejects %j with 400 naming the field", async (body, field) => {
      const r = await submit(body)
      expect(r.status).toBe(400)
      expect(r.body.error).toMatch(field)
    })

    it("accepts the boundary sizes", async () => {
      const url = `https://e.com/${"a".repeat(2048 - "https://e.com/".length)}`
      const r = await submit({
        url,
        title: "t".repeat(200),
        note: "n".repeat(2000),
        tags: Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(50, "x"))
      })
      expect(r.status).toBe(201)
    })

    it("rates a link whose URL is on a card high, and one sharing nothing none", async () => {
      const p = await newProject("Rated")
      await call(base, "POST", "/v1/cards", {
        body: {
          projectId: p.id,
          columnId: p.columns[0]!.id,
          title: "Upgrade payment library",
          description: "See https://pay.example.com/changelog for breaking changes"
        },
        headers: h
      })
      const match = await submit({ url: "https://pay.example.com/changelog?utm_source=mail", title: "Changelog" }, p.id)
      expect(match.body.link.relevance).toBe("high")
      expect(match.body.link.evidence[0]).toMatchObject({ signal: "url_match" })
      expect(JSON.stringify(match.body.link.evidence)).toContain("RAT-1")
      const none = await submit({ url: "https://unrelated.example.org/recipes", title: "Banana bread" }, p.id)
      expect(none.body.link).toMatchObject({ relevance: "none", score: 0, evidence: [] })
    })
  })

  it("counts the project's other stored links on the same site, www. or not, never the link itself", async () => {
    const p = await newProject("Sites")
    const sameHost = (r: { body: { link: { evidence: Array<{ signal: string; detail: string }> } } }) =>
      r.body.link.evidence.find((e) => e.signal === "same_host")?.detail
    const first = await submit({ url: "https://docs.site.io/a" }, p.id)
    expect(sameHost(first)).toBeUndefined()
    await submit({ url: "https://www.docs.site.io/b" }, p.id)
    await submit({ url: "https://elsewhere.io/c" }, p.id)
    // another project's link on the site does not count
    await submit({ url: "https://docs.site.io/z" })
    const third = await submit({ url: "https://DOCS.site.io/c" }, p.id)
    expect(third.status).toBe(201)
    expect(sameHost(third)).toBe("Same host docs.site.io as 2 stored links")
    // the same page again is the stored link: it does not count itself
    const again = await submit({ url: "https://docs.site.io/c?utm_source=x" }, p.id)
    expect(again.status).toBe(200)
    const rated = await call(base, "POST", `/v1/projects/${p.id}/links/${first.body.link.id}/evaluate`, { headers: h })
    expect(sameHost(rated)).toBe("Same host docs.site.io as 2 stored links")
    // www.www.docs.site.io is the site www.docs.site.io, which no stored link is on
    expect(sameHost(await submit({ url: "https://www.www.docs.site.io/q" }, p.id))).toBeUndefined()
  })

  it("re-rates against the board as it is now: a card added after the first rating counts", async () => {
    const p = await newProject("Changing")
    const first = await submit({ url: "https://cache.example.com/guide", title: "Guide" }, p.id)
    expect(first.body.link.relevance).toBe("none")
    await call(base, "POST", "/v1/cards", {
      body: { projectId: p.id, columnId: p.columns[0]!.id, title: "Read https://cache.example.com/guide first" },
      headers: h
    })
    const again = await call(base, "POST", `/v1/projects/${p.id}/links/${first.body.link.id}/evaluate`, { headers: h })
    expect(again.body.link.relevance).toBe("high")
    await call(
      base,
      "PATCH",
      `/v1/cards/${(await call(base, "GET", `/v1/board/${p.id}`, { headers: h })).body.cards[0].id}`,
      { body: { title: "Nothing here" }, headers: h }
    )
    const after = await call(base, "POST", `/v1/projects/${p.id}/links/${first.body.link.id}/evaluate`, { headers: h })
    expect(after.body.link.relevance).toBe("none")
  })

  describe("list", () => {
    it("pages newest first without skipping or repeating, with total, limit and offset", async () => {
      const p = await newProject("Pages")
      for (let i = 0; i < 7; i++) await submit({ url: `https://pages.example.com/${i}` }, p.id)
      const all = await call(base, "GET", `/v1/projects/${p.id}/links`, { headers: h })
      expect(all.status).toBe(200)
      expect(all.body).toMatchObject({ total: 7, limit: 50, offset: 0 })
      expect(all.body.links.map((l: any) => l.url)).toEqual(
        [6, 5, 4, 3, 2, 1, 0].map((i) => `https://pages.example.com/${i}`)
      )
      const seen: Array<string> = []
      for (let offset = 0; offset < 7; offset += 3) {
        const page = await call(base, "GET", `/v1/projects/${p.id}/links?limit=3&offset=${offset}`, { headers: h })
        expect(page.body).toMatchObject({ total: 7, limit: 3, offset })
        seen.push(...page.body.links.map((l: any) => l.id))
      }
      expect(seen).toEqual(all.body.links.map((l: any) => l.id))
    })

    it("filters by relevance, including unrated", async () => {
      const p = await newProject("Filter")
      await submit({ url: "https://nothing.example.org/a" }, p.id)
      const none = await call(base, "GET", `/v1/projects/${p.id}/links?relevance=none`, { headers: h })
      expect(none.body.total).toBe(1)
      expect((await call(base, "GET", `/v1/projects/${p.id}/links?relevance=high`, { headers: h })).body.total).toBe(0)
      await server.query(
        `INSERT INTO project_links (project_id, url, normalized_url, host) VALUES ($1, 'https://x.io/u', 'https://x.io/u', 'x.io')`,
        [p.id]
      )
      const unrated = await call(base, "GET", `/v1/projects/${p.id}/links?relevance=unrated`, { headers: h })
      expect(unrated.body.links.map((l: any) => [l.url, l.relevance])).toEqual([["https://x.io/u", null]])
    })

    it.each(["limit=0", "limit=501", "limit=ten", "limit=1.5", "offset=-1", "offset=x", "relevance=great"])(
      "?%s answers 400",
      async (query) => {
        const r = await call(base, "GET", `/v1/projects/${project}/links?${query}`, { headers: h })
        expect(r.status).toBe(400)
        expect(r.body.error).toMatch(query.split("=")[0]!)
      }
    )

    it("accepts the bounds limit=1, limit=500, offset=0", async () => {
      for (const q of ["limit=1", "limit=500", "offset=0"]) {
        expect((await call(base, "GET", `/v1/projects/${project}/links?${q}`, { headers: h })).status).toBe(200)
      }
    })
  })

  describe("review, evaluate, delete", () => {
    it("a review with relevance records a human rating, the reviewer and reason, and clears score and evidence", async () => {
      const link = (await submit({ url: "https://review.example.com/doc", title: "Doc", note: "n" })).body.link
      const r = await call(base, "PATCH", `/v1/projects/${project}/links/${link.id}`, {
        body: { relevance: "high", reason: "core reference", title: null, tags: ["ref"] },
        headers: h
      })
      expect(r.status).toBe(200)
      expect(r.body.link).toMatchObject({
        id: link.id,
        relevance: "high",
        evaluation_source: "human",
        reviewedBy: a.userId,
        reviewReason: "core reference",
        score: null,
        evidence: null,
        title: null,
        note: "n",
        tags: ["ref"]
      })
      expect(r.body.link.reviewedAt).toEqual(expect.any(String))
      const noRelevance = await call(base, "PATCH", `/v1/projects/${project}/links/${link.id}`, {
        body: { reason: "why" },
        headers: h
      })
      expect(noRelevance.status).toBe(400)
      expect(noRelevance.body.error).toMatch(/relevance/)
      const badRelevance = await call(base, "PATCH", `/v1/projects/${project}/links/${link.id}`, {
        body: { relevance: "unrated" },
        headers: h
      })
      expect(badRelevance.status).toBe(400)
      const edit = await call(base, "PATCH", `/v1/projects/${project}/links/${link.id}`, {
        body: { note: "edited" },
        headers: h
      })
      expect(edit.body.link).toMatchObject({ note: "edited", relevance: "high", evaluation_source: "human" })
      const evaluated = await call(base, "POST", `/v1/projects/${project}/links/${link.id}/evaluate`, { headers: h })
      expect(evaluated.status).toBe(200)
      expect(evaluated.body.link).toMatchObject({
        evaluation_source: "heuristic",
        reviewedBy: null,
        reviewReason: null,
        score: expect.any(Number),
        evidence: expect.any(Array)
      })
      const stored = await server.query(`SELECT evaluation_source FROM project_links WHERE id = $1`, [link.id])
      expect(stored[0].evaluation_source).toBe("heuristic")
    })

    it("deletes with {success: true}; a link addressed through another project is 404", async () => {
      const link = (await submit({ url: "https://delete.example.com/x" })).body.link
      const other = await newProject("Other links")
      expect((await call(base, "DELETE", `/v1/projects/${other.id}/links/${link.id}`, { headers: h })).status).toBe(404)
      expect(
        (await call(base, "POST", `/v1/projects/${other.id}/links/${link.id}/evaluate`, { headers: h })).status
      ).toBe(404)
      const r = await call(base, "DELETE", `/v1/projects/${project}/links/${link.id}`, { headers: h })
      expect(r.status).toBe(200)
      expect(r.body).toEqual({ success: true })
      expect((await call(base, "DELETE", `/v1/projects/${project}/links/${link.id}`, { headers: h })).status).toBe(404)
      expect(
        (await call(base, "PATCH", `/v1/projects/${project}/links/${link.id}`, { body: { note: "x" }, headers: h }))
          .status
      ).toBe(404)
    })

    it("another user's project and links are 404 and untouched", async () => {
      const link = (await submit({ url: "https://private.example.com/x" })).body.link
      const b = await bootstrap(base, "snoop")
      const hb = key(b.apiKey)
      expect((await call(base, "GET", `/v1/projects/${project}/links`, { headers: hb })).status).toBe(404)
      expect(
        (
          await call(base, "POST", `/v1/projects/${project}/links`, {
            body: { url: "https://evil.example.com" },
            headers: hb
          })
        ).status
      ).toBe(404)
      expect(
        (
          await call(base, "PATCH", `/v1/projects/${project}/links/${link.id}`, {
            body: { relevance: "none" },
            headers: hb
          })
        ).status
      ).toBe(404)
      expect((await call(base, "DELETE", `/v1/projects/${project}/links/${link.id}`, { headers: hb })).status).toBe(404)
      const after = await server.query(`SELECT relevance, evaluation_source FROM project_links WHERE id = $1`, [
        link.id
      ])
      expect(after[0]).toEqual({ relevance: link.relevance, evaluation_source: "heuristic" })
      expect(await server.query(`SELECT 1 FROM project_links WHERE url = 'https://evil.example.com'`)).toHaveLength(0)
    })
  })

  describe("agent prompt", () => {
    it("builds each variant from the card, subtasks, links and high references, deterministically", async () => {
      const p = await newProject("Prompted")
      const col = p.columns[0]!.id
      const mk = (title: string, extra: Record<string, unknown> = {}) =>
        call(base, "POST", "/v1/cards", { body: { projectId: p.id, columnId: col, title, ...extra }, headers: h }).then(
          (r) => r.body
        )
      const card = await mk("Harden session handling", { description: "Tokens leak into logs", priority: "urgent" })
      const blocker = await mk("Rotate signing keys")
      await call(base, "POST", "/v1/subtasks", { body: { cardId: card.id, title: "scrub logs" }, headers: h })
      await call(base, "POST", `/v1/cards/${blocker.id}/links`, {
        body: { targetId: card.id, linkType: "blocks" },
        headers: h
      })
      const label = await call(base, "POST", "/v1/labels", { body: { projectId: p.id, name: "security" }, headers: h })
      await call(base, "POST", `/v1/cards/${card.id}/labels`, { body: { labelId: label.body.id }, headers: h })
      const ref = await submit({ url: "https://owasp.example.org/logging", title: "Logging cheat sheet" }, p.id)
      await call(base, "PATCH", `/v1/projects/${p.id}/links/${ref.body.link.id}`, {
        body: { relevance: "high" },
        headers: h
      })

      const prompts: Record<string, string> = {}
      for (const variant of ["analysis", "draft", "execute"]) {
        const r = await call(base, "GET", `/v1/cards/${card.id}/prompt?variant=${variant}`, { headers: h })
        expect(r.status).toBe(200)
        expect(r.body.variant).toBe(variant)
        prompts[variant] = r.body.prompt
        for (const part of [
          card.ref,
          "Harden session handling",
          "Tokens leak into logs",
          "urgent",
          "security",
          "scrub logs",
          blocker.ref,
          "https://owasp.example.org/logging"
        ]) {
          expect(r.body.prompt).toContain(part)
        }
        expect(r.body.prompt).toMatch(/block/i)
        const again = await call(base, "GET", `/v1/cards/${card.id}/prompt?variant=${variant}`, { headers: h })
        expect(again.body.prompt).toBe(r.body.prompt)
      }
      expect(new Set(Object.values(prompts)).size).toBe(3)
      const byDefault = await call(base, "GET", `/v1/cards/${card.id}/prompt`, { headers: h })
      expect(byDefault.body).toEqual({ prompt: prompts.execute, variant: "execute" })

      // a bare card in a project without high-rated links: no optional section at all
      const plain = await newProject("Plain")
      const bare = (
        await call(base, "POST", "/v1/cards", {
          body: { projectId: plain.id, columnId: plain.columns[0]!.id, title: "Bare card" },
          headers: h
        })
      ).body
      const bareRes = await call(base, "GET", `/v1/cards/${bare.id}/prompt?variant=analysis`, { headers: h })
      expect(bareRes.body.prompt).toContain("Bare card")
      expect(bareRes.body.prompt).not.toMatch(/subtask/i)
      expect(bareRes.body.prompt).not.toContain("owasp")
    })

    it("rejects an unknown variant with 400 and an unknown card with 404", async () => {
      const card = (
        await call(base, "POST", "/v1/cards", {
          body: { projectId: project, columnId: a.columns[0]!.id, title: "v" },
          headers: h
        })
      ).body
      const bad = await call(base, "GET", `/v1/cards/${card.id}/prompt?variant=poem`, { headers: h })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/variant/)
      expect(
        (await call(base, "GET", `/v1/cards/00000000-0000-4000-8000-000000000000/prompt`, { headers: h })).status
      ).toBe(404)
    })
  })
})
