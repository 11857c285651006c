import {
  Column,
  checkedId,
  Name,
  Project,
  ProjectId,
  ProjectPatch,
  projectTemplates,
  Workspace,
  WorkspaceId,
  WorkspacePatch
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { doc } from "../schemas.ts"
import { BadRequest, Forbidden, NotFound } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, UserAuth } from "../middleware/Authentication.ts"

const workspaceId = checkedId(WorkspaceId)
const idParams = { id: workspaceId }
const projectParams = { id: checkedId(ProjectId) }

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
      query: {
        archived: Schema.optionalKey(Schema.Literals(["true", "false"]).annotate({ message: "expected true or false" }))
      },
      success: Schema.Array(Project),
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "List a workspace's projects",
          "The projects of a workspace the caller belongs to, archived ones left out; `archived=true` lists the archived ones instead."
        )
      )
      .middleware(UserAuth)
  )
  .add(
    HttpApiEndpoint.patch("rename", "/v1/workspaces/:id", {
      params: idParams,
      payload: WorkspacePatch,
      success: Workspace,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(doc("Rename a workspace", "An admin's or owner's (403 for the other roles)."))
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.delete("deleteWorkspace", "/v1/workspaces/:id", {
      params: idParams,
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Delete a workspace",
          "An owner's (403 for the other roles). Everything in it is gone: its projects with their boards, cards, comments, links, intake tokens, agent sessions and history, its webhooks and its memberships; its open event streams end."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.get("project", "/v1/projects/:id", {
      params: projectParams,
      success: Project,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(doc("Get a project", "Any member's; an archived project too."))
      .middleware(AnyUserAuth)
  )
  .add(
    HttpApiEndpoint.patch("updateProject", "/v1/projects/:id", {
      params: projectParams,
      payload: ProjectPatch,
      success: Project,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Change a project",
          "An admin's or owner's (403 for the other roles): `name`, `archived` (true archives, false restores) and `automation` (the switches named change, the others stay). Events: `project.updated`, `project.archived`, `project.restored`."
        )
      )
      .middleware(BootstrapAuth)
  )
  .add(
    HttpApiEndpoint.delete("deleteProject", "/v1/projects/:id", {
      params: projectParams,
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Delete a project",
          "An admin's or owner's (403 for the other roles). Its board, cards, comments, links, intake tokens, webhooks and history are gone; its open event streams end after a `project.deleted` event, which the workspace's webhooks also get."
        )
      )
      .middleware(BootstrapAuth)
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
