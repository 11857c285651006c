/**
 * Issue 21: `/user/keys` (API keys, intake tokens, connected agents) and a project's links page,
 * in a real browser against a real server; every change is checked through the API.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow, origin } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { type AppContext, openApp, seriousViolations } from "./support/webApp.ts"

describeBrowser("web: keys and links pages", () => {
  let server: TestServer
  let base: string
  let site: string
  let account: Account
  let browser: Browser
  let app: AppContext
  let page: Page
  const api = (method: string, path: string, body?: unknown) =>
    call(base, method, path, { headers: key(account.apiKey), ...(body === undefined ? {} : { body }) })
  const eventually = async <T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> => {
    const until = Date.now() + 5_000
    for (;;) {
      const v = await read()
      if (check(v) || Date.now() > until) return v
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const section = (name: string) => page.getByRole("region", { name, exact: true })

  beforeAll(async () => {
    server = await startServer("pglite")
    base = server.baseUrl
    site = origin(base)
    account = await bootstrap(base, "Grace", "Website")
    browser = await launchBrowser()
    app = await openApp(browser, site, account.email)
    page = app.page
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("creates an API key shown once with a working Copy button, then revokes it", async () => {
    await page.goto(`${site}/user/keys`)
    await page.getByRole("heading", { level: 1, name: "Keys and connected agents" }).waitFor()
    const keys = section("API keys")
    await keys.getByText("tests", { exact: true }).waitFor()

    await keys.getByLabel("Key name").fill("CI robot")
    await keys.getByRole("button", { name: "Create API key" }).click()
    const shown = keys.getByLabel("Your new API key")
    await shown.waitFor()
    const raw = await shown.inputValue()
    expect(raw).toMatch(/^svc_/)
    await keys.getByRole("button", { name: "Copy", exact: true }).click()
    await keys.getByText("Copied to the clipboard.").waitFor()
    expect(await page.evaluate("navigator.clipboard.readText()")).toBe(raw)

    // the key works, as any client would use it
    expect((await call(base, "GET", "/v1/workspaces", { headers: key(raw) })).status).toBe(200)
    const listed = (await api("GET", "/v1/api-keys")).body as Array<any>
    expect(listed.map((k) => k.name).sort()).toEqual(["CI robot", "tests"])
    expect(JSON.stringify(listed)).not.toContain(raw)

    // shown once: gone after Done, and not in the list
    await keys.getByRole("button", { name: "Done" }).click()
    await shown.waitFor({ state: "detached" })
    await keys.getByText("CI robot", { exact: true }).waitFor()
    expect(await page.content()).not.toContain(raw)

    await keys.getByRole("button", { name: "Revoke CI robot" }).click()
    await keys.getByRole("button", { name: "Yes, revoke CI robot" }).click()
    await keys.getByText("CI robot", { exact: true }).waitFor({ state: "detached" })
    expect((await call(base, "GET", "/v1/workspaces", { headers: key(raw) })).status).toBe(401)
    expect(((await api("GET", "/v1/api-keys")).body as Array<any>).map((k) => k.name)).toEqual(["tests"])
    expect(app.errors).toEqual([])
  })

  it("makes a read-only, one-project, 30-day key in one step; the list says its limits (issue 33)", async () => {
    await page.goto(`${site}/user/keys`)
    const keys = section("API keys")
    await keys.getByText("tests", { exact: true }).waitFor()
    await keys.getByLabel("Key name").fill("reader")
    await keys.getByLabel("Project", { exact: true }).selectOption({ label: "Website" })
    await keys.getByLabel("Expires", { exact: true }).selectOption({ label: "30 days" })
    for (const scope of ["Create and change", "Delete", "Manage (members, projects, webhooks, keys)"])
      await keys.getByLabel(scope).uncheck()
    await keys.getByRole("button", { name: "Create API key" }).click()
    const raw = await keys.getByLabel("Your new API key").inputValue()
    await keys.getByRole("button", { name: "Done" }).click()

    const made = ((await api("GET", "/v1/api-keys")).body as Array<any>).find((k) => k.name === "reader")
    expect(made).toMatchObject({ scopes: ["read"], projectIds: [account.projectId] })
    const days = (Date.parse(made.expiresAt) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29.9)
    expect(days).toBeLessThanOrEqual(30)
    await keys.getByText(/Only read · Website · expires/).waitFor()

    // it reads its project and changes nothing
    expect((await call(base, "GET", `/v1/board/${account.projectId}`, { headers: key(raw) })).status).toBe(200)
    const write = await call(base, "POST", "/v1/cards", {
      body: { projectId: account.projectId, columnId: account.columns[0]!.id, title: "nope" },
      headers: key(raw)
    })
    expect(write.status).toBe(403)
    await keys.getByRole("button", { name: "Revoke reader" }).click()
    await keys.getByRole("button", { name: "Yes, revoke reader" }).click()
    await keys.getByText("reader", { exact: true }).waitFor({ state: "detached" })
    expect(app.errors).toEqual([])
  })

  it("creates an intake token for a chosen column, files a card with it, and revokes it", async () => {
    await page.goto(`${site}/user/keys`)
    const intake = section("Intake tokens")
    const done = account.columns.find((c) => c.name === "Done")!
    await intake.getByLabel("Column").locator(`option[value="${done.id}"]`).waitFor({ state: "attached" })
    await intake.getByLabel("Column").selectOption(done.id)
    await intake.getByLabel("Token name").fill("support form")
    await intake.getByRole("button", { name: "Create intake token" }).click()
    const shown = intake.getByLabel("Your new intake token")
    await shown.waitFor()
    const token = await shown.inputValue()
    expect(token).toMatch(/^svc_in_/)
    await intake.getByText("support form", { exact: true }).waitFor()
    expect(await intake.locator(".keys-item").first().textContent()).toContain("→ Done")

    const filed = await call(base, "POST", "/v1/intake", {
      headers: { "x-intake-key": token },
      body: { title: "From the form" }
    })
    expect(filed.status).toBe(201)
    const board = (await api("GET", `/v1/board/${account.projectId}`)).body
    expect(board.cards.find((c: any) => c.title === "From the form")?.columnId).toBe(done.id)
    const tokens = (await api("GET", `/v1/projects/${account.projectId}/intake-tokens`)).body as Array<any>
    expect(tokens).toHaveLength(1)
    expect(tokens[0]).toMatchObject({ name: "support form", columnId: done.id, revokedAt: null })

    await intake.getByRole("button", { name: "Revoke support form" }).click()
    await intake.getByRole("button", { name: "Yes, revoke support form" }).click()
    await intake.getByText("No active intake tokens in this project.").waitFor()
    const after = (await api("GET", `/v1/projects/${account.projectId}/intake-tokens`)).body as Array<any>
    expect(after[0].revokedAt).not.toBeNull()
    const refused = await call(base, "POST", "/v1/intake", {
      headers: { "x-intake-key": token },
      body: { title: "Too late" }
    })
    expect(refused.status).toBe(401)
    expect(app.errors).toEqual([])
  })

  it("lists the agents connected through OAuth and revokes one", async () => {
    const { tokens } = await fullFlow(base, account, [account.workspaceId])
    const agent = bearer(tokens.access_token)
    expect((await call(base, "GET", "/v1/workspaces", { headers: agent })).status).toBe(200)

    await page.goto(`${site}/user/keys`)
    const agents = section("Connected agents")
    await agents.getByText("Test Agent", { exact: true }).waitFor()
    expect(await agents.locator(".keys-item").textContent()).toContain("Grace's workspace")

    await agents.getByRole("button", { name: "Revoke Test Agent" }).click()
    await agents.getByRole("button", { name: "Yes, revoke Test Agent" }).click()
    await agents.getByText("No connected agents.").waitFor()
    expect((await api("GET", "/v1/oauth/grants")).body).toEqual([])
    expect((await call(base, "GET", "/v1/workspaces", { headers: agent })).status).toBe(401)
    expect(app.errors).toEqual([])
  })

  it("without clipboard access, Copy selects the key for the keyboard and says so", async () => {
    const other = await openApp(browser, site, account.email)
    // a browser where the Clipboard API is missing (plain http on a LAN address, older browsers)
    await other.page.addInitScript("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    await other.page.goto(`${site}/user/keys`)
    const keys = other.page.getByRole("region", { name: "API keys", exact: true })
    await keys.getByLabel("Key name").fill("no clipboard")
    await keys.getByRole("button", { name: "Create API key" }).click()
    const shown = keys.getByLabel("Your new API key")
    const raw = await shown.inputValue()
    await keys.getByRole("button", { name: "Copy", exact: true }).click()
    await keys.getByText(/the text is selected, press Ctrl\+C/).waitFor()
    expect(
      await other.page.evaluate(
        "[document.activeElement.selectionStart, document.activeElement.selectionEnd, document.activeElement.value.length]"
      )
    ).toEqual([0, raw.length, raw.length])
    expect(other.errors).toEqual([])
    await other.context.close()
  })

  it("has no serious accessibility violation and fits a phone", async () => {
    await fullFlow(base, account, [account.workspaceId])
    await page.goto(`${site}/user/keys`)
    await section("Connected agents").getByText("Test Agent", { exact: true }).waitFor()
    await section("API keys").getByLabel("Key name").fill("phone")
    await section("API keys").getByRole("button", { name: "Create API key" }).click()
    await section("API keys").getByLabel("Your new API key").waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.setViewportSize({ width: 375, height: 740 })
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375)
    expect(await seriousViolations(page)).toEqual([])
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(app.errors).toEqual([])
  })

  it("lists a project's links by relevance; submits, reviews, evaluates and deletes one", async () => {
    await api("POST", "/v1/cards", {
      projectId: account.projectId,
      columnId: account.columns[0]!.id,
      title: "Adopt the Effect schema library",
      description: "See https://effect.website/docs/schema"
    })
    await page.goto(`${site}/p/${account.projectId}/links`)
    await page.getByRole("heading", { level: 1, name: "Links of Website" }).waitFor()
    await page.getByText("No links here yet.").waitFor()

    // the server's own message, next to the form that caused it
    await page.getByLabel("URL").fill("ftp://example.com/file")
    await page.getByRole("button", { name: "Submit link" }).click()
    const refused = page.locator(".links-submit").getByRole("alert")
    await refused.waitFor()
    expect(await refused.textContent()).toContain("must be an absolute http or https URL")
    expect(app.errors).toEqual([expect.stringContaining("status of 400")])
    app.errors.length = 0

    await page.getByLabel("URL").fill("https://effect.website/docs/schema?utm_source=x")
    await page.getByLabel("Title", { exact: true }).fill("Effect Schema docs")
    await page.getByLabel("Tags (comma-separated)").fill("docs, schema")
    await page.getByRole("button", { name: "Submit link" }).click()
    await page.getByText(/^Added; rated /).waitFor()
    const listed = async () => (await api("GET", `/v1/projects/${account.projectId}/links`)).body
    const first = (await listed()).links[0]
    expect(first).toMatchObject({
      title: "Effect Schema docs",
      tags: ["docs", "schema"],
      evaluation_source: "heuristic"
    })
    const item = page.locator(".link-item", { hasText: "Effect Schema docs" })
    await item.waitFor()
    expect(await item.locator(`a[href="${first.url}"]`).getAttribute("rel")).toBe("noopener noreferrer")

    // review: the person's rating wins, with the reason
    await item.getByLabel("Relevance").selectOption("low")
    await item.getByLabel("Reason for the review").fill("only background reading")
    await item.getByRole("button", { name: "Save review" }).click()
    const reviewed = await eventually(listed, (b) => b.links[0].evaluation_source === "human")
    expect(reviewed.links[0]).toMatchObject({ relevance: "low", reviewReason: "only background reading" })
    await item.getByText("Reason: only background reading").waitFor()

    // the filter asks the API for one rating
    await page.getByLabel("Show").selectOption("high")
    await page.getByText("No links here yet.").waitFor()
    await page.getByLabel("Show").selectOption("low")
    await item.waitFor()

    // evaluate: the heuristic replaces the human review
    await item.getByRole("button", { name: "Evaluate" }).click()
    const evaluated = await eventually(listed, (b) => b.links[0].evaluation_source === "heuristic")
    expect(evaluated.links[0].evaluation_source).toBe("heuristic")

    await page.getByLabel("Show").selectOption("")
    await item.getByRole("button", { name: "Delete Effect Schema docs" }).click()
    await item.getByRole("button", { name: "Yes, delete Effect Schema docs" }).click()
    await page.getByText("No links here yet.").waitFor()
    expect((await listed()).total).toBe(0)

    expect(await seriousViolations(page)).toEqual([])
    expect(app.errors).toEqual([])
  })
})
