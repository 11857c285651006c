/** Server side of the authentication middleware tags: resolve the credential, or answer 401 with a challenge. */
import { AppConfig, Credentials, Intake, type Unauthenticated, type UserCredentialKind } from "@board/core"
import { Effect, Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { CurrentPrincipal } from "../CurrentPrincipal.ts"
import { Unauthorized } from "../errors.ts"
import { CurrentIntake } from "../CurrentPrincipal.ts"
import { AnyUserAuth, BootstrapAuth, ClientLimit, IntakeAuth, UserAuth } from "./Authentication.ts"
import { makeBudgets } from "./budget.ts"
import { requestMeta } from "./requestMeta.ts"

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return value === undefined || value === "" ? undefined : value
}

/** RFC 9728 §5.1 / RFC 6750 §3: every 401 says where to find the authorization server. */
export const challengeFor = (publicUrl: string, invalidToken: boolean) =>
  `Bearer resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/api", scope="mcp"` +
  (invalidToken ? `, error="invalid_token"` : "")

const make = (accepts: ReadonlyArray<UserCredentialKind>) =>
  Effect.gen(function* () {
    const credentials = yield* Credentials
    const config = yield* AppConfig
    const { charge, chargeClient } = yield* makeBudgets
    const unauthorized = (e: Unauthenticated) =>
      HttpEffect.appendPreResponseHandler((_request, response) =>
        Effect.succeed(
          HttpServerResponse.setHeader(response, "www-authenticate", challengeFor(config.publicUrl, e.invalidToken))
        )
      ).pipe(Effect.andThen(Effect.fail(new Unauthorized({ error: e.message }))))

    // biome-ignore lint/suspicious/noExplicitAny: HttpApiMiddleware's error channel includes its private `unhandled` marker
    return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, any, CurrentPrincipal>) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        // a refused credential spends the caller's address budget, never the named user's
        const principal = yield* credentials
          .resolve(
            {
              apiKey: header(request, "x-api-key"),
              authorization: header(request, "authorization"),
              intakeKey: header(request, "x-intake-key")
            },
            accepts
          )
          .pipe(Effect.catchTag("Unauthenticated", (e) => Effect.andThen(chargeClient(request), unauthorized(e))))
        requestMeta(request).userId = principal.userId
        // one budget per user, whatever credential they use
        yield* charge(`user:${principal.userId}`)
        return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
      })
  })

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
  Layer.effect(UserAuth, make(["apiKey", "oauth"])),
  Layer.effect(BootstrapAuth, make(["session", "apiKey"])),
  Layer.effect(AnyUserAuth, make(["apiKey", "oauth", "session"]))
)
