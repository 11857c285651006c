/** Server side of the authentication middleware tags: resolve the credential, or answer 401 with a challenge. */
import { Credentials, type Unauthenticated, type UserCredentialKind } from "@board/core"
import { AppConfig } from "@board/core"
import { Effect, Layer } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { CurrentPrincipal } from "../CurrentPrincipal.ts"
import { Unauthorized } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, UserAuth } from "./Authentication.ts"
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
  Effect.gen(function*() {
    const credentials = yield* Credentials
    const config = yield* AppConfig
    const unauthorized = (e: Unauthenticated) =>
      HttpEffect.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeader(response, "www-authenticate", challengeFor(config.publicUrl, e.invalidToken)))
      ).pipe(Effect.andThen(Effect.fail(new Unauthorized({ error: e.message }))))

    return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, any, CurrentPrincipal>) =>
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const principal = yield* credentials.resolve({
          apiKey: header(request, "x-api-key"),
          authorization: header(request, "authorization"),
          intakeKey: header(request, "x-intake-key")
        }, accepts).pipe(Effect.catchTag("Unauthenticated", unauthorized))
        requestMeta(request).userId = principal.userId
        return yield* Effect.provideService(httpEffect, CurrentPrincipal, principal)
      })
  })

export const AuthenticationLive = Layer.mergeAll(
  Layer.effect(UserAuth, make(["apiKey", "oauth"])),
  Layer.effect(BootstrapAuth, make(["session", "apiKey"])),
  Layer.effect(AnyUserAuth, make(["apiKey", "oauth", "session"]))
)
