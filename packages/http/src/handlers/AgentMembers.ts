import { AgentMembers } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const AgentMembersHandlers = HttpApiBuilder.group(Api, "agentMembers", (handlers) =>
  Effect.gen(function* () {
    const agents = yield* AgentMembers
    return handlers
      .handle("create", ({ params, payload }) => asPrincipal((p) => agents.create(p, params.id, payload)))
      .handle("list", ({ params }) => asPrincipal((p) => agents.list(p, params.id)))
      .handle("remove", ({ params }) => asPrincipal((p) => agents.remove(p, params.id)))
      .handle("createKey", ({ params, payload }) => asPrincipal((p) => agents.createKey(p, params.id, payload)))
      .handle("keys", ({ params }) => asPrincipal((p) => agents.keys(p, params.id)))
      .handle("revokeKey", ({ params }) => asPrincipal((p) => agents.revokeKey(p, params.id, params.keyId)))
  })
)
