/**
 * Two (or more) real `board serve` processes on one fresh PostgreSQL database, as deployed behind
 * one load balancer: one public origin, one SECRET, and the suite's Redis when it has one. They
 * start at once on an empty database, so migrations race as they would in a rolling deploy;
 * `migrated` starts them on a copy of the run's migrated template instead, for a suite about
 * something else (templates.ts).
 */
import { createTestDatabase } from "./backends.ts"
import { exited } from "./poll.ts"
import { freePort } from "./server.ts"
import { spawnBoard, waitForHealth } from "./spawn.ts"

export interface Instances {
  /** Each instance's API root, `http://127.0.0.1:PORT/api`. */
  readonly bases: ReadonlyArray<string>
  /** Each instance's output so far (stdout and stderr). */
  readonly outputs: ReadonlyArray<() => string>
  /** The database they share, e.g. to read it directly. */
  readonly databaseUrl: string
  /** SIGTERM to each, awaited, then the database dropped. */
  readonly stop: () => Promise<void>
}

export const startInstances = async (
  env: Record<string, string | undefined> = {},
  count = 2,
  { migrated = false }: { readonly migrated?: boolean } = {}
): Promise<Instances> => {
  const db = await createTestDatabase({ migrated })
  const ports: Array<number> = []
  for (let i = 0; i < count; i++) ports.push(await freePort())
  const servers = ports.map((port) =>
    spawnBoard(["serve"], {
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${ports[0]}`,
      SECRET: "one-secret-shared-by-both-instances-0123456789",
      ...env
    })
  )
  const stop = async () => {
    for (const s of servers) s.child.kill("SIGTERM")
    await Promise.all(servers.map((s) => exited(s.child, 30_000)))
    await db.drop()
  }
  const bases = ports.map((p) => `http://127.0.0.1:${p}/api`)
  try {
    await Promise.all(bases.map((b) => waitForHealth(b)))
  } catch (e) {
    await stop()
    throw e
  }
  return { bases, outputs: servers.map((s) => s.output), databaseUrl: db.url, stop }
}
