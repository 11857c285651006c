import { ProjectLinks, Prompts } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const LinksHandlers = HttpApiBuilder.group(Api, "links", (handlers) =>
  Effect.gen(function* () {
    const links = yield* ProjectLinks
    const prompts = yield* Prompts
    return handlers
      .handle("list", ({ params, query }) => asPrincipal((p) => links.list(p, params.projectId, query)))
      .handle("submit", ({ params, payload }) =>
        asPrincipal((p) => links.submit(p, params.projectId, payload)).pipe(
          Effect.map((r) =>
            r.created ? { created: true as const, link: r.link } : { created: false as const, link: r.link }
          )
        )
      )
      .handle("review", ({ params, payload }) =>
        asPrincipal((p) => links.review(p, params.projectId, params.linkId, payload)).pipe(
          Effect.map((link) => ({ link }))
        )
      )
      .handle("remove", ({ params }) =>
        asPrincipal((p) => links.remove(p, params.projectId, params.linkId)).pipe(Effect.as({ success: true as const }))
      )
      .handle("evaluate", ({ params }) =>
        asPrincipal((p) => links.evaluate(p, params.projectId, params.linkId)).pipe(Effect.map((link) => ({ link })))
      )
      .handle("prompt", ({ params, query }) =>
        asPrincipal((p) => prompts.forCard(p, params.id, query.variant ?? "execute"))
      )
  })
)
