/**
 * The runner's loop: `--concurrency` workers take cards from the project's queue (`claim-next`:
 * a fleet of runners never takes one card twice) and work each (work.ts). A card this process
 * already worked is not taken again while it runs (a failure would otherwise loop): the queue
 * is asked only when the board shows a card it has not tried, and a tried card the queue hands
 * out is held while the queue is asked again, then released. SIGTERM stops the commands and
 * releases every claim before the runner exits. An unreachable server is waited for.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ApiFailure } from "./api.ts"
import type { RunnerContext } from "./context.ts"
import { makeLock } from "./context.ts"
import { makeFollowUps } from "./followUp.ts"
import { messageOf, persist } from "./retry.ts"
import { type Claimed, type Running, workCard } from "./work.ts"

/** A `board` program for the command's PATH: this Node running this CLI. */
const makeShim = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "board-runner-"))
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`
  fs.writeFileSync(
    path.join(dir, "board"),
    `#!/bin/sh\nexec ${q(process.execPath)} ${q(process.argv[1] ?? "board")} "$@"\n`,
    {
      mode: 0o755
    }
  )
  return dir
}

export const runLoop = async (base: Omit<RunnerContext, "repoLock" | "shimDir" | "stopping">): Promise<void> => {
  const { api, log, config } = base
  let stopping = false
  const wakers = new Set<() => void>()
  const running: Running = new Set()
  const shimDir = makeShim()
  const ctx: RunnerContext = { ...base, repoLock: makeLock(), shimDir, stopping: () => stopping }
  const tried = new Set<string>()
  const followUps = makeFollowUps(ctx)
  const queueLock = makeLock()

  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info("stopping: releasing every claim", { signal, running: running.size })
    for (const child of running) child.stop()
    for (const wake of wakers) wake()
  }
  const onTerm = () => stop("SIGTERM")
  const onInt = () => stop("SIGINT")
  process.on("SIGTERM", onTerm)
  process.on("SIGINT", onInt)

  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(t)
        wakers.delete(wake)
        resolve()
      }
      const t = setTimeout(wake, ms)
      wakers.add(wake)
    })

  const fromQueue = async (): Promise<Claimed | undefined> => {
    const board = await api.board(config.projectId)
    const todo = new Set(board.columns.filter((c) => c.kind === "todo").map((c) => c.id))
    if (!board.cards.some((c) => todo.has(c.columnId) && c.claim === null && !tried.has(c.id))) return undefined
    const held: Array<string> = []
    try {
      for (let i = 0; i < 50 && !stopping; i++) {
        const taken = await api.claimNext(config.projectId, config.ttlSeconds)
        if (taken === undefined) return undefined
        if (!tried.has(taken.card.id)) return taken
        held.push(taken.session.id)
      }
      return undefined
    } finally {
      for (const id of held) await persist(log, "release", () => api.release(id)).catch(() => undefined)
    }
  }

  const next = () =>
    queueLock(async (): Promise<Claimed | undefined> => {
      if (stopping) return undefined
      if (config.followUp) {
        const again = await followUps.next()
        if (again !== undefined) return again
      }
      return fromQueue()
    })

  let unreachableSince: number | undefined
  const worker = async (n: number) => {
    while (!stopping) {
      let claimed: Claimed | undefined
      try {
        claimed = await next()
        if (unreachableSince !== undefined) {
          log.info("server reachable again", { worker: n })
          unreachableSince = undefined
        }
      } catch (e) {
        if (e instanceof ApiFailure && e.unreachable) {
          if (unreachableSince === undefined) log.warn("server unreachable; waiting", { worker: n, error: e.message })
          unreachableSince ??= Date.now()
        } else log.error("cannot take a card", { worker: n, error: messageOf(e) })
      }
      if (claimed === undefined) {
        await nap(config.pollMs)
        continue
      }
      tried.add(claimed.card.id)
      if (stopping) {
        await persist(log, "release", () => api.release(claimed.session.id), 10_000).catch(() => undefined)
        break
      }
      const outcome = await workCard(ctx, claimed, running)
      if (outcome.kind === "shipped") followUps.record(claimed.card, outcome.branch, outcome.finishedAt)
    }
  }

  log.info("runner started", {
    project: config.projectId,
    repo: config.repo,
    concurrency: config.concurrency,
    followUp: config.followUp
  })
  try {
    await Promise.all(Array.from({ length: config.concurrency }, (_, i) => worker(i + 1)))
  } finally {
    process.off("SIGTERM", onTerm)
    process.off("SIGINT", onInt)
    fs.rmSync(shimDir, { recursive: true, force: true })
    log.info("runner stopped", {})
  }
}
