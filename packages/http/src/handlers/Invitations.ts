import { Invitations } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { orHttpError } from "../errors.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const InvitationsHandlers = HttpApiBuilder.group(Api, "invitations", (handlers) =>
  Effect.gen(function* () {
    const invitations = yield* Invitations
    return handlers
      .handle("create", ({ params, payload }) => asPrincipal((p) => invitations.create(p, params.id, payload)))
      .handle("list", ({ params }) => asPrincipal((p) => invitations.list(p, params.id)))
      .handle("revoke", ({ params }) => asPrincipal((p) => invitations.revoke(p, params.id)))
      .handle("preview", ({ params }) => invitations.preview(params.id).pipe(orHttpError))
      .handle("accept", ({ params }) => asPrincipal((p) => invitations.accept(p, params.token)))
  })
)
