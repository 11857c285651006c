import { AgentSessions } from "@board/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const AgentsHandlers = HttpApiBuilder.group(Api, "agents", (handlers) =>
  Effect.gen(function* () {
    const sessions = yield* AgentSessions
    return handlers
      .handle("claim", ({ params, payload }) =>
        asPrincipal((p) => sessions.claim(p, params.id, payload)).pipe(
          // the two answers share a shape, so the status is set here: 201 new, 200 the caller's own
          Effect.map((r) => (r.created ? r.session : HttpServerResponse.jsonUnsafe(r.session, { status: 200 })))
        )
      )
      .handle("claimNext", ({ params, payload }) =>
        // undefined: nothing to take, answered 204
        asPrincipal((p) => sessions.claimNext(p, params.projectId, payload))
      )
      .handle("heartbeat", ({ params }) => asPrincipal((p) => sessions.heartbeat(p, params.id)))
      .handle("report", ({ params, payload }) => asPrincipal((p) => sessions.report(p, params.id, payload)))
      .handle("release", ({ params, payload }) => asPrincipal((p) => sessions.release(p, params.id, payload)))
      .handle("session", ({ params, query }) => asPrincipal((p) => sessions.get(p, params.id, query)))
      .handle("cardSessions", ({ params }) => asPrincipal((p) => sessions.forCard(p, params.id)))
      .handle("projectSessions", ({ params, query }) =>
        asPrincipal((p) => sessions.forProject(p, params.projectId, query.status))
      )
  })
)
