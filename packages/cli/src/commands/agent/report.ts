import { Effect } from "effect"
import type { AgentSessionId } from "@board/core/contract"
import { activityTypes } from "@board/core/contract"
import { type Command, Option } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"
import { textOrStdin } from "../shared.ts"

export interface AgentReportOptions {
  readonly session: string
  readonly type: (typeof activityTypes)[number]
  readonly text: string
}

export const runAgentReport = Effect.fn("agent.report")(function* (options: AgentReportOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const body = (yield* textOrStdin(options.text)) ?? ""
  const activity = yield* client.agents.report({
    params: { id: options.session as AgentSessionId },
    payload: { type: options.type, body }
  })
  yield* out.message(`Reported ${activity.type} on session ${options.session}.`)
  yield* out.result(activity, () => activity.id)
})

export const registerAgentReport = (agent: Command, app: App) =>
  agent
    .command("report")
    .description("report an activity on your session: a response completes it, an elicitation waits for a person")
    .argument("<session>", "the session id (`board agent next` prints it)")
    .argument("<text>", "what to report (Markdown); - reads it from stdin")
    .addOption(new Option("-t, --type <type>", activityTypes.join(", ")).choices(activityTypes).makeOptionMandatory())
    .addHelpText(
      "after",
      examples(
        'board agent report 3f2a… --type thought "Reading the failing test"',
        "git log -1 | board agent report 3f2a… --type response -"
      )
    )
    .action((session: string, text: string, flags: { type: AgentReportOptions["type"] }, cmd: Command) =>
      app.run(cmd, { session, text, type: flags.type }, runAgentReport)
    )
