/**
 * The one credential → Principal step of every authenticated request, used by the REST
 * middleware (`AuthenticationLive.ts`) and the MCP endpoint (`mcp/McpAuth.ts`) alike: read the
 * credential headers, resolve them through the core's `Credentials`, and charge the rate budget.
 * A refused credential spends the caller's address budget, never the named user's; an accepted
 * one spends the user's, one budget per user whatever credential or front end they use.
 *
 * It fails with the contract's errors: Unauthorized (401) with the RFC 6750 / RFC 9728
 * challenge, TooManyRequests (429) with Retry-After. Their headers, like the RateLimit headers of
 * an accepted request, are set on the final response (pre-response handlers), so a front end
 * that answers the error itself (`httpErrorResponse`) sends the same response as the REST API.
 */
import { AppConfig, Credentials, type Principal, type Unauthenticated, type UserCredentialKind } from "@board/core"
import { Effect } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type HttpError, Unauthorized } from "../errors.ts"
import { makeBudgets } from "./budget.ts"
import { requestMeta } from "./requestMeta.ts"

/** A request header, absent when empty. */
export const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => {
  const value = request.headers[name]
  return value === undefined || value === "" ? undefined : value
}

/** RFC 9728 §5.1 / RFC 6750 §3: every 401 says where to find the authorization server. */
export const challengeFor = (publicUrl: string, invalidToken: boolean) =>
  `Bearer resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/api", scope="mcp"` +
  (invalidToken ? `, error="invalid_token"` : "")

/** The request's principal; fails with Unauthorized or TooManyRequests (typed as any `{error}` failure of the contract). */
export type Authenticate = (
  accepts: ReadonlyArray<UserCredentialKind>
) => Effect.Effect<Principal, HttpError, HttpServerRequest.HttpServerRequest>

export const makeAuthenticate = Effect.gen(function* () {
  const credentials = yield* Credentials
  const config = yield* AppConfig
  const { charge, chargeClient } = yield* makeBudgets

  const unauthorized = (e: Unauthenticated) =>
    HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(
        HttpServerResponse.setHeader(response, "www-authenticate", challengeFor(config.publicUrl, e.invalidToken))
      )
    ).pipe(Effect.andThen(Effect.fail(new Unauthorized({ error: e.message }))))

  const authenticate: Authenticate = (accepts) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
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
      yield* charge(`user:${principal.userId}`)
      return principal
    })
  return authenticate
})
