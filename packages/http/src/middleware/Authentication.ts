/**
 * Which credentials an endpoint accepts, as middleware tags in the contract. The server side
 * lives in `AuthenticationLive.ts`; the CLI's client supplies the credential headers itself.
 */
import { HttpApiMiddleware } from "effect/http-api"
import type { CurrentIntake, CurrentPrincipal } from "../CurrentPrincipal.ts"
import { Forbidden, TooManyRequests, Unauthorized } from "../errors.ts"

// 403: the web app's session cookie sent from another origin, or a change without its CSRF token
const errors = [Unauthorized, Forbidden, TooManyRequests] as const

/** API key, OAuth access token or the web app's session cookie: the board endpoints. */
export class UserAuth extends HttpApiMiddleware.Service<UserAuth, { provides: CurrentPrincipal }>()(
  "board/http/UserAuth",
  { error: errors }
) {}

/** Session token, API key or the web app's session cookie: creating workspaces, adding members. */
export class BootstrapAuth extends HttpApiMiddleware.Service<BootstrapAuth, { provides: CurrentPrincipal }>()(
  "board/http/BootstrapAuth",
  { error: errors }
) {}

/** API key, OAuth access token, session token or the web app's session cookie: projects, intake tokens. */
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
