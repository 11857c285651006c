import { Workspaces } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const WorkspacesHandlers = HttpApiBuilder.group(Api, "workspaces", (handlers) =>
  Effect.gen(function* () {
    const workspaces = yield* Workspaces
    return handlers
      .handle("create", ({ payload }) =>
        asPrincipal((p) => workspaces.create(p, payload.name)).pipe(Effect.map((workspace) => ({ workspace })))
      )
      .handle("list", () => asPrincipal((p) => workspaces.list(p)))
      .handle("projects", ({ params }) => asPrincipal((p) => workspaces.projects(p, params.id)))
      .handle("createProject", ({ payload }) => asPrincipal((p) => workspaces.createProject(p, payload)))
  })
)
