import { Forge } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const ForgeHandlers = HttpApiBuilder.group(Api, "forge", (handlers) =>
  Effect.gen(function* () {
    const forge = yield* Forge
    return handlers
      .handle("connect", ({ params, payload }) => asPrincipal((p) => forge.connect(p, params.id, payload)))
      .handle("repositories", ({ params }) => asPrincipal((p) => forge.repositories(p, params.id)))
      .handle("disconnect", ({ params }) => asPrincipal((p) => forge.disconnect(p, params.id)))
      .handle("pullRequests", ({ params }) => asPrincipal((p) => forge.pullRequests(p, params.id)))
      .handle("deploy", ({ params, payload }) => asPrincipal((p) => forge.deploy(p, params.id, payload)))
  })
)
