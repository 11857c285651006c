/**
 * Issue 30 part 7, a team in two real browsers (Chromium) against a real server: A invites B by
 * link from the workspace page, B signs up from the link's page and opens A's board; A makes B a
 * viewer and B's board, read again, offers no writes; A removes B and B's open board says B no
 * longer has access.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { type Account, bootstrap, call, key, SUITE_PASSWORD, uniqueEmail } from "./support/client.ts"
import { origin } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { type AppContext, openApp } from "./support/webApp.ts"

describeBrowser("web: a team (issue 30)", () => {
  let server: TestServer
  let site: string
  let a: Account
  let browser: Browser
  let appA: AppContext
  let pageB: Page
  const errorsB: Array<string> = []
  const bEmail = uniqueEmail("bee")
  let inviteUrl: string
  const api = (method: string, path: string, body?: unknown) =>
    call(server.baseUrl, method, path, { headers: key(a.apiKey), ...(body === undefined ? {} : { body }) })

  beforeAll(async () => {
    server = await startServer("pglite")
    site = origin(server.baseUrl)
    a = await bootstrap(server.baseUrl, "Ada", "Launch")
    await api("POST", "/v1/cards", { projectId: a.projectId, columnId: a.columns[0]!.id, title: "Shared card" })
    browser = await launchBrowser()
    appA = await openApp(browser, site, a.email)
    const contextB = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    pageB = await contextB.newPage()
    pageB.on("pageerror", (e) => errorsB.push(String(e)))
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("A makes an invitation link on the workspace page, shown once to copy", async () => {
    const page = appA.page
    await page.goto(`${site}/`)
    await page.getByRole("link", { name: "Members and settings" }).click()
    await page.waitForURL(`**/w/${a.workspaceId}`)
    await page.getByRole("heading", { name: "Ada's workspace", level: 1 }).waitFor()
    await page.getByRole("button", { name: "Create invitation link" }).click()
    const field = page.getByLabel(/^Invitation link/)
    inviteUrl = await field.inputValue()
    expect(inviteUrl).toMatch(new RegExp(`^${site}/invite/svc_inv_`))
    await page.getByText("Anyone with the link").waitFor()
  })

  it("B opens the link, sees who invites to what, signs up from it and sees A's board", async () => {
    await pageB.goto(inviteUrl)
    await pageB.getByText("Ada invites you to Ada's workspace as member.").waitFor()
    await pageB.getByLabel("Full name").fill("Bee Two")
    await pageB.getByLabel("Email").fill(bEmail)
    await pageB.getByLabel(/^Password/).fill(SUITE_PASSWORD)
    await pageB.getByRole("button", { name: "Create account and join" }).click()
    await pageB.waitForURL(`**/w/${a.workspaceId}`)
    await pageB.getByText("Your role: member").waitFor()
    await pageB.getByRole("link", { name: /Launch/ }).click()
    await pageB.getByRole("heading", { level: 1, name: "Launch" }).waitFor()
    await pageB.getByText("Shared card").waitFor()
    // a member works the board
    await pageB.getByRole("button", { name: "+ Add a card to To Do" }).waitFor()
    const members = await api("GET", `/v1/workspaces/${a.workspaceId}/members`)
    expect((members.body as Array<any>).find((m) => m.email === bEmail)?.role).toBe("member")
    // the link is used up
    expect((await call(server.baseUrl, "GET", `/v1/invitations/${inviteUrl.split("/invite/")[1]}`)).status).toBe(404)
  })

  it("A makes B a viewer; B's board, read again, offers no writes", async () => {
    const page = appA.page
    await page.reload()
    await page.getByLabel("Role of Bee Two").selectOption("viewer")
    await expect
      .poll(async () => {
        const members = await api("GET", `/v1/workspaces/${a.workspaceId}/members`)
        return (members.body as Array<any>).find((m) => m.email === bEmail)?.role
      })
      .toBe("viewer")
    await pageB.reload()
    await pageB.getByText("Shared card").waitFor()
    await pageB.getByText(/^Read-only: you are a viewer/).waitFor()
    expect(await pageB.getByRole("button", { name: /Add a card/ }).count()).toBe(0)
    expect(await pageB.getByRole("button", { name: "+ Add a column" }).count()).toBe(0)
    expect(await pageB.getByRole("button", { name: /^Actions for/ }).count()).toBe(0)
    // the card does not pick up: Space on it does nothing, Alt+Arrow moves nothing
    const handle = pageB.locator("li.card .card-handle").first()
    expect(await handle.getAttribute("aria-keyshortcuts")).toBeNull()
    await handle.focus()
    await pageB.keyboard.press("Alt+ArrowRight")
    await pageB.waitForTimeout(300)
    const board = await api("GET", `/v1/board/${a.projectId}`)
    expect((board.body.cards as Array<any>)[0].columnId).toBe(a.columns[0]!.id)
  })

  it("A removes B; B's open board says B no longer has access", async () => {
    const page = appA.page
    await page.getByRole("button", { name: "Remove Bee Two" }).click()
    await page.getByRole("button", { name: "Remove Bee Two from Ada's workspace" }).click()
    await expect.poll(async () => (await page.locator("[data-member]").count()) as number).toBe(1)
    await pageB.getByText(/You do not have access to this board/).waitFor({ timeout: 10_000 })
    expect(appA.errors.filter((e) => !e.includes("status of"))).toEqual([])
    expect(errorsB).toEqual([])
  })
})
