/**
 * Charges a request to a budget (a user, an intake token, or a client address) and writes the
 * IETF RateLimit headers on the response; an exhausted budget fails with 429 and Retry-After.
 */
import { type BudgetState, RateBudget } from "@board/core"
import { Effect, Option } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { failDomain } from "../errors.ts"

export const rateLimitHeaders = (s: BudgetState): Record<string, string> => ({
  "ratelimit-policy": `"default";q=${s.limit};w=${s.windowSeconds}`,
  ratelimit: `"default";r=${s.remaining};t=${s.resetSeconds}`
})

/** The connected peer's address; forwarding headers are not trusted (they are client-chosen). */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

export const makeBudgets = Effect.gen(function* () {
  const budget = yield* RateBudget
  return {
    /** Charges `key`; on success the response carries the budget's headers. */
    charge: (key: string) =>
      Effect.gen(function* () {
        const state = yield* budget.charge(key).pipe(Effect.catchTag("TooManyRequests", failDomain))
        if (state !== undefined) {
          const headers = rateLimitHeaders(state)
          yield* HttpEffect.appendPreResponseHandler((_req, res) =>
            Effect.succeed(HttpServerResponse.setHeaders(res, headers))
          )
        }
      }),
    /** Charges the client address without announcing the budget (the response is not credentialed). */
    chargeClient: (request: HttpServerRequest.HttpServerRequest) =>
      budget.charge(`ip:${clientAddress(request)}`).pipe(Effect.catchTag("TooManyRequests", failDomain), Effect.asVoid)
  }
})
