import { Effect } from "effect"
import { agentSessionStatuses } from "@board/core/contract"
import { type Command, Option } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"
import { sessionLine } from "./sessionLine.ts"
import { actorLabel } from "../../support/events.ts"

export interface AgentSessionsOptions {
  readonly project?: string
  readonly status?: (typeof agentSessionStatuses)[number]
}

export const runAgentSessions = Effect.fn("agent.sessions")(function* (options: AgentSessionsOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const sessions = yield* client.agents.projectSessions({
    params: { projectId: project.id },
    query: options.status !== undefined ? { status: options.status } : {}
  })
  const board = yield* lookup.board(project.id)
  const refOf = (cardId: string) => board.cards.find((c) => c.id === cardId)?.ref
  const members = new Map(
    (yield* client.members.list({ params: { id: project.workspaceId } })).map(
      (m) => [m.userId as string, m.fullName || m.email] as const
    )
  )
  yield* out.result(sessions, () =>
    sessions.length === 0
      ? "no sessions"
      : sessions.map((s) => `${sessionLine(s, refOf(s.cardId))} ${actorLabel(s.actor, members)}`).join("\n")
  )
})

export const registerAgentSessions = (agent: Command, app: App) =>
  agent
    .command("sessions")
    .description("list a project's agent sessions, newest first")
    .addOption(projectOption())
    .addOption(new Option("--status <status>", agentSessionStatuses.join(", ")).choices(agentSessionStatuses))
    .addHelpText("after", examples("board agent sessions --status active"))
    .action((flags: AgentSessionsOptions, cmd: Command) => app.run(cmd, flags, runAgentSessions))
