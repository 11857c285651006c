import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerMemberAdd } from "./add.ts"
import { registerMemberInvite } from "./invite.ts"
import { registerMemberList } from "./list.ts"
import { registerMemberRemove } from "./remove.ts"
import { registerMemberRole } from "./role.ts"

/** `board member …`: list, add, invite, role, remove (and leave: `remove --me`). */
export const registerMember = (program: Command, app: App) => {
  const member = program
    .command("member")
    .description("a workspace's members, their roles (owner, admin, member, viewer) and invitations")
    .addHelpText(
      "after",
      examples(
        "board member list",
        "board member invite ada@example.com --role member",
        "board member add ada@example.com --role viewer",
        "board member remove --me"
      )
    )
  registerMemberList(member, app)
  registerMemberAdd(member, app)
  registerMemberInvite(member, app)
  registerMemberRole(member, app)
  registerMemberRemove(member, app)
  return member
}
