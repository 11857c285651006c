import { Effect } from "effect"
import type { AgentSessionId } from "@board/core/contract"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"
import { sessionLine } from "./sessionLine.ts"

export const runAgentHeartbeat = Effect.fn("agent.heartbeat")(function* (options: { readonly session: string }) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const session = yield* client.agents.heartbeat({ params: { id: options.session as AgentSessionId } })
  yield* out.message(`Lease extended until ${session.leaseExpiresAt}.`)
  yield* out.result(session, () => sessionLine(session))
})

export const registerAgentHeartbeat = (agent: Command, app: App) =>
  agent
    .command("heartbeat")
    .description("extend your session's lease by its length, from now")
    .argument("<session>", "the session id")
    .addHelpText("after", examples("board agent heartbeat 3f2a…"))
    .action((session: string, _flags: unknown, cmd: Command) => app.run(cmd, { session }, runAgentHeartbeat))
