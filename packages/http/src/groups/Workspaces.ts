import {
  Column,
  checkedId,
  Email,
  Member,
  Name,
  Project,
  projectTemplates,
  Workspace,
  WorkspaceId
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, UserAuth } from "../middleware/Authentication.ts"

const workspaceId = checkedId(WorkspaceId)
const idParams = { id: workspaceId }

export const ProjectCreated = Schema.Struct({ project: Project, columns: Schema.Array(Column) })

export class WorkspacesGroup extends HttpApiGroup.make("workspaces")
  .add(
    HttpApiEndpoint.post("create", "/v1/workspaces", {
      payload: Schema.Struct({ name: Name }),
      success: Schema.Struct({ workspace: Workspace }).pipe(HttpApiSchema.status(201)),
      error: BadRequest
    }).middleware(BootstrapAuth)
  )
  .add(HttpApiEndpoint.get("list", "/v1/workspaces", { success: Schema.Array(Workspace) }).middleware(UserAuth))
  .add(
    HttpApiEndpoint.get("projects", "/v1/workspaces/:id/projects", {
      params: idParams,
      success: Schema.Array(Project),
      error: [Forbidden, NotFound]
    }).middleware(UserAuth)
  )
  .add(
    HttpApiEndpoint.get("members", "/v1/workspaces/:id/members", {
      params: idParams,
      success: Schema.Array(Member),
      error: [Forbidden, NotFound]
    }).middleware(UserAuth)
  )
  .add(
    HttpApiEndpoint.post("addMember", "/v1/workspaces/:id/members", {
      params: idParams,
      payload: Schema.Struct({ email: Email }),
      success: Member.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound]
    }).middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.post("createProject", "/v1/projects", {
      payload: Schema.Struct({
        workspaceId,
        name: Name,
        template: Schema.optionalKey(
          Schema.Literals(Object.keys(projectTemplates)).annotate({
            message: `unknown template; use one of: ${Object.keys(projectTemplates).join(", ")}, or omit it for a blank board`
          })
        )
      }),
      success: ProjectCreated.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound]
    }).middleware(AnyUserAuth)
  )
  .annotateMerge(OpenApi.annotations({ title: "Workspaces and projects" })) {}
