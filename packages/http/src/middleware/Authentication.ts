/**
 * Which credentials an endpoint accepts, as middleware tags in the contract. The server side
 * lives in `AuthenticationLive.ts`; the CLI's client supplies the credential headers itself.
 */
import { HttpApiMiddleware } from "effect/http-api"
import type { CurrentIntake, CurrentPrincipal } from "../CurrentPrincipal.ts"
import { TooManyRequests, Unauthorized } from "../errors.ts"

const errors = [Unauthorized, TooManyRequests] as const

/** API key or OAuth access token: the board endpoints. */
export class UserAuth extends HttpApiMiddleware.Service<UserAuth, { provides: CurrentPrincipal }>()(
  "board/http/UserAuth",
  { error: errors }
) {}

/** Session token or API key: creating workspaces, adding members. */
export class BootstrapAuth extends HttpApiMiddleware.Service<BootstrapAuth, { provides: CurrentPrincipal }>()(
  "board/http/BootstrapAuth",
  { error: errors }
) {}

/** API key, OAuth access token or session token: projects, intake tokens. */
export class AnyUserAuth extends HttpApiMiddleware.Service<AnyUserAuth, { provides: CurrentPrincipal }>()(
  "board/http/AnyUserAuth",
  { error: errors }
) {}

/** X-Intake-Key: only POST /v1/intake. */
export class IntakeAuth extends HttpApiMiddleware.Service<IntakeAuth, { provides: CurrentIntake }>()(
  "board/http/IntakeAuth",
  { error: errors }
) {}

/** No credential (signup, login): a budget per client address. */
export class ClientLimit extends HttpApiMiddleware.Service<ClientLimit>()("board/http/ClientLimit", {
  error: TooManyRequests
}) {}
