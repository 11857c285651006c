import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerMemberAdd } from "./add.ts"
import { registerMemberList } from "./list.ts"
import { registerMemberRemove } from "./remove.ts"
import { registerMemberRole } from "./role.ts"

/** `board member …`: list, add, role, remove (and leave: `remove --me`); invitations register here too. */
export const registerMember = (program: Command, app: App) => {
  const member = program
    .command("member")
    .description("a workspace's members and their roles (owner, admin, member, viewer)")
    .addHelpText(
      "after",
      examples("board member list", "board member add ada@example.com --role viewer", "board member remove --me")
    )
  registerMemberList(member, app)
  registerMemberAdd(member, app)
  registerMemberRole(member, app)
  registerMemberRemove(member, app)
  return member
}
