/**
 * The board server on PostgreSQL seeded before the first scenario: the benchmark's connection to
 * its database (closed on every exit path), the data of bench/seed.ts checked against the
 * invariants, PostgreSQL's version and settings for the report, the intake token, the forge hook,
 * and the MCP session of the tool-call scenario.
 */
import { makeApi } from "./api.ts"
import { cleanups } from "./cleanup.ts"
import { type BenchDatabase, openDb } from "./db.ts"
import { seedForge } from "./forge.ts"
import { log } from "./log.ts"
import { sizes } from "./options.ts"
import { checkInvariants, mintIntakeToken, seed } from "./seed.ts"

/** Seeds the server at `origin` on `database`; the connection stays open for the run. */
export const seedServer = async (origin: string, database: BenchDatabase) => {
  log("seeding")
  const seedStarted = performance.now()
  const db = await openDb(database.url)
  // a close waits for a running statement (the 1,000,000-card insert takes a minute): on an abort, give up after
  // 2 s and let DROP DATABASE … WITH (FORCE) end that backend
  cleanups.push({
    name: "close the seeding connection",
    run: () => Promise.race([db.close(), new Promise<void>((r) => setTimeout(r, 2_000).unref())])
  })
  const seeded = await seed(makeApi(`${origin}/api`), db, log, sizes)
  const problems = await checkInvariants(db)
  if (problems.length > 0) throw new Error(`seed broke an invariant:\n${problems.join("\n")}`)
  const pgSettings = (
    await db.query<{ v: string; fsync: string; commit: string; autovacuum: string }>(
      `SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS commit,
         current_setting('autovacuum') AS autovacuum`
    )
  )[0]
  const pgVersion = pgSettings?.v ?? ""
  const seedSeconds = (performance.now() - seedStarted) / 1000
  log(
    `  seeded in ${seedSeconds.toFixed(1)} s (${Object.entries(seeded.timings)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
      .join(", ")})`
  )
  const intakeToken = await mintIntakeToken(makeApi(`${origin}/api`), seeded)
  const forge = await seedForge(makeApi(`${origin}/api`), seeded.apiKey, seeded.boardProjectId, seeded.boardCardIds[0]!)
  // an MCP session for the tool-call scenario: initialize, then the initialized notification
  const mcpHeaders = {
    "x-api-key": seeded.apiKey,
    "content-type": "application/json",
    accept: "application/json, text/event-stream"
  }
  const init = await fetch(`${origin}/api/mcp`, {
    method: "POST",
    headers: mcpHeaders,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } }
    })
  })
  const mcpSession = init.headers.get("mcp-session-id") ?? ""
  await init.text()
  await fetch(`${origin}/api/mcp`, {
    method: "POST",
    headers: { ...mcpHeaders, "mcp-session-id": mcpSession, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
  }).then((r) => r.text())
  return { db, seeded, pgSettings, pgVersion, seedSeconds, intakeToken, forge, mcpSession }
}
