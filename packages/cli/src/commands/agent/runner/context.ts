/** What every part of the runner shares: its settings, the server, the log, the repository lock. */
import type { RunnerApi } from "./api.ts"
import type { RunnerLog } from "./log.ts"
import type { OutputParser } from "./presets.ts"

export interface RunnerConfig {
  readonly projectId: string
  readonly repo: string
  readonly command: string
  readonly parser: () => OutputParser
  readonly concurrency: number
  readonly timeoutMs: number
  readonly ttlSeconds: number
  readonly pollMs: number
  readonly openPr: boolean
  /** A column name or id; else the first `in_progress` column. */
  readonly doneColumn: string | undefined
  readonly followUp: boolean
  /** The API root the command's `board` talks to, and the key it uses. */
  readonly apiUrl: string
  readonly apiKey: string
  /** Where people open a card: `<webOrigin>/p/<projectId>?card=<id>`. */
  readonly webOrigin: string
}

export interface RunnerContext {
  readonly config: RunnerConfig
  readonly api: RunnerApi
  readonly log: RunnerLog
  /** Runs git steps on the shared repository one at a time (fetch, worktree add and remove). */
  readonly repoLock: <A>(f: () => Promise<A>) => Promise<A>
  /** A directory with a `board` program, put first on the command's PATH. */
  readonly shimDir: string
  /** True once SIGTERM (or SIGINT) asked the runner to stop. */
  readonly stopping: () => boolean
}

/** A lock: each call runs after the previous one settled. */
export const makeLock = () => {
  let last: Promise<unknown> = Promise.resolve()
  return <A>(f: () => Promise<A>): Promise<A> => {
    const next = last.then(f, f)
    last = next.catch(() => undefined)
    return next
  }
}

export const sleep = (ms: number, wake?: { on: (f: () => void) => void }) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms)
    wake?.on(() => {
      clearTimeout(t)
      resolve()
    })
  })
