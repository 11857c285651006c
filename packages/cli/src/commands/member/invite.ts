import { Effect } from "effect"
import type { Command } from "commander"
import { WorkspaceRole } from "@board/core/contract"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"

export interface MemberInviteOptions {
  readonly email?: string
  readonly role?: string
  readonly workspace?: string
}

const roles = WorkspaceRole.literals

export const runMemberInvite = Effect.fn("member.invite")(function* (options: MemberInviteOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const role = options.role?.trim().toLowerCase()
  if (role !== undefined && !(roles as ReadonlyArray<string>).includes(role)) {
    return yield* usageError(`--role: one of ${roles.join(", ")} (default member), got ${JSON.stringify(options.role)}`)
  }
  const workspace = yield* lookup.workspace(options.workspace)
  const invitation = yield* client.invitations.create({
    params: { id: workspace.id },
    payload: {
      ...(options.email !== undefined ? { email: options.email } : {}),
      ...(role !== undefined ? { role: role as (typeof roles)[number] } : {})
    }
  })
  yield* out.message(
    `Invited ${invitation.email ?? "whoever opens the link"} to "${workspace.name}" as ${invitation.role}, until ${invitation.expiresAt}. ` +
      "The link works once and is shown only now; if no mail was configured on the server, send it yourself."
  )
  yield* out.result(invitation, () => invitation.url)
})

export const registerMemberInvite = (member: Command, app: App) =>
  member
    .command("invite")
    .description("invite someone to a workspace; prints the link (shown once, valid 7 days, used once)")
    .argument("[email]", "only this address may accept; the server mails it the link when it has mail")
    .option("-r, --role <role>", `the role they join with: ${roles.join(", ")} (default member)`)
    .option("-w, --workspace <workspace>", "the workspace (name or id); default: your only one")
    .addHelpText(
      "after",
      examples(
        "board member invite ada@example.com",
        "board member invite bea@example.com --role admin --workspace Acme",
        "board member invite --role viewer          # a link for anyone who has it"
      )
    )
    .action((email: string | undefined, flags: Omit<MemberInviteOptions, "email">, cmd: Command) =>
      app.run(cmd, { ...flags, ...(email !== undefined ? { email } : {}) }, runMemberInvite)
    )
