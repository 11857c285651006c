/**
 * Works around npm's `npx`: it runs pnpm under `sh -c`, and a SIGTERM to npx kills that shell
 * without forwarding the signal, orphaning pnpm and the server (which keeps serving). When the
 * server was started by a package-manager script (`pnpm start`, `pnpm board serve`), it notes
 * its launcher chain (parent, grandparent, … up to init) and stops itself as if it had
 * received SIGTERM once any of them has been orphaned or is gone. The whole chain is watched
 * because pnpm may interpose shell wrappers (`node_modules/.bin/node` is one until the
 * postinstall replaces it). Linux only (reads /proc); elsewhere it does nothing.
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

const MAX_LEVELS = 6

export const stopWhenLauncherDies = (intervalMs = 500): void => {
  const event = process.env.npm_lifecycle_event
  if ((event !== "start" && event !== "board") || process.platform !== "linux") return
  const chain: Array<{ pid: number; ppid: number }> = []
  let pid = process.ppid
  while (pid > 1 && chain.length < MAX_LEVELS) {
    const ppid = parentOf(pid)
    if (ppid === undefined) break
    chain.push({ pid, ppid })
    pid = ppid
  }
  if (chain.length === 0) return
  const timer = setInterval(() => {
    if (process.ppid !== chain[0]!.pid || chain.some((link) => parentOf(link.pid) !== link.ppid)) {
      clearInterval(timer)
      process.kill(process.pid, "SIGTERM")
    }
  }, intervalMs)
  timer.unref()
}
