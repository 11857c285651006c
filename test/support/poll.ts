/**
 * Waiting for something to happen, with a deadline instead of a fixed sleep: a fixed sleep is
 * too long on a quiet machine and too short on a busy one. Each returns as soon as the condition
 * holds and fails, naming what it waited for, when the deadline passes first.
 */
import type { ChildProcess } from "node:child_process"

export interface PollOptions {
  /** How long to wait before failing (default 10 s). */
  readonly timeoutMs?: number
  /** The pause between tries (default 25 ms). */
  readonly intervalMs?: number
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Calls `f` until it answers something other than undefined or false, and returns that. */
export const waitFor = async <T>(
  what: string,
  f: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 10_000, intervalMs = 25 }: PollOptions = {}
): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await f()
    if (v !== undefined && v !== false) return v
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await pause(intervalMs)
  }
}

/** Runs `check` (assertions) until it passes; past the deadline its last failure is the test's. */
export const eventually = async <T>(
  check: () => Promise<T> | T,
  { timeoutMs = 10_000, intervalMs = 25 }: PollOptions = {}
): Promise<T> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (e) {
      if (Date.now() > deadline) throw e
      await pause(intervalMs)
    }
  }
}

/** Waits for a child process to exit (or resolves at once if it has), within the deadline. */
export const exited = (child: ChildProcess, timeoutMs = 10_000): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs} ms`)), timeoutMs)
        child.once("exit", () => {
          clearTimeout(timer)
          resolve()
        })
      })
