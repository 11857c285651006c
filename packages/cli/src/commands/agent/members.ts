/**
 * Agents as members (issue 30): `board agent create NAME`, `board agent list`, `board agent key
 * create AGENT` (the key printed once). An agent is a member of kind `agent` with keys of its own;
 * what its keys do is shown as the agent's, on behalf of its creator.
 */
import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { describeLimits, type KeyLimitFlags, keyLimitOptions, keyLimitsPayload } from "../../support/keyLimits.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"

const workspaceFlag = ["-w, --workspace <workspace>", "workspace name or id (default: your only workspace)"] as const

export interface AgentCreateOptions {
  readonly name: string
  readonly description?: string
  readonly workspace?: string
}

export const runAgentCreate = Effect.fn("agent.create")(function* (options: AgentCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const workspace = yield* lookup.workspace(options.workspace)
  const agent = yield* client.agentMembers.create({
    params: { id: workspace.id },
    payload: {
      name: options.name,
      ...(options.description !== undefined ? { description: options.description } : {})
    }
  })
  yield* out.message(
    `Created agent "${agent.name}" [agent] in "${workspace.name}"; give it a key with: board agent key create ${JSON.stringify(agent.name)}`
  )
  yield* out.result(agent, () => agent.id)
})

export interface AgentListOptions {
  readonly workspace?: string
}

export const runAgentList = Effect.fn("agent.list")(function* (options: AgentListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const workspace = yield* lookup.workspace(options.workspace)
  const agents = yield* client.agentMembers.list({ params: { id: workspace.id } })
  if (agents.length === 0 && !out.json)
    return yield* out.message(`"${workspace.name}" has no agents yet: board agent create NAME`)
  const members = new Map(
    (yield* client.members.list({ params: { id: workspace.id } })).map(
      (m) => [m.userId as string, m.fullName || m.email] as const
    )
  )
  yield* out.result(agents, () =>
    table(
      agents.map((a) => [
        `${a.name} [agent]`,
        a.createdBy === null ? out.style.dim("(creator gone)") : (members.get(a.createdBy) ?? a.createdBy),
        a.description ?? "",
        out.style.dim(a.id)
      ]),
      out.style,
      ["NAME", "FOR", "DESCRIPTION", "ID"]
    )
  )
})

export interface AgentKeyCreateOptions extends KeyLimitFlags {
  readonly agent: string
  readonly name?: string
  readonly workspace?: string
}

export const runAgentKeyCreate = Effect.fn("agent.key.create")(function* (options: AgentKeyCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const workspace = yield* lookup.workspace(options.workspace)
  const agents = yield* client.agentMembers.list({ params: { id: workspace.id } })
  const spec = options.agent.trim()
  const hits = agents.filter((a) => a.id === spec || a.name.toLowerCase() === spec.toLowerCase())
  if (hits.length === 0)
    return yield* failure(`no agent ${JSON.stringify(spec)} in "${workspace.name}"; \`board agent list\` shows them`)
  if (hits.length > 1)
    return yield* failure(`${hits.length} agents are named ${JSON.stringify(spec)}; use its id (\`board agent list\`)`)
  const agent = hits[0]!
  const limits = yield* keyLimitsPayload(options)
  const key = yield* client.agentMembers.createKey({
    params: { id: agent.id },
    payload: { name: options.name ?? `${agent.name} key`, ...limits }
  })
  yield* out.message(
    `Created a key for agent "${agent.name}" (${describeLimits(key)}). It is shown only this once: keep it, e.g. as BOARD_API_KEY for the agent.`
  )
  yield* out.result(key, () => key.rawKey)
})

export const registerAgentMembers = (agent: Command, app: App) => {
  agent
    .command("create")
    .description("create an agent member of a workspace (admins); prints its id")
    .argument("<name>", "the agent's name, as the board shows it")
    .option("-d, --description <text>", "what the agent does")
    .option(...workspaceFlag)
    .addHelpText("after", examples('board agent create Claude --description "Writes the code"'))
    .action((name: string, flags: Omit<AgentCreateOptions, "name">, cmd: Command) =>
      app.run(cmd, { name, ...flags }, runAgentCreate)
    )
  agent
    .command("list")
    .alias("ls")
    .description("list a workspace's agents and whom they act for")
    .option(...workspaceFlag)
    .addHelpText("after", examples("board agent list", "board agent list --json"))
    .action((flags: AgentListOptions, cmd: Command) => app.run(cmd, flags, runAgentList))
  const key = agent
    .command("key")
    .description("keys of an agent member")
    .addHelpText("after", examples("board agent key create Claude --scope read,write --project Website --expires 30d"))
  key
    .command("create")
    .description("create a key that acts as the agent (admins or its creator); prints the key, shown once")
    .argument("<agent>", "the agent's name or id")
    .option("--name <name>", "what the key is for (default: the agent's name)")
    .option(...keyLimitOptions[0])
    .option(...keyLimitOptions[1])
    .option(...keyLimitOptions[2])
    .option(...workspaceFlag)
    .addHelpText(
      "after",
      examples(
        "board agent key create Claude",
        "board agent key create Claude --scope read --project Website --expires 30d",
        "export BOARD_API_KEY=$(board agent key create Claude --scope read,write --quiet)"
      )
    )
    .action((spec: string, flags: Omit<AgentKeyCreateOptions, "agent">, cmd: Command) =>
      app.run(cmd, { agent: spec, ...flags }, runAgentKeyCreate)
    )
}
