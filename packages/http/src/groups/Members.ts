/** A workspace's members and their roles (CONTRACT.md, "Teams: roles, members, …"). */
import { checkedId, Member, MemberAdd, MemberRolePatch, UserId, WorkspaceId } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound } from "../errors.ts"
import { BootstrapAuth, UserAuth } from "../middleware/Authentication.ts"
import { doc } from "../schemas.ts"

const idParams = { id: checkedId(WorkspaceId) }
const memberParams = { id: checkedId(WorkspaceId), userId: checkedId(UserId) }

export class MembersGroup extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("list", "/v1/workspaces/:id/members", {
      params: idParams,
      success: Schema.Array(Member),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(
        doc("List a workspace's members", "The members of a workspace, with their roles and kind (person or agent).")
      )
      .middleware(UserAuth)
  )
  .add(
    HttpApiEndpoint.post("add", "/v1/workspaces/:id/members", {
      params: idParams,
      payload: MemberAdd,
      success: Member.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
      .annotateMerge(
        doc(
          "Add a member",
          "An admin adds the account with this email, as `role` (default `member`; only an owner adds an owner). 404 when no account has the email, 409 when it is already a member."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.patch("setRole", "/v1/workspaces/:id/members/:userId", {
      params: memberParams,
      payload: MemberRolePatch,
      success: Member,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    })
      .annotateMerge(
        doc(
          "Change a member's role",
          "An admin changes a member's role; making or unmaking an owner takes an owner. 409 when it would leave the workspace without an owner. Takes effect on the member's next request."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.delete("remove", "/v1/workspaces/:id/members/:userId", {
      params: memberParams,
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    })
      .annotateMerge(
        doc(
          "Remove a member, or leave",
          "An admin removes a member (an owner, an owner); any member removes themself (leaves). 409 when it would leave the workspace without an owner. Their card assignments in the workspace end; their cards, comments and history stay; what they have open there (event streams, MCP) ends within a second."
        )
      )
      .middleware(BootstrapAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Members",
      description:
        "A workspace's members and their roles: owner, admin, member (works the boards), viewer (reads, changes nothing)."
    })
  ) {}
