import type { Command } from "commander"
import { Effect } from "effect"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"
import { memberOf, roleOf, workspaceOption } from "./shared.ts"

export interface MemberRoleOptions {
  readonly who: string
  readonly role: string
  readonly workspace?: string
}

export const runMemberRole = Effect.fn("member.role")(function* (options: MemberRoleOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const role = yield* roleOf(options.role)
  const { workspace, member } = yield* memberOf(options.workspace, options.who)
  const changed = yield* client.members.setRole({
    params: { id: workspace.id, userId: member.userId },
    payload: { role }
  })
  yield* out.message(`${changed.email} is now ${changed.role} in "${workspace.name}".`)
  yield* out.result(changed, () => changed.role)
})

export const registerMemberRole = (member: Command, app: App) =>
  member
    .command("role")
    .description("change a member's role (admins; owners to make or unmake an owner)")
    .argument("<member>", "the member's email or user id")
    .argument("<role>", "owner, admin, member or viewer")
    .option(...workspaceOption)
    .addHelpText(
      "after",
      examples("board member role ada@example.com admin", "board member role bo@example.com viewer")
    )
    .action((who: string, role: string, flags: { workspace?: string }, cmd: Command) =>
      app.run(cmd, { ...flags, who, role }, runMemberRole)
    )
