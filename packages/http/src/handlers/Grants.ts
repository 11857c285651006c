import { OAuth } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const GrantsHandlers = HttpApiBuilder.group(Api, "grants", (handlers) =>
  Effect.gen(function* () {
    const oauth = yield* OAuth
    return handlers
      .handle("list", () => asPrincipal((p) => oauth.grants(p)))
      .handle("revoke", ({ params }) => asPrincipal((p) => oauth.revokeGrant(p, params.id)))
  })
)
