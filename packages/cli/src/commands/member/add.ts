import type { Command } from "commander"
import { Effect } from "effect"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { roleOf, workspaceOption } from "./shared.ts"

export interface MemberAddOptions {
  readonly email: string
  readonly role?: string
  readonly workspace?: string
}

export const runMemberAdd = Effect.fn("member.add")(function* (options: MemberAddOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const workspace = yield* (yield* Lookup).workspace(options.workspace)
  const role = options.role === undefined ? undefined : yield* roleOf(options.role)
  const member = yield* client.members.add({
    params: { id: workspace.id },
    payload: { email: options.email, ...(role === undefined ? {} : { role }) }
  })
  yield* out.message(`Added ${member.email} to "${workspace.name}" as ${member.role}.`)
  yield* out.result(member, () => member.userId)
})

export const registerMemberAdd = (member: Command, app: App) =>
  member
    .command("add")
    .description("add an existing account to a workspace (admins); prints its user id")
    .argument("<email>", "the account's email")
    .option("-r, --role <role>", "owner, admin, member (default) or viewer")
    .option(...workspaceOption)
    .addHelpText("after", examples("board member add ada@example.com", "board member add bo@example.com --role viewer"))
    .action((email: string, flags: Omit<MemberAddOptions, "email">, cmd: Command) =>
      app.run(cmd, { ...flags, email }, runMemberAdd)
    )
