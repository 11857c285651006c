/** Invitations to a workspace and password resets, as clients see and send them (issue 30). */
import { Schema } from "effect"
import { WorkspaceRole } from "./enums.ts"
import { InvitationId, UserId, WorkspaceId } from "./ids.ts"
import { Email, Timestamp } from "./text.ts"
import { limits } from "./limits.ts"

/** A pending invitation, as an admin lists it: never its token (nor its link, which holds it). */
export const Invitation = Schema.Struct({
  id: InvitationId,
  workspaceId: WorkspaceId,
  /** The only address that may accept it, or null: anyone with the link. */
  email: Schema.NullOr(Schema.String),
  /** The role the person joins with. */
  role: WorkspaceRole,
  expiresAt: Timestamp,
  createdAt: Timestamp
}).annotate({ identifier: "Invitation", description: "A pending invitation to a workspace, without its link." })
export type Invitation = typeof Invitation.Type

export const InvitationCreated = Schema.Struct({
  ...Invitation.fields,
  /** `PUBLIC_URL/invite/<token>`: the page that shows the invitation and accepts it. */
  url: Schema.String,
  /** `svc_inv_…`: shown in this answer only; only its digest is stored. */
  token: Schema.String
}).annotate({
  identifier: "InvitationCreated",
  description:
    "A new invitation with its link (`url`) and `token` (prefix `svc_inv_`): shown this once only. Valid 7 days, used once."
})
export type InvitationCreated = typeof InvitationCreated.Type

/** What the link shows to whoever holds it, before they sign in. */
export const InvitationPreview = Schema.Struct({
  workspaceName: Schema.String,
  invitedBy: Schema.Struct({ userId: UserId, fullName: Schema.String }),
  role: WorkspaceRole,
  email: Schema.NullOr(Schema.String),
  expiresAt: Timestamp
}).annotate({ identifier: "InvitationPreview", description: "Who invites you, to which workspace, with which role." })
export type InvitationPreview = typeof InvitationPreview.Type

/** `POST /v1/workspaces/{id}/invitations`. */
export const InvitationCreate = Schema.Struct({
  /** When set, only this address may accept, and the link is mailed to it when mail is configured. */
  email: Schema.optionalKey(Email),
  /** `member` unless given; `owner` only from an owner. */
  role: Schema.optionalKey(WorkspaceRole)
})
export type InvitationCreate = typeof InvitationCreate.Type

/** A new password, by signup's length rule (the core also refuses the common ones). */
export const NewPassword = Schema.String.check(
  Schema.isBetweenCodePoints(limits.passwordMin, limits.passwordMax, {
    message: `must be ${limits.passwordMin} to ${limits.passwordMax} characters long`
  })
)
