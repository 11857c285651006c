/**
 * The processes under test as children on free ports, each stopped on every exit path: the board
 * server (`board serve` with the project's Node flags, on PostgreSQL or the embedded database) and
 * the comparison servers (the baseline, the framework, the thin service); and the environment
 * every child starts from.
 */
import * as path from "node:path"
import { cleanups } from "./cleanup.ts"
import { log } from "./log.ts"
import { repoRoot } from "./options.ts"
import { type Child, freePort, spawnChild, stopChild, waitForOk } from "./processes.ts"
import { SERVER_NODE_FLAGS } from "./startup.ts"

export const baseEnv: Record<string, string> = {}
for (const name of ["PATH", "HOME", "LANG", "TZ"])
  if (process.env[name] !== undefined) baseEnv[name] = process.env[name]!

/** `board serve` as a child on a free port, stopped on every exit path; `databaseEnv` picks its database. */
export const startBoardServer = async (
  name: string,
  databaseEnv: Record<string, string>,
  timeoutMs: number
): Promise<{ origin: string; child: Child }> => {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  // as `pnpm start` runs it: the young generation capped (SERVER_NODE_FLAGS; docs/performance.md, Memory)
  const child = spawnChild(
    name,
    process.execPath,
    [...SERVER_NODE_FLAGS, path.join(repoRoot, "bin/board.mjs"), "serve"],
    {
      cwd: repoRoot,
      env: {
        ...baseEnv,
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        ...databaseEnv,
        LOG_LEVEL: "error",
        LOG_FORMAT: "json",
        RATE_LIMIT: "100000000/60s",
        SIGNUPS_OPEN: "true"
      }
    }
  )
  cleanups.push({ name: `stop the ${name}`, run: () => stopChild(child) })
  await waitForOk(child, `${origin}/api/v1/health`, timeoutMs)
  log(`${name} pid ${child.pid} on ${origin}`)
  return { origin, child }
}

/**
 * A comparison server (`file`, answering 200 at `probe`: the baseline, the framework, the thin
 * service) as a child on a free port with `env` added, stopped on every exit path.
 */
export const startHelloServer = async (
  name: string,
  file: string,
  probe: string,
  env: Record<string, string> = {},
  timeoutMs = 15_000
): Promise<{ origin: string; child: Child }> => {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const child = spawnChild(name, process.execPath, [path.join(repoRoot, file)], {
    cwd: repoRoot,
    env: { ...baseEnv, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ...env }
  })
  cleanups.push({ name: `stop the ${name}`, run: () => stopChild(child) })
  await waitForOk(child, `${origin}${probe}`, timeoutMs)
  log(`${name} pid ${child.pid} on ${origin}`)
  return { origin, child }
}
