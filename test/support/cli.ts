/** Runs the real `board` binary as a user would: its own process, stdin, stdout and stderr apart. */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { boardBin, repoRoot, SPAWNED_NODE_FLAGS } from "./spawn.ts"

export interface BoardRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** A home of its own: XDG_CONFIG_HOME in a fresh temporary directory. */
export const tempConfigHome = (): string => fs.mkdtempSync(path.join(os.tmpdir(), "board-cli-"))

export const runBoard = (
  args: ReadonlyArray<string>,
  options: { env?: Record<string, string | undefined>; input?: string } = {}
): Promise<BoardRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SPAWNED_NODE_FLAGS, boardBin, ...args], {
      cwd: repoRoot,
      env: {
        ...process.env,
        // nothing from the developer's own setup leaks in
        BOARD_API_KEY: undefined,
        BOARD_API_URL: undefined,
        BOARD_INTAKE_KEY: undefined,
        BOARD_TIMEOUT: undefined,
        NO_COLOR: undefined,
        ...options.env
      },
      stdio: ["pipe", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d) => (stdout += d))
    child.stderr.on("data", (d) => (stderr += d))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout, stderr }))
    child.stdin.end(options.input ?? "")
  })
