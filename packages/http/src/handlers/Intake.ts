import { Intake, IntakeTokens } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { CurrentIntake } from "../CurrentPrincipal.ts"
import { orHttpError } from "../errors.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const IntakeHandlers = HttpApiBuilder.group(Api, "intake", (handlers) =>
  Effect.gen(function* () {
    const intake = yield* Intake
    const tokens = yield* IntakeTokens
    return handlers
      .handle("file", ({ headers, payload }) =>
        Effect.gen(function* () {
          const credential = yield* CurrentIntake
          yield* intake.file(credential, payload, headers["idempotency-key"])
          return { ok: true as const }
        }).pipe(orHttpError)
      )
      .handle("mintToken", ({ payload }) => asPrincipal((p) => tokens.mint(p, payload)))
      .handle("listTokens", ({ params }) => asPrincipal((p) => tokens.list(p, params.projectId)))
      .handle("revokeToken", ({ params }) => asPrincipal((p) => tokens.revoke(p, params.id)))
  })
)
