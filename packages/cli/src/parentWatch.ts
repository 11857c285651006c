/**
 * Works around npm's `npx`: it runs pnpm under `sh -c`, and a SIGTERM to npx kills that shell
 * without forwarding the signal, orphaning pnpm and the server (which keeps serving). When the
 * server was started by a package-manager script, it watches its parent (pnpm): once the
 * parent has been orphaned, the server stops itself as if it had received SIGTERM.
 * Linux only (reads /proc); elsewhere it does nothing.
 */
import * as fs from "node:fs"

const parentOf = (pid: number): number | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // the command name may contain spaces and parentheses: fields resume after the last ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[1])
  } catch {
    return undefined
  }
}

export const stopWhenLauncherDies = (intervalMs = 500): void => {
  if (process.env.npm_lifecycle_event === undefined || process.platform !== "linux") return
  const parent = process.ppid
  const grandparent = parentOf(parent)
  if (grandparent === undefined || grandparent <= 1) return
  const timer = setInterval(() => {
    const now = parentOf(parent)
    if (process.ppid !== parent || now !== grandparent) {
      clearInterval(timer)
      process.kill(process.pid, "SIGTERM")
    }
  }, intervalMs)
  timer.unref()
}
