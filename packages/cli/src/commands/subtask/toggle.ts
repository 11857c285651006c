import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { listOf, Lookup, sameName } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import type { Card } from "../../support/types.ts"
import { projectOption } from "../shared.ts"

export interface SubtaskToggleOptions {
  readonly card: string
  /** Its number as `board card show` lists it (1 = first), its id, or its title. */
  readonly subtask: string
  readonly project?: string
}

const pick = (card: Card, spec: string) => {
  const s = spec.trim()
  if (/^\d+$/.test(s)) {
    const hit = card.subtasks[Number(s) - 1]
    return hit !== undefined
      ? Effect.succeed(hit)
      : Effect.fail(
          failure(
            `${card.ref} has ${card.subtasks.length} subtask${card.subtasks.length === 1 ? "" : "s"}; there is no number ${s}`
          )
        )
  }
  const exact = card.subtasks.filter((t) => t.id === s.toLowerCase() || sameName(t.title, s))
  const hits = exact.length > 0 ? exact : card.subtasks.filter((t) => t.title.toLowerCase().includes(s.toLowerCase()))
  if (hits.length === 1) return Effect.succeed(hits[0])
  if (hits.length === 0) {
    return Effect.fail(
      failure(
        `${card.ref} has no subtask "${s}"${card.subtasks.length > 0 ? ` (its subtasks: ${listOf(card.subtasks.map((t, i) => `${i + 1}. ${t.title}`))})` : ""}`
      )
    )
  }
  return Effect.fail(
    failure(`"${s}" matches ${hits.length} subtasks of ${card.ref}; name it by number (board card show ${card.ref})`)
  )
}

export const runSubtaskToggle = Effect.fn("subtask.toggle")(function* (options: SubtaskToggleOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const card = yield* lookup.card(options.card, options.project)
  const subtask = yield* pick(card, options.subtask)
  const toggled = yield* client.board.toggleSubtask({ params: { id: subtask.id } })
  yield* out.message(`${toggled.completed ? "Completed" : "Reopened"} "${toggled.title}" on ${card.ref}.`)
  yield* out.result(toggled, () => (toggled.completed ? "done" : "open"))
})

export const registerSubtaskToggle = (subtask: Command, app: App) =>
  subtask
    .command("toggle")
    .description("mark a subtask done, or open again")
    .argument("<card>", "the card's ref (WEB-12), id or title")
    .argument("<subtask>", "the subtask's number as `board card show` lists it, its title, or its id")
    .addOption(projectOption())
    .addHelpText("after", examples("board subtask toggle WEB-12 1", 'board subtask toggle WEB-12 "write tests"'))
    .action((spec: string, which: string, flags: Omit<SubtaskToggleOptions, "card" | "subtask">, cmd: Command) =>
      app.run(cmd, { card: spec, subtask: which, ...flags }, runSubtaskToggle)
    )
