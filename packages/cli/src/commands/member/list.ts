import type { Command } from "commander"
import { Effect } from "effect"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import { workspaceOption } from "./shared.ts"

export interface MemberListOptions {
  readonly workspace?: string
}

export const runMemberList = Effect.fn("member.list")(function* (options: MemberListOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const workspace = yield* (yield* Lookup).workspace(options.workspace)
  const members = yield* client.members.list({ params: { id: workspace.id } })
  yield* out.result(members, () =>
    table(
      members.map((m) => [m.fullName, m.email, m.role, m.kind, out.style.dim(m.userId)]),
      out.style,
      ["NAME", "EMAIL", "ROLE", "KIND", "USER ID"]
    )
  )
})

export const registerMemberList = (member: Command, app: App) =>
  member
    .command("list")
    .alias("ls")
    .description("list a workspace's members with their roles")
    .option(...workspaceOption)
    .addHelpText("after", examples("board member list", "board member list --workspace Acme --json"))
    .action((flags: MemberListOptions, cmd: Command) => app.run(cmd, flags, runMemberList))
