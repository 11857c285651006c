import { Column, checkedId, Name, Project, projectTemplates, Workspace, WorkspaceId } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { doc } from "../schemas.ts"
import { BadRequest, Forbidden, NotFound } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, UserAuth } from "../middleware/Authentication.ts"

const workspaceId = checkedId(WorkspaceId)
const idParams = { id: workspaceId }

export const ProjectCreated = Schema.Struct({ project: Project, columns: Schema.Array(Column) }).annotate({
  identifier: "ProjectCreated",
  description: "A new project and the columns its template made."
})

export class WorkspacesGroup extends HttpApiGroup.make("workspaces")
  .add(
    HttpApiEndpoint.post("create", "/v1/workspaces", {
      payload: Schema.Struct({ name: Name }),
      success: Schema.Struct({ workspace: Workspace }).pipe(HttpApiSchema.status(201)),
      error: BadRequest
    })
      .annotateMerge(doc("Create a workspace", "Creates a workspace owned by the caller."))
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.get("list", "/v1/workspaces", { success: Schema.Array(Workspace) })
      .annotateMerge(
        doc(
          "List workspaces",
          "The workspaces the caller belongs to (for an OAuth token, those its grant covers), with the caller's role in each."
        )
      )
      .middleware(UserAuth)
  )
  .add(
    HttpApiEndpoint.get("projects", "/v1/workspaces/:id/projects", {
      params: idParams,
      success: Schema.Array(Project),
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("List a workspace's projects", "The projects of a workspace the caller belongs to."))
      .middleware(UserAuth)
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
    })
      .annotateMerge(
        doc(
          "Create a project",
          "Creates a project (one board) in a workspace. `template: kanban` creates the columns To Do, In Progress and Done; without a template the board is blank. The project's card refs start with a prefix made from its name (`WEB-12`)."
        )
      )
      .middleware(AnyUserAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Workspaces and projects",
      description: "Workspaces and their projects (one board each); their members are under Members."
    })
  ) {}
