import { Projects, WorkspaceAdmin, Workspaces } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const WorkspacesHandlers = HttpApiBuilder.group(Api, "workspaces", (handlers) =>
  Effect.gen(function* () {
    const workspaces = yield* Workspaces
    const admin = yield* WorkspaceAdmin
    const projects = yield* Projects
    return handlers
      .handle("create", ({ payload }) =>
        asPrincipal((p) => workspaces.create(p, payload.name)).pipe(Effect.map((workspace) => ({ workspace })))
      )
      .handle("list", () => asPrincipal((p) => workspaces.list(p)))
      .handle("projects", ({ params, query }) =>
        asPrincipal((p) => workspaces.projects(p, params.id, { archived: query.archived === "true" }))
      )
      .handle("rename", ({ params, payload }) => asPrincipal((p) => admin.rename(p, params.id, payload)))
      .handle("deleteWorkspace", ({ params }) => asPrincipal((p) => admin.remove(p, params.id)))
      .handle("project", ({ params }) => asPrincipal((p) => projects.get(p, params.id)))
      .handle("updateProject", ({ params, payload }) => asPrincipal((p) => projects.update(p, params.id, payload)))
      .handle("deleteProject", ({ params }) => asPrincipal((p) => projects.remove(p, params.id)))
      .handle("createProject", ({ payload }) => asPrincipal((p) => workspaces.createProject(p, payload)))
  })
)
