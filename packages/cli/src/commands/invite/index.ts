import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { examples } from "../../support/format.ts"
import { Output } from "../../support/output.ts"

/** The token of an invitation link, or the token itself (`…/invite/svc_inv_…` or `svc_inv_…`). */
export const invitationToken = (value: string): string => {
  const v = value.trim()
  const at = v.lastIndexOf("/invite/")
  return at === -1 ? v : v.slice(at + "/invite/".length).replace(/[/?#].*$/, "")
}

export const runInviteAccept = Effect.fn("invite.accept")(function* (options: { readonly token: string }) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const joined = yield* client.invitations.accept({ params: { token: invitationToken(options.token) } })
  yield* out.message(`Joined "${joined.workspace.name}" as ${joined.member.role}. See its projects: board project list`)
  yield* out.result(joined, () => joined.workspace.id)
})

export const registerInvite = (program: Command, app: App) => {
  const invite = program
    .command("invite")
    .description("invitations you were sent")
    .addHelpText("after", examples("board invite accept https://board.example.com/invite/svc_inv_…"))
  invite
    .command("accept")
    .description("join the workspace of an invitation as the signed-in account; prints the workspace's id")
    .argument("<token>", "the invitation's link or its token (svc_inv_…)")
    .addHelpText(
      "after",
      examples("board invite accept svc_inv_…", "board invite accept https://board.example.com/invite/svc_inv_…")
    )
    .action((token: string, _flags: object, cmd: Command) => app.run(cmd, { token }, runInviteAccept))
  return invite
}
