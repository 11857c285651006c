import type { Command } from "commander"
import { Effect } from "effect"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { usageError } from "../../support/failure.ts"
import { Output } from "../../support/output.ts"
import { memberOf, workspaceOption } from "./shared.ts"

export interface MemberRemoveOptions {
  /** The member's email or user id; absent with --me. */
  readonly who?: string
  /** Leave the workspace oneself. */
  readonly me?: boolean
  readonly workspace?: string
}

export const runMemberRemove = Effect.fn("member.remove")(function* (options: MemberRemoveOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  if ((options.who === undefined) === (options.me !== true))
    return yield* usageError("name one member (EMAIL or user id), or pass --me to leave the workspace")
  const { workspace, member } = yield* memberOf(options.workspace, options.who ?? "@me")
  yield* client.members.remove({ params: { id: workspace.id, userId: member.userId } })
  yield* out.message(
    options.me === true
      ? `You left "${workspace.name}".`
      : `Removed ${member.email} from "${workspace.name}"; their assignments there ended, their cards and comments stay.`
  )
})

export const registerMemberRemove = (member: Command, app: App) =>
  member
    .command("remove")
    .alias("rm")
    .description("remove a member from a workspace (admins), or leave it yourself with --me")
    .argument("[member]", "the member's email or user id")
    .option("--me", "leave the workspace (any member)")
    .option(...workspaceOption)
    .addHelpText("after", examples("board member remove bo@example.com", "board member remove --me --workspace Acme"))
    .action((who: string | undefined, flags: Omit<MemberRemoveOptions, "who">, cmd: Command) =>
      app.run(cmd, { ...flags, ...(who === undefined ? {} : { who }) }, runMemberRemove)
    )
