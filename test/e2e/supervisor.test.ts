/**
 * Issue 17, signals: docs/operations.md's systemd unit runs the server directly (`npx -y pnpm@10
 * start` passes the signal on and waits since issue 28, launch.test.ts, but asks the registry at
 * every start), `node <SERVER_NODE_FLAGS> bin/board.mjs serve` on the project's Node (the flags
 * from bench/startup.ts; server-flags.test.ts keeps the unit's text the same): the process the
 * supervisor holds is the one that exits last. This is that exact command line.
 */
import * as fs from "node:fs"
import * as http from "node:http"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { SERVER_NODE_FLAGS } from "../../bench/startup.ts"
import { freePort } from "../support/server.ts"
import { repoRoot, spawnProcess, waitForHealth } from "../support/spawn.ts"
import { tmpDirs } from "../support/tmp.ts"
import { migratedDataDir } from "../support/templates.ts"

const tmpDir = tmpDirs("board-supervised-")

describe("run under a supervisor (docs/operations.md's systemd unit)", () => {
  it(`SIGTERM to \`node_modules/.bin/node ${SERVER_NODE_FLAGS.join(" ")} bin/board.mjs serve\` exits 0 only after a request in flight is answered and DATA_DIR is released`, async () => {
    const dataDir = migratedDataDir(tmpDir())
    const port = await freePort()
    const base = `http://127.0.0.1:${port}/api`
    const server = spawnProcess(
      path.join(repoRoot, "node_modules/.bin/node"),
      [...SERVER_NODE_FLAGS, "bin/board.mjs", "serve"],
      { DATA_DIR: dataDir, PORT: String(port), DATABASE_URL: undefined, REDIS_URL: undefined, LOG_FORMAT: "json" }
    )
    // what is true at the very moment the supervised process exits
    let lockAtExit: boolean | undefined
    let exitedAt = 0
    const exited = new Promise<number | null>((resolve) =>
      server.child.on("exit", (code) => {
        exitedAt = Date.now()
        lockAtExit = fs.existsSync(path.join(dataDir, "board.lock"))
        resolve(code)
      })
    )
    await waitForHealth(base)
    expect(fs.existsSync(path.join(dataDir, "board.lock"))).toBe(true)

    // a signup whose body is still arriving when the signal comes
    const body = JSON.stringify({ email: "late@example.com", password: "k8#mQ2vz", full_name: "Late" })
    const answered = new Promise<{ status: number; at: number }>((resolve, reject) => {
      const request = http.request(
        `${base}/v1/auth/signup`,
        { method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
        (response) => {
          response.resume()
          response.on("end", () => resolve({ status: response.statusCode ?? 0, at: Date.now() }))
        }
      )
      request.on("error", reject)
      request.write(body.slice(0, 10))
      setTimeout(() => {
        server.child.kill("SIGTERM")
        // the rest of the body, well after the signal
        setTimeout(() => request.end(body.slice(10)), 700)
      }, 300)
    })
    const reply = await answered
    const code = await exited
    expect(reply.status, server.output()).toBe(201)
    expect(code, server.output()).toBe(0)
    expect(exitedAt).toBeGreaterThanOrEqual(reply.at)
    expect(lockAtExit).toBe(false)
  })
})
