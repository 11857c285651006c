/** Calls to the server that must land (a release, the last report): retried while it is unreachable. */
import { ApiFailure } from "./api.ts"
import type { RunnerLog } from "./log.ts"

export const persist = async <A>(log: RunnerLog, what: string, f: () => Promise<A>, withinMs = 120_000): Promise<A> => {
  const deadline = Date.now() + withinMs
  let wait = 500
  for (;;) {
    try {
      return await f()
    } catch (e) {
      if (!(e instanceof ApiFailure) || !e.unreachable || Date.now() + wait > deadline) throw e
      log.warn("server unreachable, retrying", { step: what, error: e.message, retryInMs: wait })
      await new Promise((r) => setTimeout(r, wait))
      wait = Math.min(wait * 2, 5000)
    }
  }
}

/** The message of anything thrown. */
export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e))
