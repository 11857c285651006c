/**
 * `board agent ask "QUESTION"`: inside a command `board agent run` started, asks the people on
 * the card (an `elicitation`), waits until a person comments, and prints the answer. The session
 * and card come from the environment the runner set (BOARD_SESSION_ID, BOARD_CARD_ID); while it
 * waits, BOARD_ASK_FILE tells the runner to hold the command's output (a report would end the
 * wait on the server), and the runner keeps the lease alive.
 */
import * as fs from "node:fs"
import { Duration, Effect } from "effect"
import type { AgentSessionId, CardId } from "@board/core/contract"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { parseTimeout } from "../../support/deadline.ts"
import { failure, usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"
import { Settings } from "../../support/settings.ts"
import { textOrStdin } from "../shared.ts"

export interface AgentAskOptions {
  readonly question: string
  readonly session?: string
  readonly poll?: string
  readonly wait?: string
}

const ended = new Set(["complete", "released", "stale"])

export const runAgentAsk = Effect.fn("agent.ask")(function* (options: AgentAskOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const { env } = yield* Settings
  const sessionId = (options.session ?? env.BOARD_SESSION_ID) as AgentSessionId | undefined
  if (sessionId === undefined || sessionId === "")
    return yield* usageError("no session: pass --session, or run inside `board agent run` (it sets BOARD_SESSION_ID)")
  const question = (yield* textOrStdin(options.question)) ?? ""
  const pollMs = parseTimeout(options.poll ?? "2s", "--poll").ms
  const waitMs = options.wait === undefined ? undefined : parseTimeout(options.wait, "--wait").ms
  const session = yield* client.agents.session({ params: { id: sessionId }, query: { limit: 1 } })
  const cardId = session.cardId as CardId
  const askFile = env.BOARD_ASK_FILE
  const asking = Effect.gen(function* () {
    if (askFile !== undefined && askFile !== "") fs.writeFileSync(askFile, `${process.pid}\n`)
    const asked = yield* client.agents.report({
      params: { id: sessionId },
      payload: { type: "elicitation", body: question }
    })
    yield* out.message("Asked on the card; waiting for a person to answer with a comment…")
    const started = Date.now()
    for (;;) {
      const { comments } = yield* client.board.listComments({ params: { id: cardId }, query: { limit: 500 } })
      const answers = comments.filter((c) => c.createdAt > asked.createdAt && c.author.type === "user")
      if (answers.length > 0) return answers.map((c) => c.body).join("\n\n")
      const now = yield* client.agents.session({ params: { id: sessionId }, query: { limit: 1 } })
      if (ended.has(now.status)) return yield* failure(`the session ended (${now.status}) before anyone answered`)
      if (waitMs !== undefined && Date.now() - started > waitMs)
        return yield* failure(`no answer within ${options.wait} (--wait)`)
      yield* Effect.sleep(Duration.millis(pollMs))
    }
  }).pipe(
    Effect.ensuring(
      Effect.sync(() => {
        if (askFile !== undefined && askFile !== "") fs.rmSync(askFile, { force: true })
      })
    )
  )
  const answer = yield* asking
  yield* out.result({ answer }, () => answer)
})

export const registerAgentAsk = (agent: Command, app: App) =>
  agent
    .command("ask")
    .description(
      "ask the people on your card a question and wait for the answer (a comment); prints it. Inside `board agent run` the session comes from the environment"
    )
    .argument("<question>", "the question (Markdown); - reads it from stdin")
    .option("--session <id>", "the session to ask on; default: BOARD_SESSION_ID (set by `board agent run`)")
    .option("--poll <duration>", "how often to look for an answer (default 2s)")
    .option(
      "--wait <duration>",
      "give up (exit 1) when nobody answered within this time; default: wait as long as it takes"
    )
    .addHelpText(
      "after",
      examples(
        'answer=$(board agent ask "Which database should the migration target?")',
        'board agent ask --session 3f2a… --wait 30m "May I delete the old endpoint?"'
      )
    )
    .action((question: string, flags: Omit<AgentAskOptions, "question">, cmd: Command) =>
      app.run(cmd, { question, ...flags }, runAgentAsk)
    )
