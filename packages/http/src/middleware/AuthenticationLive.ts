/**
 * Server side of the authentication middleware tags: the credential resolved by the one
 * `authenticate` (shared with the MCP endpoint), or 401 with a challenge; intake tokens and the
 * credential-less endpoints have their own budgets.
 */
import { Intake, type UserCredentialKind } from "@board/core"
import { Effect, Layer } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { CurrentIntake, CurrentPrincipal } from "../CurrentPrincipal.ts"
import { Unauthorized } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, ClientLimit, IntakeAuth, UserAuth } from "./Authentication.ts"
import { header, makeAuthenticate } from "./authenticate.ts"
import { makeBudgets } from "./budget.ts"

const make = (accepts: ReadonlyArray<UserCredentialKind>) =>
  Effect.map(
    makeAuthenticate,
    (authenticate) =>
      // biome-ignore lint/suspicious/noExplicitAny: HttpApiMiddleware's error channel includes its private `unhandled` marker
      (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, any, CurrentPrincipal>) =>
        Effect.gen(function* () {
          const principal = yield* authenticate(accepts)
          return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
        })
  )

/** Intake: the token authenticates first; every failure is the same refusal (body and headers). */
const makeIntake = Effect.gen(function* () {
  const intake = yield* Intake
  const { charge, chargeClient } = yield* makeBudgets
  // biome-ignore lint/suspicious/noExplicitAny: HttpApiMiddleware's error channel includes its private `unhandled` marker
  return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, any, CurrentIntake>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const credential = yield* intake
        .authenticate(header(request, "x-intake-key"))
        .pipe(
          Effect.catchTag("Unauthenticated", (e) =>
            Effect.andThen(chargeClient(request), Effect.fail(new Unauthorized({ error: e.message })))
          )
        )
      // the token's own budget, so a flood on a public form cannot lock its owner out of the API
      yield* charge(`intake:${credential.tokenId}`)
      return yield* Effect.provideService(httpEffect, CurrentIntake, credential)
    })
})

/** Endpoints without a credential (signup, login): limited per client address. */
const makeClientLimit = Effect.map(
  makeBudgets,
  ({ chargeClient }) =>
    // biome-ignore lint/suspicious/noExplicitAny: HttpApiMiddleware's error channel includes its private `unhandled` marker
    (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, any>) =>
      Effect.gen(function* () {
        yield* chargeClient(yield* HttpServerRequest.HttpServerRequest)
        return yield* httpEffect
      })
)

export const AuthenticationLive = Layer.mergeAll(
  Layer.effect(IntakeAuth, makeIntake),
  Layer.effect(ClientLimit, makeClientLimit),
  // the web board's session (`browser`) reaches what an API key reaches
  Layer.effect(UserAuth, make(["apiKey", "oauth", "browser"])),
  Layer.effect(BootstrapAuth, make(["session", "apiKey", "browser"])),
  Layer.effect(AnyUserAuth, make(["apiKey", "oauth", "session", "browser"]))
)
