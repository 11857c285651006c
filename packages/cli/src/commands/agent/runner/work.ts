/**
 * One card, from claim to release: a worktree on the card's branch, the command run there with
 * the prompt on stdin and the card in its environment, heartbeats meanwhile, then by the outcome:
 * shipped (pushed, moved on, `response`), nothing changed (`response`, left where it was),
 * failed or timed out (`error` with the last lines, branch kept, released back).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { ApiFailure } from "./api.ts"
import { makeBatcher } from "./batcher.ts"
import { runChild, type RunningChild } from "./child.ts"
import type { RunnerContext } from "./context.ts"
import { ship, targetColumn } from "./finish.ts"
import { addWorktree, branchName, commitLeftovers, fetchDefault, head, removeWorktree } from "./git.ts"
import { redactor, secretValues } from "./redact.ts"
import { messageOf, persist } from "./retry.ts"

export interface Claimed {
  readonly session: { readonly id: string }
  readonly card: { readonly id: string; readonly ref: string; readonly title: string }
  /** Feedback from the forge, for a follow-up run on the same branch. */
  readonly feedback?: string
}

export type Outcome =
  | { readonly kind: "shipped"; readonly branch: string; readonly finishedAt: string }
  | { readonly kind: "unchanged" | "failed" | "stopped" | "lost" }

/** What is running now, so SIGTERM can stop it. */
export type Running = Set<RunningChild>

const fence = (lines: ReadonlyArray<string>) => `\n\n\`\`\`\n${lines.join("\n").replace(/```/g, "'''")}\n\`\`\``

export const workCard = async (ctx: RunnerContext, claimed: Claimed, running: Running): Promise<Outcome> => {
  const { api, log, config } = ctx
  const { session, card } = claimed
  const fields = { card: card.ref, session: session.id }
  const branch = branchName(card.ref, card.title)
  log.info(claimed.feedback === undefined ? "claimed" : "claimed again for feedback", { ...fields, branch })

  let lost = false
  // set once the command ended: a heartbeat refused after the session completed is no loss
  let ending = false
  let child: RunningChild | undefined
  const beat = setInterval(
    () => {
      api.heartbeat(session.id).then(
        () => log.info("heartbeat", fields),
        (e) => {
          if (ending) return
          if (e instanceof ApiFailure && !e.unreachable) {
            // the lease ended (a long outage, or someone released it): the card is no longer ours
            lost = true
            log.error("lease lost; stopping the command", { ...fields, error: e.message })
            child?.stop()
          } else log.warn("heartbeat failed; retrying", { ...fields, error: messageOf(e) })
        }
      )
    },
    Math.max(1000, (config.ttlSeconds * 1000) / 3)
  )
  const release = (moveTo?: string) =>
    persist(log, "release", () => api.release(session.id, moveTo), ctx.stopping() ? 15_000 : 120_000).then(
      () => log.info("released", fields),
      (e) => log.warn("release failed", { ...fields, error: messageOf(e) })
    )
  const report = (type: "action" | "response" | "error" | "thought", body: string) =>
    persist(log, type, () => api.report(session.id, type, body.slice(0, 10_000)))

  const askFile = path.join(config.repo, ".git", "board-runner", `asking-${session.id}`)
  const redact = redactor(secretValues(process.env, [config.apiKey]))
  const batcher = makeBatcher({
    redact,
    paused: () => fs.existsSync(askFile),
    post: (kind, body) =>
      api.report(session.id, kind, body).then(
        () => true,
        (e) => {
          log.warn("report failed; kept for the next try", { ...fields, error: messageOf(e) })
          return !(e instanceof ApiFailure && e.unreachable)
        }
      )
  })
  let dir: string | undefined
  try {
    const base = await ctx.repoLock(() => fetchDefault(config.repo))
    const tree = await ctx.repoLock(() => addWorktree(config.repo, branch, base))
    dir = tree.dir
    log.info("worktree ready", { ...fields, branch, base, dir })
    batcher.add({ kind: "action", text: `Working on branch ${branch} (from origin/${base})` })
    let prompt = await persist(log, "prompt", () => api.prompt(card.id))
    if (claimed.feedback !== undefined)
      prompt += `\n\n## Feedback on the pull request\n\nWork on branch ${branch} again and address this:\n\n${claimed.feedback}\n`
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${ctx.shimDir}${path.delimiter}${process.env.PATH ?? ""}`,
      BOARD_API_URL: config.apiUrl,
      BOARD_API_KEY: config.apiKey,
      BOARD_CARD_ID: card.id,
      BOARD_CARD_REF: card.ref,
      BOARD_SESSION_ID: session.id,
      BOARD_PROJECT_ID: config.projectId,
      BOARD_BRANCH: branch,
      BOARD_ASK_FILE: askFile
    }
    child = runChild({
      command: config.command,
      cwd: dir,
      env,
      stdin: prompt,
      timeoutMs: config.timeoutMs,
      parser: config.parser(),
      batcher,
      redact
    })
    running.add(child)
    if (ctx.stopping()) child.stop()
    const result = await child.done
    running.delete(child)
    ending = true
    log.info("command ended", { ...fields, code: result.code, signal: result.signal, timedOut: result.timedOut })
    await batcher.close(ctx.stopping() ? 10_000 : 120_000)
    const last = result.tail.length > 0 ? fence(result.tail.slice(-20)) : ""

    if (lost) return { kind: "lost" }
    if (result.stopped) {
      await commitLeftovers(dir, card.ref).catch(() => false)
      await report("thought", `The runner was stopped; the work so far is on branch ${branch}.`).catch(() => undefined)
      await release()
      return { kind: "stopped" }
    }
    if (result.timedOut || result.code !== 0) {
      const why = result.timedOut
        ? `The command was stopped after ${Math.round(config.timeoutMs / 1000)} s (--timeout).`
        : `The command failed (exit ${result.code ?? result.signal}).`
      await commitLeftovers(dir, card.ref).catch(() => false)
      await report("error", `${why} Branch ${branch} is kept.${last}`).catch((e) =>
        log.warn("error report failed", { ...fields, error: messageOf(e) })
      )
      await release()
      return { kind: "failed" }
    }
    await commitLeftovers(dir, card.ref)
    if ((await head(dir)) === tree.start) {
      const answer = await report(
        "response",
        `The command finished without changing anything; nothing was pushed.${result.final !== undefined ? `\n\n${result.final}` : ""}`
      )
      log.info("nothing changed", fields)
      return claimed.feedback === undefined
        ? { kind: "unchanged" }
        : { kind: "shipped", branch, finishedAt: answer.createdAt }
    }
    const shipped = await ship(ctx, dir, card, branch, base)
    const board = await persist(log, "board", () => api.board(config.projectId))
    const column = targetColumn(board.columns, config.doneColumn)
    if (column !== undefined)
      await persist(log, "move", () => api.move(card.id, column.id)).catch((e) =>
        log.warn("move failed", { ...fields, error: messageOf(e) })
      )
    const answer = await report(
      "response",
      [
        `Pushed branch \`${branch}\` to origin.`,
        shipped.pullRequest !== undefined ? `Pull request: ${shipped.pullRequest}` : undefined,
        column !== undefined ? `Moved to ${column.name}.` : undefined,
        result.final !== undefined ? `\n${redact(result.final)}` : undefined
      ]
        .filter((l) => l !== undefined)
        .join("\n")
    )
    log.info("shipped", { ...fields, branch, column: column?.name, pullRequest: shipped.pullRequest })
    return { kind: "shipped", branch, finishedAt: answer.createdAt }
  } catch (e) {
    log.error("card failed", { ...fields, error: messageOf(e) })
    await batcher.close()
    if (!lost) {
      await report("error", `The runner could not finish: ${redact(messageOf(e))}`).catch(() => undefined)
      await release()
    }
    return { kind: "failed" }
  } finally {
    clearInterval(beat)
    if (child !== undefined) running.delete(child)
    fs.rmSync(askFile, { force: true })
    if (dir !== undefined) await ctx.repoLock(() => removeWorktree(config.repo, dir!))
  }
}
