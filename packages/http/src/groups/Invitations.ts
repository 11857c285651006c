/** CONTRACT.md "Teams": invitations to a workspace, by link (and by mail when configured). */
import {
  checkedId,
  Invitation,
  InvitationCreate,
  InvitationCreated,
  InvitationPreview,
  Member,
  MaxString,
  Uuid,
  Workspace,
  WorkspaceId
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, ClientLimit } from "../middleware/Authentication.ts"
import { doc } from "../schemas.ts"

const workspaceParams = { id: checkedId(WorkspaceId) }
// any text: a link that is not one answers the same 404 as a used or expired one
const token = MaxString(200).annotate({
  description: "the invitation's token (`svc_inv_…`), the last part of its link"
})
const tokenParams = { token }

export const InvitationAccepted = Schema.Struct({ workspace: Workspace, member: Member }).annotate({
  identifier: "InvitationAccepted",
  description: "The workspace joined (with the role the invitation gave) and the new membership."
})

export class InvitationsGroup extends HttpApiGroup.make("invitations")
  .add(
    HttpApiEndpoint.post("create", "/v1/workspaces/:id/invitations", {
      params: workspaceParams,
      payload: InvitationCreate,
      success: InvitationCreated.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Invite someone",
          "Admins and owners: makes a link (`url`, `PUBLIC_URL/invite/<token>`) that lets one person join the workspace with `role` (default `member`; `owner` only from an owner). The token (prefix `svc_inv_`) is shown in this answer only. Valid 7 days, used once. With `email`, only that address may accept it, and the link is also mailed to it when the server has mail (SMTP_URL); without mail, pass the link on yourself."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/workspaces/:id/invitations", {
      params: workspaceParams,
      success: Schema.Array(Invitation),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "List pending invitations",
          "Admins and owners: the invitations not yet used nor expired, oldest first, without their tokens or links."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.delete("revoke", "/v1/invitations/:id", {
      params: { id: Uuid },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Withdraw an invitation",
          "Admins and owners: the invitation's link answers 404 from then on. 404 for one already used."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    // `{id}` in the document: OpenAPI allows one name per position, and DELETE's is the id; the
    // value here is the token, as CONTRACT.md's GET /v1/invitations/{token} says
    HttpApiEndpoint.get("preview", "/v1/invitations/:id", {
      params: { id: token },
      success: InvitationPreview,
      error: [BadRequest, NotFound]
    })
      .annotateMerge(
        doc(
          "Read an invitation",
          "No credential. `{id}` is the invitation's token (`svc_inv_…`, the last part of its link), not its id. What the link offers (the workspace's name, who invites, the role, the email it is for, when it expires), for the page that accepts it. 404 with one message for an unknown, used, withdrawn or expired link. Limited per client address."
        )
      )
      .middleware(ClientLimit)
  )
  .add(
    HttpApiEndpoint.post("accept", "/v1/invitations/:token/accept", {
      params: tokenParams,
      success: InvitationAccepted,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
      .annotateMerge(
        doc(
          "Accept an invitation",
          "Joins the workspace as the caller, with the invitation's role, and uses the link up. 404 as for reading it; 409 when the caller is already a member (the link stays usable); 403 when the invitation names another email. A new account accepts one by signing up with `invitation`."
        )
      )
      .middleware(AnyUserAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Invitations",
      description:
        "Links that let a person join a workspace: made by admins, shown once, valid 7 days, used once; mailed when the server has mail."
    })
  ) {}
