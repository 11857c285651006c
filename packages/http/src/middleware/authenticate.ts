/**
 * The one credential → Principal step of every authenticated request, used by the REST
 * middleware (`AuthenticationLive.ts`) and the MCP endpoint (`mcp/McpAuth.ts`) alike: read the
 * credential headers, resolve them through the core's `Credentials`, and charge the rate budget.
 * A refused credential spends the caller's address budget, never the named user's; an accepted
 * one spends the user's, one budget per user whatever credential or front end they use.
 *
 * The web board's session cookie counts only where the endpoint accepts it (`browser`): the MCP
 * endpoint does not, so the cookie is not even read there.
 *
 * It fails with the contract's errors: Unauthorized (401) with the RFC 6750 / RFC 9728
 * challenge, Forbidden (403: the cookie used from another origin or without its CSRF token),
 * TooManyRequests (429) with Retry-After. Their headers, like the RateLimit headers of
 * an accepted request, are set on the final response (pre-response handlers), so a front end
 * that answers the error itself (`httpErrorResponse`) sends the same response as the REST API.
 */
import {
  AppConfig,
  Credentials,
  type Forbidden as DomainForbidden,
  type Principal,
  type Unauthenticated,
  type UserCredentialKind
} from "@board/core"
import { Effect } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Forbidden, type HttpError, Unauthorized } from "../errors.ts"
import { makeBudgets } from "./budget.ts"
import { requestMeta } from "./requestMeta.ts"
import { browserCredential, clearSessionCookies, webCookiesFor } from "./webSession.ts"

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
  const cookies = webCookiesFor(config.publicUrl)

  const unauthorized = (e: Unauthenticated) =>
    HttpEffect.appendPreResponseHandler((_request, response) =>
      Effect.succeed(
        HttpServerResponse.setHeader(response, "www-authenticate", challengeFor(config.publicUrl, e.invalidToken))
      )
    ).pipe(Effect.andThen(Effect.fail(new Unauthorized({ error: e.message }))))

  const forbidden = (e: DomainForbidden) => Effect.fail(new Forbidden({ error: e.message }))

  const authenticate: Authenticate = (accepts) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const presented = {
        apiKey: header(request, "x-api-key"),
        authorization: header(request, "authorization"),
        intakeKey: header(request, "x-intake-key"),
        browser: accepts.includes("browser") ? browserCredential(request, cookies) : undefined
      }
      const principal = yield* credentials.resolve(presented, accepts).pipe(
        Effect.catchTags({
          Unauthenticated: (e) =>
            Effect.andThen(
              chargeClient(request),
              // an ended web session: the browser drops its cookies, the app shows its sign-in
              presented.browser !== undefined && presented.apiKey === undefined && presented.authorization === undefined
                ? Effect.andThen(clearSessionCookies(cookies), unauthorized(e))
                : unauthorized(e)
            ),
          Forbidden: (e) => Effect.andThen(chargeClient(request), forbidden(e))
        })
      )
      requestMeta(request).userId = principal.userId
      yield* charge(`user:${principal.userId}`)
      return principal
    })
  return authenticate
})
