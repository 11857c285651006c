import { Effect } from "effect"
import { agentLimits } from "@board/core/contract"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption, wholeNumber } from "../shared.ts"
import { sessionLine } from "./sessionLine.ts"

export interface AgentNextOptions {
  readonly project?: string
  readonly column?: string
  readonly ttl?: number
}

export const runAgentNext = Effect.fn("agent.next")(function* (options: AgentNextOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const column =
    options.column === undefined ? undefined : yield* lookup.column(yield* lookup.board(project.id), options.column)
  const taken = yield* client.agents.claimNext({
    params: { projectId: project.id },
    payload: {
      ...(column !== undefined ? { columnId: column.id } : {}),
      ...(options.ttl !== undefined ? { ttlSeconds: options.ttl } : {})
    }
  })
  if (taken === undefined || taken === null) {
    yield* out.message("No unclaimed card matches; nothing was claimed.")
    return yield* out.result(null, () => undefined)
  }
  yield* out.message(`Claimed ${taken.card.ref} "${taken.card.title}".`)
  yield* out.result(taken, () => sessionLine(taken.session, taken.card.ref))
})

export const registerAgentNext = (agent: Command, app: App) =>
  agent
    .command("next")
    .description(
      "claim the next unclaimed card (highest priority, then board order) and print its session; without --column only from todo columns"
    )
    .addOption(projectOption())
    .option("-c, --column <column>", "only take cards from this column (name or id); default: the todo columns")
    .option(
      "--ttl <seconds>",
      `the lease, ${agentLimits.ttlMin} to ${agentLimits.ttlMax} seconds (default ${agentLimits.ttlDefault})`,
      wholeNumber(agentLimits.ttlMin, agentLimits.ttlMax)
    )
    .addHelpText("after", examples('board agent next --column "To Do"', "board agent next --ttl 300 --json"))
    .action((flags: AgentNextOptions, cmd: Command) => app.run(cmd, flags, runAgentNext))
