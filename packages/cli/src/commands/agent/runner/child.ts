/**
 * Runs the operator's command for one card: `/bin/sh -c CMD` (CMD is the operator's own line;
 * nothing of the card is put into it), in the card's worktree, in a process group of its own so
 * a time limit or SIGTERM stops everything it started. The prompt goes to standard input; each
 * output line goes through the preset's parser to the batcher, redacted, and the last lines are
 * kept for an `error` activity.
 */
import { spawn } from "node:child_process"
import * as readline from "node:readline"
import type { Batcher } from "./batcher.ts"
import type { OutputParser } from "./presets.ts"

export interface ChildResult {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly timedOut: boolean
  readonly stopped: boolean
  /** The agent's final answer, when its output format has one. */
  readonly final: string | undefined
  /** The last lines of output, redacted. */
  readonly tail: ReadonlyArray<string>
}

export interface RunningChild {
  readonly done: Promise<ChildResult>
  /** Stops the command (SIGTERM to its group, SIGKILL after the grace). */
  readonly stop: () => void
}

export interface ChildOptions {
  readonly command: string
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly stdin: string
  readonly timeoutMs: number
  readonly parser: OutputParser
  readonly batcher: Batcher
  readonly redact: (s: string) => string
  readonly graceMs?: number
  readonly tailLines?: number
}

export const runChild = (o: ChildOptions): RunningChild => {
  const child = spawn("/bin/sh", ["-c", o.command], {
    cwd: o.cwd,
    env: o.env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"]
  })
  const tail: Array<string> = []
  const max = o.tailLines ?? 40
  let final: string | undefined
  let timedOut = false
  let stopped = false
  let killTimer: NodeJS.Timeout | undefined

  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal)
    } catch {
      // already gone
    }
  }
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    signalGroup("SIGTERM")
    killTimer ??= setTimeout(() => signalGroup("SIGKILL"), o.graceMs ?? 5000)
  }
  const limit = setTimeout(() => {
    timedOut = true
    stop()
  }, o.timeoutMs)

  const read = (stream: NodeJS.ReadableStream, name: "stdout" | "stderr") =>
    new Promise<void>((resolve) => {
      const lines = readline.createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })
      lines.on("line", (line) => {
        tail.push(o.redact(line))
        if (tail.length > max) tail.shift()
        const parsed = o.parser(line, name)
        if (parsed.final !== undefined) final = parsed.final
        for (const entry of parsed.entries) o.batcher.add(entry)
      })
      lines.on("close", resolve)
    })

  child.stdin.on("error", () => undefined) // a command that never reads its input
  child.stdin.end(o.stdin)
  const reading = Promise.all([read(child.stdout, "stdout"), read(child.stderr, "stderr")])
  const done = new Promise<ChildResult>((resolve) => {
    let settled = false
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return
      settled = true
      clearTimeout(limit)
      // the group may outlive its shell: stop what is left of it
      signalGroup("SIGKILL")
      if (killTimer !== undefined) clearTimeout(killTimer)
      // a grandchild holding the pipes open must not hold the runner: read for a moment more
      void Promise.race([reading, new Promise((r) => setTimeout(r, 1000))]).then(() =>
        resolve({ code, signal, timedOut, stopped, final, tail })
      )
    }
    child.on("exit", finish)
    child.on("error", (e) => {
      tail.push(`cannot start /bin/sh: ${e.message}`)
      finish(127, null)
    })
  })
  return {
    done,
    stop: () => {
      stopped = true
      stop()
    }
  }
}
