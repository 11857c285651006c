import { type CardRefOrTitle, parseCommand } from "@board/core/contract"
import { Effect } from "effect"
import type { ProjectId } from "@board/core/contract"
import { type Command, Option } from "commander"
import type { App } from "../support/app.ts"
import { BoardApi } from "../support/client.ts"
import { apiStatus, failure, failWithHint, usageError } from "../support/failure.ts"
import { commandResultText, examples } from "../support/format.ts"
import { Lookup } from "../support/lookup.ts"
import { Output } from "../support/output.ts"
import { ask, stdinIsTerminal } from "../support/prompt.ts"
import { Settings } from "../support/settings.ts"

export interface DoOptions {
  readonly command: string
  readonly project?: string
  readonly yes?: boolean
}

/** How the command names the card it would delete, as typed (a ref, or a title in quotes). */
const named = (card: CardRefOrTitle) => ("ref" in card ? card.ref : JSON.stringify(card.title))

/**
 * A command that deletes asks first, like `board card delete`: on a terminal it asks, in a
 * script it needs --yes. The server parses and runs a command in one call, so the CLI reads it
 * with the server's own grammar (`parseCommand`, pure, from @board/core/contract) before
 * sending it: the two cannot disagree on what is a delete.
 */
const confirmDelete = (options: DoOptions) =>
  Effect.gen(function* () {
    if (options.yes === true) return
    const parsed = parseCommand(options.command)
    if (!parsed.ok || parsed.intent.type !== "delete_card") return
    const spec = parsed.intent.card
    if (!stdinIsTerminal()) return yield* usageError(`deleting ${named(spec)} cannot be undone: confirm with --yes`)
    // the card as the board has it, when the CLI can find it; otherwise as typed
    const lookup = yield* Lookup
    const card = yield* lookup
      .card("ref" in spec ? spec.ref : spec.title, options.project)
      .pipe(Effect.orElseSucceed(() => undefined))
    const answer = yield* ask(
      `Delete ${card === undefined ? named(spec) : `${card.ref} "${card.title}"`} with its subtasks and links? This cannot be undone. [y/N] `
    )
    if (!/^y(es)?$/i.test(answer)) return yield* failure("not deleted")
  })

export const runDo = Effect.fn("do")(function* (options: DoOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const settings = yield* Settings
  yield* confirmDelete(options)
  const project = options.project === undefined ? undefined : yield* lookup.project(options.project)
  const run = (projectId: string | undefined) =>
    client.commands.run({
      payload: { command: options.command, ...(projectId !== undefined ? { projectId: projectId as ProjectId } : {}) }
    })
  // the server infers the board from card refs; only when it cannot is the saved project used,
  // since naming one up front would hide cards of other projects
  const saved =
    options.project === undefined && settings.apiKeySource === "config" ? settings.config.project : undefined
  const needsProject = (e: unknown) => apiStatus(e) === 400 && /pass projectId/.test((e as { error: string }).error)
  const result = yield* run(project?.id).pipe(
    Effect.catchIf(
      (e) => saved !== undefined && needsProject(e),
      () => run(saved)
    ),
    // the server speaks of its body field; here the board is chosen with --project
    Effect.catchIf(
      (e) => apiStatus(e) === 400,
      failWithHint((m) => m.replace(/pass projectId/g, "pass --project NAME"))
    )
  )
  yield* out.message(
    `Understood as ${result.intent.replace(/_/g, " ")}${result.actions.length > 0 ? `: ${result.actions.map((a) => a.type).join(", ")}` : ""}.`
  )
  yield* out.result(result, () => commandResultText(result, out.style))
})

export const registerDo = (program: Command, app: App) =>
  program
    .command("do")
    .description("run a plain-English board command (an offline, fixed grammar; see the README)")
    .argument("<command...>", 'the command; quote it, or titles that contain "in" or "to"')
    .addOption(
      new Option(
        "-p, --project <project>",
        "the board to act on: name, ref prefix or id (default: inferred from card refs, else the saved or only project)"
      )
    )
    .option("-y, --yes", "do not ask before a command that deletes; required for one when stdin is not a terminal")
    .addHelpText(
      "after",
      examples(
        "board do 'create card \"Fix login\" in To Do with priority high labelled bug'",
        'board do "move WEB-12 to Done"',
        "board do \"add subtask 'write tests' to WEB-4\"",
        'board do "WEB-4 blocks WEB-5"',
        'board do "search for login bug" --json',
        'board do "delete WEB-3" --yes'
      )
    )
    .action((words: Array<string>, flags: Omit<DoOptions, "command">, cmd: Command) =>
      app.run(cmd, { command: words.join(" "), ...flags }, runDo)
    )
