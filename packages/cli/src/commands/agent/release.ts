import { Effect } from "effect"
import type { AgentSessionId } from "@board/core/contract"
import type { Column } from "@board/core/contract"
import { type Command, Option } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { sessionLine } from "./sessionLine.ts"

export interface AgentReleaseOptions {
  readonly session: string
  readonly moveTo?: string
  readonly status?: "complete" | "released"
}

export const runAgentRelease = Effect.fn("agent.release")(function* (options: AgentReleaseOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  let moveTo: Column | undefined
  if (options.moveTo !== undefined) {
    const session = yield* client.agents.session({
      params: { id: options.session as AgentSessionId },
      query: { limit: 1 }
    })
    moveTo = yield* lookup.column(yield* lookup.board(session.projectId), options.moveTo)
  }
  const ended = yield* client.agents.release({
    params: { id: options.session as AgentSessionId },
    payload: {
      ...(options.status !== undefined ? { status: options.status } : {}),
      ...(moveTo !== undefined ? { moveTo: moveTo.id } : {})
    }
  })
  yield* out.message(
    `Session ${ended.id} ${ended.status}${moveTo !== undefined ? `; card moved to ${moveTo.name}` : ""}.`
  )
  yield* out.result(ended, () => sessionLine(ended))
})

export const registerAgentRelease = (agent: Command, app: App) =>
  agent
    .command("release")
    .description("end your session and free its card, moving it when asked")
    .argument("<session>", "the session id")
    .option("--move-to <column>", "move the card to this column (name or id) in the same step")
    .addOption(
      new Option("--status <status>", "complete or released (default)").choices(["complete", "released"] as const)
    )
    .addHelpText("after", examples("board agent release 3f2a… --move-to Done --status complete"))
    .action((session: string, flags: Omit<AgentReleaseOptions, "session">, cmd: Command) =>
      app.run(cmd, { session, ...flags }, runAgentRelease)
    )
