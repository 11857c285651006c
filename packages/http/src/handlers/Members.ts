import { Members } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const MembersHandlers = HttpApiBuilder.group(Api, "members", (handlers) =>
  Effect.gen(function* () {
    const members = yield* Members
    return handlers
      .handle("list", ({ params }) => asPrincipal((p) => members.list(p, params.id)))
      .handle("add", ({ params, payload }) => asPrincipal((p) => members.add(p, params.id, payload)))
      .handle("setRole", ({ params, payload }) =>
        asPrincipal((p) => members.setRole(p, params.id, params.userId, payload))
      )
      .handle("remove", ({ params }) => asPrincipal((p) => members.remove(p, params.id, params.userId)))
  })
)
