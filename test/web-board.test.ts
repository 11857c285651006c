/**
 * Issue 21, the web board in a real browser (Debian's Chromium through playwright-core) against
 * a real server: create a project and cards through the UI, drag a card to another column with
 * the mouse and read the move back through the API, move cards with the keyboard, watch a card
 * moved through the API arrive without a reload, columns, search, the XSS case, axe-core, phone
 * width, and no console error anywhere.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { postgresUrl } from "./support/backends.ts"
import { tcpRelay } from "./support/tcpRelay.ts"
import { describeBrowser, launchBrowser } from "./support/browser.ts"
import { bearer, call, key, SUITE_PASSWORD, uniqueEmail } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"

// what page.evaluate runs in the browser: the suites' tsconfig has no DOM types
declare const document: any
declare const window: any

const until = async <T>(f: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await f()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describeBrowser("web board (issue 21)", () => {
  let server: TestServer
  /** The app's origin: `board serve` answers the app and the API on one origin (PUBLIC_URL). */
  let app: { url: string }
  let browser: Browser
  let context: BrowserContext
  let page: Page
  /** The person who signs up through the UI, and an API key of theirs to check what the UI did. */
  const account = { email: uniqueEmail("webboard"), apiKey: "" }
  let projectId: string
  let columns: Record<string, string>
  const consoleErrors: Array<string> = []

  const api = <T = any>(method: string, p: string, body?: unknown) =>
    call<T>(server.baseUrl, method, p, { headers: key(account.apiKey), ...(body === undefined ? {} : { body }) })

  const watch = (p: Page) => {
    p.on("console", (m) => {
      if (m.type() !== "error") return
      // Chromium logs every 4xx answer itself. Expected ones: /v1/me saying "not signed in"
      // (the app shows sign-in), and the refusals the suite provokes on purpose (a wrong
      // password, an existing account, a column with cards), whose messages the page shows
      const status = /status of (\d{3})/.exec(m.text())?.[1]
      const at = new URL(m.location().url || "http://x/").pathname
      const expected: Record<string, RegExp> = {
        "401": /^\/api\/v1\/(me|auth\/login)$/,
        "400": /^\/api\/v1\/board\/not-a-project$/,
        "404": /^\/api\/v1\/cards\/[^/]+\/move$/,
        // the bare 502 the suite stands in for a proxy's
        "502": /^\/api\/v1\/search$/,
        "409": /^\/api\/v1\/(columns\/[^/]+|auth\/signup)$/,
        // signing up an address that signed up a minute ago: the once-per-5-minutes rule answers first
        "429": /^\/api\/v1\/auth\/signup$/
      }
      if (status !== undefined && expected[status]?.test(at)) return
      // the drop the suite makes on purpose: the stream's reconnect attempts meanwhile
      if (/status of 503|ERR_/.test(m.text()) && at.endsWith("/events/stream")) return
      consoleErrors.push(`${m.text()} (${m.location().url})`)
    })
    p.on("pageerror", (e) => consoleErrors.push(String(e)))
  }

  const cardIn = (columnName: string, title: string) =>
    page.locator(`section.column:has(h2:text-is("${columnName}")) li.card:has(.card-title:text-is("${title}"))`)

  const cardByTitle = async (title: string) => {
    const board = await api("GET", `/v1/board/${projectId}`)
    return (board.body.cards as Array<any>).find((c) => c.title === title)
  }

  beforeAll(async () => {
    server = await startServer(postgresUrl === undefined ? "pglite" : "postgres")
    app = { url: new URL(server.config.publicUrl).origin }
    browser = await launchBrowser()
    context = await browser.newContext()
    page = await context.newPage()
    watch(page)
  })

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it("signs up through the UI: the session cookie, a first workspace, home", async () => {
    await page.goto(`${app.url}/`)
    await page.waitForURL("**/signin")
    await page.getByRole("link", { name: "Create an account" }).click()
    await page.getByLabel("Full name").fill("Wendy Board")
    await page.getByLabel("Email").fill(account.email)
    await page.getByLabel(/^Password/).fill(SUITE_PASSWORD)
    await page.getByLabel(/^First workspace/).fill("Wendy's team")
    await page.getByRole("button", { name: "Create account" }).click()
    await page.getByRole("heading", { name: "Wendy's team" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
    await page.getByText("Wendy Board").waitFor()
    const cookies = await context.cookies()
    expect(cookies.find((c) => c.name === "board_session")?.httpOnly).toBe(true)
    // an API key of the same person, to read back what the UI did
    const login = await call(server.baseUrl, "POST", "/v1/auth/login", {
      body: { email: account.email, password: SUITE_PASSWORD }
    })
    const created = await call(server.baseUrl, "POST", "/v1/api-keys", {
      body: { name: "suite" },
      headers: bearer(login.body.session.access_token)
    })
    account.apiKey = created.body.rawKey
    const workspaces = await api("GET", "/v1/workspaces")
    expect((workspaces.body as Array<any>).map((w) => w.name)).toEqual(["Wendy's team"])
  })

  it("home creates a project that opens as a kanban board", async () => {
    await page.getByLabel("New project in Wendy's team").fill("Launch")
    await page.getByRole("button", { name: "Create project" }).click()
    await page.waitForURL(/\/p\/[0-9a-f-]{36}$/)
    projectId = page.url().split("/p/")[1]!
    await page.getByRole("heading", { level: 1, name: "Launch" }).waitFor()
    const names = await page.locator("h2.column-name").allTextContents()
    expect(names).toEqual(["To Do", "In Progress", "Done"])
    const board = await api("GET", `/v1/board/${projectId}`)
    columns = Object.fromEntries((board.body.columns as Array<any>).map((c) => [c.name, c.id]))
    // the bench's marker, once
    expect(await page.evaluate(() => performance.getEntriesByName("board-interactive").length)).toBe(1)
    await page.locator(".live-live").waitFor()
  })

  it("creates cards in a column through the inline form, in order", async () => {
    await page.getByRole("button", { name: "+ Add a card to To Do" }).click()
    for (const title of ["Write the launch post", "Record the demo", "Fix the signup bug"]) {
      await page.getByLabel("Title of the new card in To Do").fill(title)
      await page.keyboard.press("Enter")
      await cardIn("To Do", title).waitFor()
    }
    await page.keyboard.press("Escape")
    const board = await api("GET", `/v1/board/${projectId}`)
    expect((board.body.cards as Array<any>).map((c) => [c.title, c.columnId, c.position])).toEqual([
      ["Write the launch post", columns["To Do"], 0],
      ["Record the demo", columns["To Do"], 1],
      ["Fix the signup bug", columns["To Do"], 2]
    ])
  })

  it("drags a card with the mouse into another column; the API has it there", async () => {
    const handle = cardIn("To Do", "Record the demo").locator(".card-handle")
    const from = (await handle.boundingBox())!
    const to = (await page.locator(`section.column:has(h2:text-is("In Progress")) ul.cards`).boundingBox())!
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
    await page.mouse.down()
    // in steps: dnd-kit's pointer sensor starts after 5 px, then follows the pointer
    await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2, { steps: 5 })
    await page.mouse.move(to.x + to.width / 2, to.y + 20, { steps: 15 })
    await page.mouse.up()
    await cardIn("In Progress", "Record the demo").waitFor()
    const moved = await until(async () => {
      const card = await cardByTitle("Record the demo")
      return card?.columnId === columns["In Progress"] ? card : undefined
    }, "the move to reach the server")
    expect(moved.position).toBe(0)
    // the cards left behind close the gap
    expect((await cardByTitle("Fix the signup bug")).position).toBe(1)
  })

  it("moves cards with the keyboard: Space to pick up and arrows, Alt+Arrow, and the card's menu", async () => {
    // dnd-kit's keyboard drag: Space, ArrowRight to the next column, Space
    await cardIn("To Do", "Write the launch post").locator(".card-handle").focus()
    // the sensor listens from the next tick after the pick-up, as a person's next key press would
    await page.keyboard.press("Space")
    await page.waitForTimeout(150)
    await page.keyboard.press("ArrowRight")
    await page.waitForTimeout(300)
    await page.keyboard.press("Space")
    await cardIn("In Progress", "Write the launch post").waitFor()
    await until(
      async () =>
        (await cardByTitle("Write the launch post"))?.columnId === columns["In Progress"] ? true : undefined,
      "the keyboard drag to reach the server"
    )

    // Alt+ArrowRight: one step right, focus stays on the card
    await cardIn("To Do", "Fix the signup bug").locator(".card-handle").focus()
    await page.keyboard.press("Alt+ArrowRight")
    await cardIn("In Progress", "Fix the signup bug").waitFor()
    // the card is a new element in its new column, focused in the next animation frame
    // (useBoardActions.ts focusCard): wait for that frame, not for the element alone
    await page.waitForFunction(
      () => document.activeElement?.closest("li.card")?.textContent?.includes("Fix the signup bug") === true,
      undefined,
      { timeout: 5_000 }
    )
    await until(
      async () => ((await cardByTitle("Fix the signup bug"))?.columnId === columns["In Progress"] ? true : undefined),
      "the Alt+Arrow move to reach the server"
    )

    // within a column with the keyboard: Space, ArrowDown, Space puts the first card second
    const inProgress = async () =>
      page.locator(`section.column:has(h2:text-is("In Progress")) .card-title`).allTextContents()
    const first = (await inProgress())[0]!
    await cardIn("In Progress", first).locator(".card-handle").focus()
    await page.keyboard.press("Space")
    await page.waitForTimeout(150)
    await page.keyboard.press("ArrowDown")
    await page.waitForTimeout(300)
    await page.keyboard.press("Space")
    await until(async () => ((await inProgress())[1] === first ? true : undefined), "the card to go down one place")
    await until(
      async () => ((await cardByTitle(first))?.position === 1 ? true : undefined),
      "the keyboard move down to reach the server"
    )

    // the menu: Move up
    const order = async () =>
      page.locator(`section.column:has(h2:text-is("In Progress")) .card-title`).allTextContents()
    const before = await order()
    const last = before[before.length - 1]!
    await cardIn("In Progress", last)
      .getByRole("button", { name: /^Actions for / })
      .click()
    await expect(page.getByRole("button", { name: "Move right" }).isEnabled()).resolves.toBe(true)
    await page.getByRole("button", { name: "Move up" }).click()
    const after = await order()
    expect(after.indexOf(last)).toBe(before.length - 2)
    await until(
      async () => ((await cardByTitle(last))?.position === before.length - 2 ? true : undefined),
      "the menu move to reach the server"
    )
  })

  it("shows a card moved through the API in its new column without a reload", async () => {
    const card = await cardByTitle("Record the demo")
    const started = Date.now()
    const moved = await api("POST", `/v1/cards/${card.id}/move`, { columnId: columns.Done })
    expect(moved.status).toBe(200)
    await cardIn("Done", "Record the demo").waitFor({ timeout: 2000 })
    expect(Date.now() - started).toBeLessThan(2000)
    expect(await cardIn("In Progress", "Record the demo").count()).toBe(0)

    // a card filed elsewhere appears too, and one deleted elsewhere goes
    const created = await api("POST", "/v1/cards", {
      projectId,
      columnId: columns["To Do"],
      title: "Filed by an agent"
    })
    await cardIn("To Do", "Filed by an agent").waitFor({ timeout: 2000 })
    await api("DELETE", `/v1/cards/${created.body.id}`)
    await cardIn("To Do", "Filed by an agent").waitFor({ state: "detached", timeout: 2000 })
  })

  it("puts a moved card back and says why when the server refuses the move", async () => {
    // the server's refusal, stood in for by the browser: a 404 with the API's error body
    await page.route("**/api/v1/cards/*/move", (route) =>
      route.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ error: "card not found" }) })
    )
    await cardIn("Done", "Record the demo").locator(".card-handle").focus()
    await page.keyboard.press("Alt+ArrowLeft")
    await page.locator(".notice", { hasText: "Could not move “Record the demo”: card not found" }).waitFor()
    await cardIn("Done", "Record the demo").waitFor()
    expect(await cardIn("In Progress", "Record the demo").count()).toBe(0)
    await page.unroute("**/api/v1/cards/*/move")
    expect((await cardByTitle("Record the demo")).columnId).toBe(columns.Done)
  })

  it("shows who holds a claimed card and its session status, live", async () => {
    const card = await cardByTitle("Fix the signup bug")
    const claim = await api("POST", `/v1/cards/${card.id}/claim`, {})
    expect(claim.status).toBe(201)
    const badge = cardIn("In Progress", "Fix the signup bug").locator(".claim")
    await badge.waitFor({ timeout: 2000 })
    await until(async () => ((await badge.textContent())?.includes("active") ? true : undefined), "active")
    await api("POST", `/v1/agent-sessions/${claim.body.id}/activities`, { type: "elicitation", body: "Which browser?" })
    await until(
      async () => ((await badge.textContent())?.includes("awaiting input") ? true : undefined),
      "awaiting input"
    )
    await api("POST", `/v1/agent-sessions/${claim.body.id}/release`, { status: "released" })
    await badge.waitFor({ state: "detached", timeout: 2000 })
  })

  it("shows a hostile title as text, never running it", async () => {
    const title = "<img src=x onerror=window.__xss=1>"
    await page.getByRole("button", { name: "+ Add a card to Done" }).click()
    await page.getByLabel("Title of the new card in Done").fill(title)
    await page.keyboard.press("Enter")
    await cardIn("Done", title).waitFor()
    await page.keyboard.press("Escape")
    expect(await page.locator("section.column img").count()).toBe(0)
    expect(await page.evaluate(() => window.__xss)).toBeUndefined()
    // also after a reload (the board's own read) and through the live stream
    await api("POST", "/v1/cards", { projectId, columnId: columns.Done, title: `${title} again` })
    await cardIn("Done", `${title} again`).waitFor({ timeout: 2000 })
    await page.reload()
    await cardIn("Done", title).waitFor()
    expect(await page.evaluate(() => window.__xss)).toBeUndefined()
  })

  it("creates, renames, reorders and deletes columns; a column with cards is not deleted and says why", async () => {
    await page.getByRole("button", { name: "+ Add a column" }).click()
    await page.getByLabel("Name of the new column").fill("Review")
    await page.keyboard.press("Enter")
    await page.locator('h2.column-name:text-is("Review")').waitFor()

    await page.getByRole("button", { name: "Actions for column Review" }).click()
    await page.getByRole("button", { name: "Rename" }).click()
    await page.getByLabel("New name for column Review").fill("QA")
    await page.keyboard.press("Enter")
    await page.locator('h2.column-name:text-is("QA")').waitFor()

    await page.getByRole("button", { name: "Actions for column QA" }).click()
    await page.getByRole("button", { name: "Move left" }).click()
    await until(async () => {
      const names = await page.locator("h2.column-name").allTextContents()
      return names.join() === "To Do,In Progress,QA,Done" ? true : undefined
    }, "the column to move left")
    // the page shows the move at once (optimistic); the server has it once its PATCH is answered
    await until(async () => {
      const board = await api("GET", `/v1/board/${projectId}`)
      const names = (board.body.columns as Array<any>).map((c) => c.name).join()
      return names === "To Do,In Progress,QA,Done" ? true : undefined
    }, "the server to have the column moved left")

    // Done holds cards: the server answers 409 and the page shows its message
    page.once("dialog", (d) => void d.accept())
    await page.getByRole("button", { name: "Actions for column Done" }).click()
    await page.getByRole("button", { name: "Delete" }).click()
    await page.locator(".notice", { hasText: "Could not delete “Done”" }).waitFor()
    expect(await page.locator('h2.column-name:text-is("Done")').count()).toBe(1)

    page.once("dialog", (d) => void d.accept())
    await page.getByRole("button", { name: "Actions for column QA" }).click()
    await page.getByRole("button", { name: "Delete" }).click()
    await page.locator('h2.column-name:text-is("QA")').waitFor({ state: "detached" })
    const after = await api("GET", `/v1/board/${projectId}`)
    expect((after.body.columns as Array<any>).map((c) => c.name)).toEqual(["To Do", "In Progress", "Done"])
  })

  it("shows each column's kind and sets it from the column menu; a card in a done column is never overdue", async () => {
    const kindOf = (column: string) => page.locator(`section.column:has(h2:text-is("${column}")) .column-kind`)
    expect(await kindOf("To Do").textContent()).toBe("Kind: To do")
    expect(await kindOf("In Progress").textContent()).toBe("Kind: In progress")
    expect(await kindOf("Done").textContent()).toBe("Kind: Done")
    const past = new Date(Date.now() - 3 * 86_400_000).toISOString()
    for (const [column, title] of [
      ["To Do", "Late and waiting"],
      ["Done", "Late but shipped"]
    ] as const) {
      const r = await api("POST", "/v1/cards", { projectId, columnId: columns[column], title })
      expect((await api("PATCH", `/v1/cards/${r.body.id}`, { dueAt: past })).status).toBe(200)
    }
    const waiting = cardIn("To Do", "Late and waiting")
    const shipped = cardIn("Done", "Late but shipped")
    await waiting.locator(".due.overdue").waitFor()
    await shipped.locator(".due").waitFor()
    expect(await shipped.locator(".due.overdue").count()).toBe(0)

    // To Do made a done column from its menu: the server has it, and its late card is no longer overdue
    await page.getByRole("button", { name: "Actions for column To Do" }).click()
    await page.locator(".menu-kinds").getByRole("button", { name: "Done", exact: true }).click()
    await until(
      async () =>
        (await api("GET", `/v1/board/${projectId}`)).body.columns.find((c: any) => c.name === "To Do")?.kind === "done"
          ? true
          : undefined,
      "the column's kind to change"
    )
    await waiting.locator(".due.overdue").waitFor({ state: "detached" })
    expect(await waiting.locator(".due").count()).toBe(1)
    expect(await kindOf("To Do").textContent()).toBe("Kind: Done")
    // and back, for the tests after this one
    await page.getByRole("button", { name: "Actions for column To Do" }).click()
    await page.locator(".menu-kinds").getByRole("button", { name: "To do", exact: true }).click()
    await waiting.locator(".due.overdue").waitFor()
  })

  it("searches cards; a result opens the card panel at ?card=", async () => {
    await page.getByLabel("Search cards").fill("launch post")
    await page.keyboard.press("Enter")
    const result = page.locator(".search-results a", { hasText: "Write the launch post" })
    await result.waitFor()
    await result.click()
    const card = await cardByTitle("Write the launch post")
    await page.waitForURL(`**/p/${projectId}?card=${card.id}`)
    // clicking a card opens it the same way
    await page.goto(`${app.url}/p/${projectId}`)
    await cardIn("In Progress", "Write the launch post").locator(".card-handle").click()
    await page.waitForURL(`**/p/${projectId}?card=${card.id}`)
  })

  it("says so when an answer cannot be read, and when the server answers an error without a message", async () => {
    await page.goto(`${app.url}/p/${projectId}`)
    const search = async (body: string, status: number) => {
      await page.route("**/api/v1/search?*", (route) =>
        route.fulfill({ status, contentType: "application/json", body })
      )
      await page.getByLabel("Search cards").fill(`query ${status}`)
      await page.keyboard.press("Enter")
      const alert = page.locator(".board-search [role=alert]")
      await alert.waitFor()
      const text = await alert.textContent()
      await page.unroute("**/api/v1/search?*")
      return text
    }
    // a success cut off mid-answer
    expect(await search('[{"id": "x", "tit', 200)).toBe(
      "The server's answer could not be read (cut off or not JSON): try again."
    )
    // a proxy's bare 502
    expect(await search("<html>Bad gateway</html>", 502)).toBe(
      "The server had a problem (HTTP 502): try again in a moment."
    )
    await page.getByLabel("Search cards").fill("")
  })

  it("says a board address that names no project is unavailable, and does not ask again", async () => {
    const reads: Array<string> = []
    const onRequest = (r: { url: () => string }) => {
      if (r.url().includes("/api/v1/board/")) reads.push(r.url())
    }
    page.on("request", onRequest)
    await page.goto(`${app.url}/p/not-a-project`)
    await page.getByRole("heading", { name: "Board unavailable" }).waitFor()
    const alert = await page.getByRole("alert").textContent()
    expect(alert).toMatch(/projectId/)
    expect(alert).not.toMatch(/Trying again/)
    await page.waitForTimeout(1500)
    page.off("request", onRequest)
    expect(reads).toHaveLength(1)
  })

  it("has no serious or critical accessibility violation on the board (axe-core)", async () => {
    await page.goto(`${app.url}/p/${projectId}`)
    await page.locator(".live-live").waitFor()
    // evaluated through the DevTools protocol: the page's CSP refuses inline script tags, rightly
    await page.evaluate(fs.readFileSync(path.join(import.meta.dirname, "../node_modules/axe-core/axe.min.js"), "utf8"))
    const violations = await page.evaluate(async () => {
      const result = await window.axe.run(document)
      return (result.violations as Array<any>)
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n: any) => n.target.join(" ")).join(", ")})`)
    })
    expect(violations).toEqual([])
  })

  it("fits a 375 px phone: the columns scroll inside the board, the page does not scroll sideways", async () => {
    const phone = await context.newPage()
    watch(phone)
    await phone.setViewportSize({ width: 375, height: 740 })
    await phone.goto(`${app.url}/p/${projectId}`)
    await phone.locator("section.column").first().waitFor()
    const widths = await phone.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
      board: document.querySelector(".board")!.scrollWidth,
      boardBox: document.querySelector(".board")!.clientWidth
    }))
    expect(widths.page).toBeLessThanOrEqual(widths.viewport)
    expect(widths.board).toBeGreaterThan(widths.boardBox)
    await phone.close()
  })

  it("sends a visitor to sign in keeping the page, shows the server's errors, signs in and out", async () => {
    const visitor = await browser.newContext()
    const p = await visitor.newPage()
    watch(p)
    await p.goto(`${app.url}/p/${projectId}?card=x`)
    await p.waitForURL(`**/signin?next=${encodeURIComponent(`/p/${projectId}?card=x`)}`)
    await p.getByLabel("Email").fill(account.email)
    await p.getByLabel("Password").fill("not the password")
    await p.getByRole("button", { name: "Sign in" }).click()
    const alert = p.getByRole("alert")
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/\S/)

    // signing up an address that has an account: the server's own message
    await p.getByRole("link", { name: "Create an account" }).click()
    await p.waitForURL("**/signup?next=*")
    await p.getByLabel("Full name").fill("Someone")
    await p.getByLabel("Email").fill(account.email)
    await p.getByLabel(/^Password/).fill(SUITE_PASSWORD)
    await p.getByRole("button", { name: "Create account" }).click()
    await alert.waitFor()
    const direct = await call(server.baseUrl, "POST", "/v1/auth/signup", {
      body: { email: account.email, password: SUITE_PASSWORD, full_name: "Someone" }
    })
    // the same message; its countdown ("try again in 287 seconds") may have ticked in between
    const countdown = (text: string | null) => text?.replace(/\d+ seconds/, "N seconds")
    expect(countdown(await alert.textContent())).toBe(countdown(direct.body.error))

    // signing in lands on the page the visitor asked for
    await p.getByRole("link", { name: "Sign in" }).click()
    await p.getByLabel("Email").fill(account.email)
    await p.getByLabel("Password").fill(SUITE_PASSWORD)
    await p.getByRole("button", { name: "Sign in" }).click()
    await p.waitForURL(`**/p/${projectId}?card=x`)
    await p.getByRole("heading", { level: 1, name: "Launch" }).waitFor()
    // `x` names no card: the panel says so (a modal dialog), and Escape closes it
    await p.getByRole("dialog", { name: "Card not found" }).waitFor()
    await p.keyboard.press("Escape")

    // signing out revokes the session: the app is back at sign-in and the cookie no longer works
    await p.getByRole("button", { name: "Sign out" }).click()
    await p.waitForURL("**/signin")
    expect(await p.evaluate(async () => (await fetch("/api/v1/me")).status)).toBe(401)
    await visitor.close()
  })

  it("after the stream drops, catches up from its last event without a reload", async () => {
    // the page reaches the server through a TCP relay the test can cut: a dropped connection,
    // then a server answering 503 (EventSource gives up on those: the page reads the board
    // again and opens a new stream with ?after=<its cursor>), then the server back
    const relay = await tcpRelay(Number(new URL(app.url).port))
    const streams: Array<string> = []
    page.on("request", (r) => {
      if (r.url().includes("/events/stream")) streams.push(r.url())
    })
    await page.goto(`http://127.0.0.1:${relay.port}/p/${projectId}`)
    await page.locator(".live-live").waitFor()
    // one change seen live, so the page has a last event id
    const seen = await api("POST", "/v1/cards", { projectId, columnId: columns["To Do"], title: "Seen live" })
    await cardIn("To Do", "Seen live").waitFor({ timeout: 2000 })

    relay.down()
    await page.locator(".live-reconnecting").waitFor({ timeout: 5000 })
    const card = await cardByTitle("Fix the signup bug")
    await api("POST", `/v1/cards/${card.id}/move`, { columnId: columns.Done, position: 0 })
    await api("POST", "/v1/cards", { projectId, columnId: columns["To Do"], title: "Filed while away" })
    await api("DELETE", `/v1/cards/${seen.body.id}`)
    await page.waitForTimeout(1500)
    relay.up()

    await page.locator(".live-live").waitFor({ timeout: 15_000 })
    await cardIn("Done", "Fix the signup bug").waitFor({ timeout: 2000 })
    await cardIn("To Do", "Filed while away").waitFor({ timeout: 2000 })
    await cardIn("To Do", "Seen live").waitFor({ state: "detached", timeout: 2000 })
    expect(streams.some((u) => /[?&]after=[0-9a-f]{24}$/.test(u))).toBe(true)
    await page.goto(`${app.url}/p/${projectId}`)
    await relay.close()
  })

  it("logged no console error on the way", () => {
    expect(consoleErrors).toEqual([])
  })
})
