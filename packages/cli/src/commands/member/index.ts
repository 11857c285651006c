import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerMemberInvite } from "./invite.ts"

export const registerMember = (program: Command, app: App) => {
  const member = program
    .command("member")
    .description("a workspace's members and invitations")
    .addHelpText("after", examples("board member invite ada@example.com --role member"))
  registerMemberInvite(member, app)
  return member
}
