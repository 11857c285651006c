/** What the member commands share: the workspace (--workspace) and a member by email or user id. */
import { Effect } from "effect"
import { BoardApi } from "../../support/client.ts"
import { Lookup } from "../../support/lookup.ts"
import { failure, usageError } from "../../support/failure.ts"

export const ROLES = ["owner", "admin", "member", "viewer"] as const
export type RoleName = (typeof ROLES)[number]

export const workspaceOption = [
  "-w, --workspace <workspace>",
  "workspace name or id (default: your only workspace)"
] as const

/** The workspace and its members; `who` (an email, a user id, or `@me`) names one of them. */
export const memberOf = Effect.fnUntraced(function* (workspaceSpec: string | undefined, who: string) {
  const { client } = yield* BoardApi
  const workspace = yield* (yield* Lookup).workspace(workspaceSpec)
  const members = yield* client.members.list({ params: { id: workspace.id } })
  const me = who === "@me" ? (yield* client.accounts.me()).id : undefined
  const hit = members.find((m) => m.userId === (me ?? who.toLowerCase()) || m.email.toLowerCase() === who.toLowerCase())
  if (hit === undefined)
    return yield* failure(`${who} is not a member of workspace "${workspace.name}"; \`board member list\` shows who is`)
  return { workspace, member: hit }
})

export const roleOf = (role: string) =>
  (ROLES as ReadonlyArray<string>).includes(role)
    ? Effect.succeed(role as RoleName)
    : Effect.fail(usageError(`unknown role "${role}"; use one of: ${ROLES.join(", ")}`))
