/**
 * The run on the embedded database, after every PostgreSQL scenario: a second `board serve` with
 * no DATABASE_URL and a fresh DATA_DIR (PGlite inside the server process), its idle RSS, seeding
 * through the API, the write scenarios against it, and its highest RSS before it stops.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeApi } from "./api.ts"
import { cleanups } from "./cleanup.ts"
import { log } from "./log.ts"
import { IDLE_MS, selected } from "./options.ts"
import { type Child, readPeakRss, readRss, stopChild } from "./processes.ts"
import type { Scenario } from "./scenario-types.ts"
import { mintIntakeToken, seedAccount, seedMovePool } from "./seed.ts"
import { startBoardServer } from "./servers.ts"
import { writeScenarios } from "./write-scenarios.ts"

/**
 * The write scenarios against a second server on the embedded database (no DATABASE_URL, a fresh
 * DATA_DIR), seeded through the API like the PostgreSQL one; stopped and its DATA_DIR removed after.
 */
export const runEmbedded = async (
  register: (p: { origin: string; child: Child }) => void,
  run: (sc: Scenario) => Promise<void>
) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "board-bench-embedded-"))
  cleanups.push({ name: `remove ${dataDir}`, run: async () => fs.rmSync(dataDir, { recursive: true, force: true }) })
  const server = await startBoardServer("embedded board server", { DATA_DIR: dataDir }, 120_000)
  register(server)
  // idle after start, as bench/startup.ts reads the PostgreSQL server's: 2 s after its first 200
  await new Promise((r) => setTimeout(r, IDLE_MS))
  const idleRss = readRss(server.child.pid)
  const started = performance.now()
  const api = makeApi(`${server.origin}/api`)
  const account = await seedAccount(api)
  const intakeToken = await mintIntakeToken(api, account)
  const movePool = await seedMovePool(api, account)
  const seedSeconds = (performance.now() - started) / 1000
  log(
    `  seeded the embedded database through the API in ${seedSeconds.toFixed(1)} s (move pool: ${movePool.moveCardIds.length} cards)`
  )
  for (const sc of writeScenarios({ ...account, ...movePool, intakeToken }, "embedded").filter((sc) => selected(sc.id)))
    await run(sc)
  if (server.child.hasExited())
    throw new Error(`the embedded board server exited during the benchmark:\n${server.child.output()}`)
  const output = server.child.output().trim()
  const peakRss = readPeakRss(server.child.pid)
  await stopChild(server.child)
  fs.rmSync(dataDir, { recursive: true, force: true })
  return { seedSeconds, output, moveCards: movePool.moveCardIds.length, idleRss, peakRss }
}
