/**
 * The smoke checks, in every run (not only --smoke), right before the scenarios they cover: each
 * scenario's request answers 2xx with the expected shape (the baseline, health, a card, the board
 * with all its cards, every search query), and the thin service answers as its scenarios expect
 * (a create read back, a seeded row read, 401 without its key).
 */
import { log } from "./log.ts"
import { smokeRun } from "./options.ts"
import type { ThinTarget } from "./scenario-types.ts"
import type { Seeded } from "./seed.ts"
import { searchQueries } from "./words.ts"

export const smoke = async (origin: string, helloOrigin: string, s: Seeded) => {
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) })
    const text = await res.text()
    if (res.status !== 200) throw new Error(`smoke check: GET ${url} answered ${res.status}: ${text.slice(0, 300)}`)
    return JSON.parse(text)
  }
  const key = { "x-api-key": s.apiKey }
  await get(`${helloOrigin}/`)
  await get(`${origin}/api/v1/health`)
  const card = await get(`${origin}/api/v1/cards/${s.boardCardIds[0]}`, key)
  if (card.id !== s.boardCardIds[0])
    throw new Error(`smoke check: GET /v1/cards/{id} answered another card: ${JSON.stringify(card).slice(0, 200)}`)
  const board = await get(`${origin}/api/v1/board/${s.boardProjectId}`, key)
  if (board.cards?.length !== s.boardCardIds.length)
    throw new Error(`smoke check: the board has ${board.cards?.length} cards, expected ${s.boardCardIds.length}`)
  const boardBytes = JSON.stringify(board).length
  const counts: Array<string> = []
  for (const q of searchQueries) {
    const found = await get(`${origin}/api/v1/search?q=${encodeURIComponent(q)}`, key)
    if (!Array.isArray(found))
      throw new Error(`smoke check: search "${q}" answered ${JSON.stringify(found).slice(0, 200)}`)
    // the tiny corpus of a --smoke run may well hold no match
    if (found.length === 0 && !smokeRun) throw new Error(`smoke check: search "${q}" found nothing`)
    counts.push(`"${q}" ${found.length}`)
  }
  log(
    `  smoke checks passed: board ${board.cards.length} cards (${(boardBytes / 1024).toFixed(0)} KiB JSON); search results returned: ${counts.join(", ")}`
  )
  return { boardBytes }
}

/** The thin service answers a handful of requests as the scenarios expect: a create read back, a seeded row, a refusal without the key. */
export const thinSmoke = async (origin: string, t: ThinTarget) => {
  const call = async (method: "GET" | "POST", p: string, headers: Record<string, string>, body?: string) => {
    const res = await fetch(`${origin}${p}`, { method, headers, body, signal: AbortSignal.timeout(30_000) })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
  const key = { "x-api-key": t.apiKey }
  const title = `Smoke card ${Date.now()}`
  const created = await call(
    "POST",
    "/cards",
    { ...key, "content-type": "application/json" },
    JSON.stringify({ projectId: t.createProject.id, columnId: t.createProject.columnId, title, priority: "high" })
  )
  if (created.status !== 201 || created.body.title !== title || typeof created.body.id !== "string")
    throw new Error(`smoke check: the thin service's create answered ${created.status} ${JSON.stringify(created.body)}`)
  for (const id of [created.body.id, t.readIds[0]!]) {
    const read = await call("GET", `/cards/${id}`, key)
    if (read.status !== 200 || read.body.id !== id)
      throw new Error(
        `smoke check: the thin service's read of ${id} answered ${read.status} ${JSON.stringify(read.body)}`
      )
  }
  const refused = await call("GET", `/cards/${t.readIds[0]}`, {})
  if (refused.status !== 401)
    throw new Error(`smoke check: the thin service answered ${refused.status} without its key`)
  log(`  smoke checks of the thin service passed: create read back, a seeded row read, 401 without the key`)
}
