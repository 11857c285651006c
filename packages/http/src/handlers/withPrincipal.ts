import type { DomainError, Principal } from "@board/core"
import { Effect } from "effect"
import { CurrentPrincipal } from "../CurrentPrincipal.ts"
import { orHttpError } from "../errors.ts"

/** Calls one core method as the current principal, mapping domain errors to their statuses. */
export const asPrincipal = <A, E extends DomainError, R>(f: (principal: Principal) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const principal = yield* CurrentPrincipal
    return yield* f(principal)
  }).pipe(orHttpError)
