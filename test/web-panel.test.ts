/**
 * Issue 21: the card panel in a real browser against a real server. The panel opens at the
 * card's URL (`/p/<projectId>?card=<id>`); every edit made in it is read back through the API.
 */
import type { Browser, Page, Route } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow, origin } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { type AppContext, openApp, seriousViolations } from "./support/webApp.ts"

describeBrowser("web: the card panel", () => {
  let server: TestServer
  let base: string
  let site: string
  let account: Account
  let browser: Browser
  let app: AppContext
  let page: Page
  const api = (method: string, path: string, body?: unknown) =>
    call(base, method, path, { headers: key(account.apiKey), ...(body === undefined ? {} : { body }) })
  const card = async (id: string) => (await api("GET", `/v1/cards/${id}`)).body
  /** Polls the API until `check` holds (the panel saves asynchronously). */
  const eventually = async <T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> => {
    const until = Date.now() + 5_000
    for (;;) {
      const v = await read()
      if (check(v) || Date.now() > until) return v
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const dialog = () => page.getByRole("dialog")
  const openPanel = async (cardId: string) => {
    await page.goto(`${site}/p/${account.projectId}?card=${cardId}`)
    await dialog().getByLabel("Title", { exact: true }).waitFor()
  }

  beforeAll(async () => {
    server = await startServer("pglite")
    base = server.baseUrl
    site = origin(base)
    account = await bootstrap(base, "Ada", "Website")
    browser = await launchBrowser()
    app = await openApp(browser, site, account.email)
    page = app.page
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("opens as a labelled modal dialog with focus inside, and Escape closes it", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Open me"
      })
    ).body
    await openPanel(c.id)
    const d = dialog()
    expect(await d.getAttribute("aria-modal")).toBe("true")
    expect(await page.getByRole("dialog", { name: /Open me/ }).count()).toBe(1)
    expect(await page.evaluate(`document.activeElement?.closest("[role=dialog]") !== null`)).toBe(true)
    await page.keyboard.press("Escape")
    await d.waitFor({ state: "detached" })

    // opened from its card on the board with the keyboard, closed with Escape: focus is back on the card
    const handle = page.locator(`[data-card-handle="${c.id}"]`)
    await handle.focus()
    await page.keyboard.press("Enter")
    await page.getByRole("dialog", { name: /Open me/ }).waitFor()
    expect(page.url()).toBe(`${site}/p/${account.projectId}?card=${c.id}`)
    // Tab stays inside the open dialog
    for (let i = 0; i < 30; i++) await page.keyboard.press("Tab")
    expect(await page.evaluate(`document.activeElement?.closest("[role=dialog]") !== null`)).toBe(true)
    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "detached" })
    expect(await page.evaluate(`document.activeElement?.getAttribute("data-card-handle")`)).toBe(c.id)

    // an address edited by hand, and a card deleted since: the dialog says so and still closes
    await page.goto(`${site}/p/${account.projectId}?card=x`)
    await page.getByRole("dialog", { name: "Card not found" }).waitFor()
    await page.keyboard.press("Escape")
    await page.getByRole("dialog").waitFor({ state: "detached" })
    const gone = (
      await api("POST", "/v1/cards", { projectId: account.projectId, columnId: account.columns[0]!.id, title: "Gone" })
    ).body
    await api("DELETE", `/v1/cards/${gone.id}`)
    await page.goto(`${site}/p/${account.projectId}?card=${gone.id}`)
    await page.getByRole("dialog", { name: "Card not found" }).waitFor()
    await page.getByRole("button", { name: "Close card" }).click()
    await page.getByRole("dialog").waitFor({ state: "detached" })
    // the 404 is the answer asked for (Chromium logs it); the app logged nothing itself
    expect(app.errors).toEqual([expect.stringContaining("status of 404")])
    app.errors.length = 0
  })

  it("edits title, description, priority and due date, and the API reads them back", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Draft"
      })
    ).body
    await openPanel(c.id)
    const d = dialog()

    await d.getByLabel("Title", { exact: true }).fill("Write the release notes")
    await d.getByLabel("Title", { exact: true }).press("Enter")
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.title === "Write the release notes"
        )
      ).title
    ).toBe("Write the release notes")
    await page.getByRole("dialog", { name: /Write the release notes/ }).waitFor()

    await d.getByRole("button", { name: "Edit description" }).click()
    await d.getByLabel("Description (Markdown)").fill("Ship **soon**, see https://example.com/notes")
    await d.getByRole("button", { name: "Save description" }).click()
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.description !== null
        )
      ).description
    ).toBe("Ship **soon**, see https://example.com/notes")
    await d.locator(".panel-description strong", { hasText: "soon" }).waitFor()
    // linkify makes the bare URL a link that gives the opened page no handle on this one
    const link = d.locator('.panel-description a[href="https://example.com/notes"]')
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer")

    await d.getByLabel("Priority").selectOption("urgent")
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.priority === "urgent"
        )
      ).priority
    ).toBe("urgent")

    await d.getByLabel("Due date").fill("2030-05-17")
    const due = await eventually(
      () => card(c.id),
      (x) => x.dueAt !== null
    )
    expect(due.dueAt).toMatch(/^2030-05-17T00:00:00(\.000)?Z$/)

    // the history names the person and says what changed
    await d.getByText(/Ada changed the priority of .* from medium to urgent/).waitFor()
    await d.getByText(/Ada renamed .* from “Draft” to “Write the release notes”/).waitFor()
    expect(app.errors).toEqual([])
  })

  it("creates and attaches a label, assigns a member, and detaches the label", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Label me"
      })
    ).body
    await api("POST", `/v1/cards/${c.id}/move`, { columnId: account.columns[1]!.id })
    await openPanel(c.id)
    // the history as sentences, with the columns' names
    await dialog()
      .getByText(`Ada moved ${c.ref} from ${account.columns[0]!.name} to ${account.columns[1]!.name}`)
      .waitFor()
    await dialog().getByText(`Ada created ${c.ref} in ${account.columns[0]!.name}`).waitFor()
    const d = dialog()
    await d.getByLabel("New label name").fill("backend")
    await d.getByRole("button", { name: "Create label" }).click()
    const labelled = await eventually(
      () => card(c.id),
      (x) => x.labels.length === 1
    )
    expect(labelled.labels.map((l: any) => l.name)).toEqual(["backend"])

    await d.getByRole("checkbox", { name: "Ada" }).check()
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.assigneeIds.length === 1
        )
      ).assigneeIds
    ).toEqual([account.userId])

    await d.getByRole("button", { name: "Remove label backend" }).click()
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.labels.length === 0
        )
      ).labels
    ).toEqual([])
    // the label is still the project's: it is offered to attach again
    await d.getByLabel("Label to add").selectOption({ label: "backend" })
    await d.getByRole("button", { name: "Add label" }).click()
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.labels.length === 1
        )
      ).labels[0].name
    ).toBe("backend")
    await d
      .getByText(/Ada added the label “backend”/)
      .first()
      .waitFor()
  })

  it("adds, toggles and deletes a subtask; links a card by its ref; comments", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Parent"
      })
    ).body
    const other = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[1]!.id,
        title: "Blocked one"
      })
    ).body
    await openPanel(c.id)
    const d = dialog()

    await d.getByLabel("New subtask").fill("Write tests")
    await d.getByRole("button", { name: "Add subtask" }).click()
    const withSubtask = await eventually(
      () => card(c.id),
      (x) => x.subtasks.length === 1
    )
    expect(withSubtask.subtasks[0]).toMatchObject({ title: "Write tests", completed: false })
    await d.getByRole("checkbox", { name: "Write tests" }).check()
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.subtasks[0]?.completed === true
        )
      ).subtasks[0].completed
    ).toBe(true)
    await d.getByRole("button", { name: "Delete subtask Write tests" }).click()
    expect(
      (
        await eventually(
          () => card(c.id),
          (x) => x.subtasks.length === 0
        )
      ).subtasks
    ).toEqual([])

    await d.getByLabel("Link type").selectOption("blocks")
    await d.getByLabel("Card ref or id to link").fill(other.ref)
    await d.getByRole("button", { name: "Link card" }).click()
    const links = await eventually(
      async () => (await api("GET", `/v1/cards/${c.id}/links`)).body,
      (l: Array<any>) => l.length === 1
    )
    expect(links[0]).toMatchObject({ targetId: other.id, linkType: "blocks", direction: "outgoing" })
    await d.getByText(`blocks ${other.ref} Blocked one`).waitFor()
    // an unknown ref: the server's message, next to the form
    await d.getByLabel("Card ref or id to link").fill("NOPE-999")
    await d.getByRole("button", { name: "Link card" }).click()
    await d
      .getByRole("alert")
      .filter({ hasText: /not found|no card/i })
      .waitFor()
    // Chromium logs every 4xx answer to a fetch; this one was asked for, the app logged nothing itself
    expect(app.errors).toEqual([expect.stringContaining("status of 404")])
    app.errors.length = 0
    await d.getByRole("button", { name: `Remove link to ${other.ref}` }).click()
    expect(
      (
        await eventually(
          async () => (await api("GET", `/v1/cards/${c.id}/links`)).body,
          (l: Array<any>) => l.length === 0
        )
      ).length
    ).toBe(0)

    await d.getByLabel("Add a comment").fill("Looks good, *ship it*")
    await d.getByRole("button", { name: "Comment", exact: true }).click()
    const comments = await eventually(
      async () => (await api("GET", `/v1/cards/${c.id}/comments`)).body,
      (p: any) => p.total === 1
    )
    expect(comments.comments[0]).toMatchObject({ body: "Looks good, *ship it*", author: { type: "user" } })
    await d.locator(".panel-comment em", { hasText: "ship it" }).waitFor()
    // one's own comment can be edited
    await d.getByRole("button", { name: "Edit", exact: true }).click()
    await d.getByLabel("Edit comment").fill("Looks good")
    await d.getByRole("button", { name: "Save comment" }).click()
    expect(
      (
        await eventually(
          async () => (await api("GET", `/v1/cards/${c.id}/comments`)).body,
          (p: any) => p.comments[0]?.body === "Looks good"
        )
      ).comments[0].body
    ).toBe("Looks good")
    await d.getByText(/Ada added the subtask “Write tests”/).waitFor()
    await d.getByText("Ada edited a comment").waitFor()
    await d.locator(".panel-comment").getByRole("button", { name: "Delete", exact: true }).click()
    expect(
      (
        await eventually(
          async () => (await api("GET", `/v1/cards/${c.id}/comments`)).body,
          (p: any) => p.total === 0
        )
      ).total
    ).toBe(0)
    await d.locator(".panel-comment").waitFor({ state: "detached" })
    expect(app.errors).toEqual([])
  })

  it("renders Markdown and titles as text: no script, no javascript: link", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "<img src=x onerror=window.__xss=1>",
        description: "<script>window.__xss=2</script>\n\n[x](javascript:window.__xss=3) <b onclick=alert(1)>bold</b>"
      })
    ).body
    await openPanel(c.id)
    const d = dialog()
    await d.locator(".panel-description").waitFor()
    expect(await d.locator("h2").first().textContent()).toContain("<img src=x onerror=window.__xss=1>")
    expect(await d.locator("img").count()).toBe(0)
    expect(await d.locator(".panel-description script").count()).toBe(0)
    expect(await d.locator(".panel-description b").count()).toBe(0)
    expect(await d.locator('a[href^="javascript:" i]').count()).toBe(0)
    expect(await d.locator(".panel-description").textContent()).toContain("<script>window.__xss=2</script>")
    await page.waitForTimeout(200)
    expect(await page.evaluate("window.__xss")).toBeUndefined()
    expect(app.errors).toEqual([])
  })

  it("shows an agent's question and resumes its session with the person's reply", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Agent work"
      })
    ).body
    const { tokens } = await fullFlow(base, account, [account.workspaceId])
    const agent = bearer(tokens.access_token)
    const session = (await call(base, "POST", `/v1/cards/${c.id}/claim`, { headers: agent, body: {} })).body
    expect(session.status).toBe("active")
    await call(base, "POST", `/v1/agent-sessions/${session.id}/activities`, {
      headers: agent,
      body: { type: "action", body: "Read the codebase" }
    })
    const asked = await call(base, "POST", `/v1/agent-sessions/${session.id}/activities`, {
      headers: agent,
      body: { type: "elicitation", body: "Should the notes cover **v2**?" }
    })
    expect(asked.status).toBe(201)

    await openPanel(c.id)
    const d = dialog()
    await d.getByText("Claimed by").waitFor()
    // an agent is shown as an agent, with the person it acts for, never by a name alone (issue 28)
    expect(await d.locator(".panel-claim strong").textContent()).toBe("Test Agent")
    expect(await d.locator(".panel-claim .agent-mark").textContent()).toBe("agent")
    expect(await d.locator(".panel-claim .agent-for").textContent()).toBe(" for Ada")
    expect(await d.locator(".panel-claim").textContent()).toMatch(/^Claimed by Test Agent agent for Ada until/)
    expect(await d.locator(".panel-session-head .agent-mark").first().textContent()).toBe("agent")
    expect(await page.locator(`.claim .agent-mark`).first().textContent()).toBe("agent")
    const question = d.getByRole("region", { name: "Test Agent (agent for Ada) is waiting for your answer" })
    await question.waitFor()
    expect(await question.locator("strong").textContent()).toBe("v2")
    await d.locator(".status-awaitingInput").first().waitFor()
    await d.getByText("Read the codebase", { exact: true }).waitFor()

    expect(await seriousViolations(page)).toEqual([])

    await question.getByLabel("Reply to Test Agent (agent for Ada)").fill("Yes, cover v2 too")
    await question.getByRole("button", { name: "Send reply" }).click()
    const resumed = await eventually(
      async () => (await api("GET", `/v1/agent-sessions/${session.id}`)).body,
      (s: any) => s.status === "active"
    )
    expect(resumed.status).toBe("active")
    const comments = (await api("GET", `/v1/cards/${c.id}/comments`)).body
    expect(comments.comments.map((x: any) => x.body)).toEqual(["Yes, cover v2 too"])
    await question.waitFor({ state: "detached" })
    await d.locator(".status-active").first().waitFor()
    expect(app.errors).toEqual([])
  })

  it("reads the card, never the board again, shows the board's copy at once, and follows changes made elsewhere", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Watched"
      })
    ).body
    const reads: Array<string> = []
    const onRequest = (r: { url: () => string; method: () => string }) => {
      const path = new URL(r.url()).pathname
      if (r.method() === "GET" && /^\/api\/v1\/(board|cards)\//.test(path)) reads.push(path)
    }
    page.on("request", onRequest)
    try {
      await page.goto(`${site}/p/${account.projectId}`)
      await page.locator(".live-live").waitFor()
      // opened from the board: the board's copy fills the panel before the card's own read answers
      const held: Array<Promise<void>> = []
      const hold = (route: Route) => {
        const answered = new Promise<void>((r) => setTimeout(r, 1500)).then(() => route.continue())
        held.push(answered)
        return answered
      }
      await page.route(`**/api/v1/cards/${c.id}`, hold)
      await page.locator(`[data-card-handle="${c.id}"]`).click()
      await dialog().getByLabel("Title", { exact: true }).waitFor({ timeout: 1000 })
      expect(await dialog().getByLabel("Title", { exact: true }).inputValue()).toBe("Watched")
      expect(held).toHaveLength(1)
      await Promise.all(held)
      await page.unroute(`**/api/v1/cards/${c.id}`, hold)

      // changed by someone else while open: the board's stream updates the panel, no reload, no focus
      await api("PATCH", `/v1/cards/${c.id}`, { title: "Renamed elsewhere" })
      await page.getByRole("dialog", { name: /Renamed elsewhere/ }).waitFor({ timeout: 5000 })
      // an event that does not carry the card (a subtask) makes the panel read the card again
      await api("POST", "/v1/subtasks", { cardId: c.id, title: "Added elsewhere" })
      await dialog().getByText("Added elsewhere").waitFor({ timeout: 5000 })
      // the board was read once, by the board page; the panel read the card
      expect(reads.filter((p) => p.startsWith("/api/v1/board/"))).toEqual([`/api/v1/board/${account.projectId}`])
      expect(reads).toContain(`/api/v1/cards/${c.id}`)
    } finally {
      page.off("request", onRequest)
    }
    expect(app.errors).toEqual([])
  })

  it("archives first and restores, the history saying both; Delete is behind More and a confirm", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Shelve me"
      })
    ).body
    await openPanel(c.id)
    const d = dialog()
    // no delete button until asked for
    expect(await d.getByRole("button", { name: /Delete card/ }).count()).toBe(0)
    await d.getByRole("button", { name: "Archive card" }).click()
    await d.getByText(`Archived, from ${account.columns[0]!.name}: off the board`).waitFor()
    expect((await api("GET", `/v1/cards/${c.id}`)).body.archivedAt).not.toBeNull()
    await d.getByText(`Ada archived ${c.ref}`).waitFor()
    await d.getByRole("button", { name: "Restore to the board" }).click()
    await d.getByText(`Ada restored ${c.ref} to ${account.columns[0]!.name}`).waitFor()
    expect((await api("GET", `/v1/cards/${c.id}`)).body.archivedAt).toBeNull()
    await d.getByRole("button", { name: "Archive card" }).waitFor()
    expect(app.errors).toEqual([])
  })

  it("has no serious accessibility violation, fills a phone's screen, and deletes the card after a confirm", async () => {
    const c = (
      await api("POST", "/v1/cards", {
        projectId: account.projectId,
        columnId: account.columns[0]!.id,
        title: "Delete me",
        description: "Some *text*"
      })
    ).body
    await openPanel(c.id)
    expect(await seriousViolations(page)).toEqual([])

    await page.setViewportSize({ width: 375, height: 740 })
    const box = await dialog().boundingBox()
    expect(box?.width).toBe(375)
    expect(await page.evaluate("document.documentElement.scrollWidth")).toBeLessThanOrEqual(375)
    expect(await seriousViolations(page)).toEqual([])
    await page.setViewportSize({ width: 1280, height: 900 })

    const d = dialog()
    await d.getByRole("button", { name: "More…" }).click()
    await d.getByRole("button", { name: "Delete card…" }).click()
    await d.getByRole("button", { name: `Yes, delete ${c.ref}` }).click()
    await page.getByRole("dialog", { name: /Delete me/ }).waitFor({ state: "detached" })
    expect((await api("GET", `/v1/cards/${c.id}`)).status).toBe(404)
    expect(app.errors).toEqual([])
  })
})
