/**
 * `--follow-up`: cards whose branch this runner pushed are watched for `feedback` activities
 * (the forge integration's "changes requested", "checks failed"); new feedback claims the card
 * again and reruns the command on the same branch. What was shipped is kept in
 * `.git/board-runner/state.json` so a restarted runner still follows its cards.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import type { RunnerContext } from "./context.ts"
import type { Claimed } from "./work.ts"

interface ShippedCard {
  readonly ref: string
  readonly title: string
  readonly branch: string
  /** Feedback up to this time (the server's) has been handled. */
  seenUntil: string
}

export const makeFollowUps = (ctx: RunnerContext) => {
  const file = path.join(ctx.config.repo, ".git", "board-runner", "state.json")
  let shipped: Record<string, ShippedCard> = {}
  try {
    shipped = (JSON.parse(fs.readFileSync(file, "utf8")) as { shipped?: Record<string, ShippedCard> }).shipped ?? {}
  } catch {
    // none yet
  }
  const save = () => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, `${JSON.stringify({ shipped }, null, 2)}\n`)
  }
  return {
    record: (card: { id: string; ref: string; title: string }, branch: string, finishedAt: string) => {
      shipped[card.id] = { ref: card.ref, title: card.title, branch, seenUntil: finishedAt }
      save()
    },
    /** The first watched card with new feedback, claimed; undefined when there is none. */
    next: async (): Promise<Claimed | undefined> => {
      for (const [cardId, s] of Object.entries(shipped)) {
        const sessions = await ctx.api.cardSessions(cardId).catch(() => [])
        const feedback: Array<{ body: string; createdAt: string }> = []
        for (const session of sessions) {
          if (session.updatedAt <= s.seenUntil) continue
          const detail = await ctx.api.session(session.id)
          for (const a of detail.activities) if (a.type === "feedback" && a.createdAt > s.seenUntil) feedback.push(a)
        }
        if (feedback.length === 0) continue
        const claimed = await ctx.api.claim(cardId, ctx.config.ttlSeconds).catch((e) => {
          ctx.log.warn("feedback waiting, card not claimable yet", { card: s.ref, error: String(e?.message ?? e) })
          return undefined
        })
        if (claimed === undefined) continue
        feedback.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        s.seenUntil = feedback.at(-1)!.createdAt
        save()
        return {
          session: claimed,
          card: { id: cardId, ref: s.ref, title: s.title },
          feedback: feedback.map((f) => f.body).join("\n\n---\n\n")
        }
      }
      return undefined
    }
  }
}
