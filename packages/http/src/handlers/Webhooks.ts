import { Webhooks } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const WebhooksHandlers = HttpApiBuilder.group(Api, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* Webhooks
    return handlers
      .handle("create", ({ payload }) => asPrincipal((p) => webhooks.create(p, payload)))
      .handle("list", ({ query }) => asPrincipal((p) => webhooks.list(p, query)))
      .handle("get", ({ params }) => asPrincipal((p) => webhooks.get(p, params.id)))
      .handle("update", ({ params, payload }) => asPrincipal((p) => webhooks.update(p, params.id, payload)))
      .handle("remove", ({ params }) => asPrincipal((p) => webhooks.remove(p, params.id)))
      .handle("deliveries", ({ params, query }) => asPrincipal((p) => webhooks.deliveries(p, params.id, query)))
      .handle("retry", ({ params }) => asPrincipal((p) => webhooks.retry(p, params.id, params.deliveryId)))
      .handle("ping", ({ params }) => asPrincipal((p) => webhooks.ping(p, params.id)))
  })
)
