/**
 * `board agent run`: the runner, a long-running service that turns cards into pushed branches
 * (docs/runner.md). This file reads the options and starts the loop (runner/loop.ts).
 */
import { Effect } from "effect"
import { type Command, Option } from "commander"
import { type App, servicesLayer } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { defaultTimeout, parseTimeout } from "../../support/deadline.ts"
import { failure, usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Settings } from "../../support/settings.ts"
import { projectOption, wholeNumber } from "../shared.ts"
import { runnerApi } from "./runner/api.ts"
import { checkRepo } from "./runner/git.ts"
import { jsonLog } from "./runner/log.ts"
import { runLoop } from "./runner/loop.ts"
import { type PresetName, plainParser, presetNames, presets } from "./runner/presets.ts"

export interface AgentRunOptions {
  readonly project?: string
  readonly repo: string
  readonly command?: string
  readonly preset?: PresetName
  readonly concurrency?: number
  /** The command's time limit, as written (`60m`); from the global `--timeout` (see below). */
  readonly runTimeout?: string
  readonly lease?: number
  readonly poll?: string
  readonly openPr?: boolean
  readonly doneColumn?: string
  readonly followUp?: boolean
}

export const runAgentRun = Effect.fn("agent.run")(function* (options: AgentRunOptions) {
  const settings = yield* Settings
  // the runner's own requests keep the ordinary deadline (BOARD_TIMEOUT, else 30 s): its
  // `--timeout` is the command's limit
  const requestTimeout =
    settings.env.BOARD_TIMEOUT !== undefined && settings.env.BOARD_TIMEOUT.trim() !== ""
      ? parseTimeout(settings.env.BOARD_TIMEOUT, "BOARD_TIMEOUT")
      : defaultTimeout
  yield* startRunner(options).pipe(Effect.provide(servicesLayer({ ...settings, timeout: requestTimeout })))
})

const startRunner = Effect.fn("agent.run.start")(function* (options: AgentRunOptions) {
  const settings = yield* Settings
  const lookup = yield* Lookup
  const { client } = yield* BoardApi
  if (options.command === undefined && options.preset === undefined)
    return yield* usageError(`give the agent's command: --command CMD, or --preset ${presetNames.join("|")}`)
  const preset = options.preset !== undefined ? presets[options.preset] : undefined
  const command = options.command ?? preset!.command
  const timeoutMs = parseTimeout(options.runTimeout ?? "60m", "--timeout").ms
  const pollMs = parseTimeout(options.poll ?? "10s", "--poll").ms
  const repo = yield* Effect.tryPromise({
    try: () => checkRepo(options.repo),
    catch: (e) => failure((e as Error).message)
  })
  const project = yield* lookup.project(options.project)
  yield* Effect.promise(() =>
    runLoop({
      api: runnerApi(client),
      log: jsonLog(),
      config: {
        projectId: project.id,
        repo,
        command,
        parser: preset?.parser ?? plainParser,
        concurrency: options.concurrency ?? 1,
        timeoutMs,
        ttlSeconds: options.lease ?? 300,
        pollMs,
        openPr: options.openPr === true,
        doneColumn: options.doneColumn,
        followUp: options.followUp === true,
        apiUrl: settings.apiUrl,
        apiKey: settings.apiKey ?? "",
        webOrigin: settings.origin
      }
    })
  )
})

const help = `
What it does, per card (one worktree each, --concurrency at a time):
  1. claims the next card of the project's queue (todo columns, highest priority first), the
     same claim-next every runner uses, so runners on many machines never take one card twice;
  2. fetches origin and adds a worktree of --repo (under .git/board-runner/worktrees/) on a new
     branch web-12-<slug of the title>, from origin's default branch;
  3. runs CMD there with /bin/sh, the card's execute prompt on standard input and, in the
     environment, BOARD_CARD_ID, BOARD_CARD_REF, BOARD_SESSION_ID, BOARD_BRANCH, BOARD_API_URL
     and BOARD_API_KEY (so \`board agent ask "…"\` works inside it); nothing of the card is put
     into CMD. Output is reported as thought/action activities, batched, with secrets redacted;
     the lease is renewed every third of --lease;
  4. exit 0 with new commits (uncommitted changes are committed, naming the ref): pushes the
     branch to origin, opens a pull request with --open-pr, moves the card to the first
     in_progress column (or --done-column) and reports a response; nothing changed: a response
     saying so, the card stays; non-zero exit or --timeout: an error activity with the last
     lines, the branch kept, the card released back.
  A card this runner worked is not taken again while it runs. SIGTERM (or Ctrl-C) stops the
  commands and releases every claim before exiting. It logs one JSON line per action on stdout.
  It refuses a --repo with uncommitted changes or without an origin remote.

Options shared with every command:
  --timeout <duration>  for agent run: how long CMD may run before it is stopped (default 60m)
  --api-url, --api-key  the server and the key the runner (and CMD's \`board\`) use
`

export const registerAgentRun = (agent: Command, app: App) =>
  agent
    .command("run")
    .description("work the project's queue with an agent command: a branch and a pull request per card")
    .addOption(projectOption())
    .requiredOption("--repo <dir>", "the git repository to work in (clean, with an origin remote)")
    .option("--command <cmd>", "the agent's command line, run by /bin/sh in the card's worktree, prompt on stdin")
    .addOption(
      new Option(
        "--preset <agent>",
        `a ready command line and output parser: ${presetNames.map((n) => `${n} (${presets[n].command})`).join("; ")}. With --command, only its parser is used`
      ).choices(presetNames)
    )
    .option("--concurrency <n>", "how many cards to work at once (1 to 16, default 1)", wholeNumber(1, 16))
    .option(
      "--lease <seconds>",
      "each claim's lease, renewed every third of it (30 to 3600, default 300)",
      wholeNumber(30, 3600)
    )
    .option("--poll <duration>", "how often to look at the queue when it is empty (default 10s)")
    .option("--open-pr", "open a pull request with the forge's CLI (gh, glab or tea, by origin's URL): 'Closes WEB-12'")
    .option("--done-column <column>", "where a shipped card goes (name or id); default: the first in_progress column")
    .option(
      "--follow-up",
      "when the forge reports feedback (changes requested, checks failed) on a card this runner shipped, work it again on its branch with the feedback in the prompt"
    )
    .addHelpText(
      "after",
      help +
        examples(
          "board agent run --project WEB --repo ~/src/web --preset claude --open-pr",
          "board agent run --repo . --preset codex --concurrency 2 --timeout 30m",
          "board agent run --repo . --command 'aider --yes-always --message-file /dev/stdin' --follow-up"
        )
    )
    .action((flags: Omit<AgentRunOptions, "runTimeout">, cmd: Command) => {
      // `--timeout` is the program's option (the request deadline elsewhere); given on the line
      // of `agent run` it is the command's limit. From BOARD_TIMEOUT it stays the request deadline.
      const given = cmd.getOptionValueSourceWithGlobals("timeout") === "cli"
      const runTimeout = given ? cmd.optsWithGlobals<{ timeout?: string }>().timeout : undefined
      return app.run(cmd, { ...flags, ...(runTimeout !== undefined ? { runTimeout } : {}) }, runAgentRun)
    })
