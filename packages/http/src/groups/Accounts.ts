import { Email, Id, limits, MaxString, Name, Timestamp, Uuid } from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unauthorized } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, ClientLimit } from "../middleware/Authentication.ts"
import { AuthSession } from "../schemas.ts"

export const ApiKeyCreated = Schema.Struct({
  id: Id,
  name: Schema.String,
  rawKey: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const ApiKeyInfo = Schema.Struct({
  id: Id,
  name: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** Whether this is the key making the request. */
  current: Schema.Boolean
})

const signup = HttpApiEndpoint.post("signup", "/v1/auth/signup", {
  payload: Schema.Struct({
    email: Email,
    // counted in code points, as the core (and JSON Schema's minLength/maxLength) count them
    password: Schema.String.check(
      Schema.isBetweenCodePoints(limits.passwordMin, limits.passwordMax, {
        message: `must be ${limits.passwordMin} to ${limits.passwordMax} characters long`
      })
    ),
    full_name: Name
  }),
  success: AuthSession.pipe(HttpApiSchema.status(201)),
  error: [BadRequest, Forbidden, Conflict, TooManyRequests]
}).middleware(ClientLimit)

const login = HttpApiEndpoint.post("login", "/v1/auth/login", {
  // the password as signup takes it (NUL included: it is hashed, never stored); a longer one is no account's
  payload: Schema.Struct({
    email: MaxString(254),
    password: Schema.String.check(
      Schema.isMaxCodePoints(limits.passwordMax, { message: `must be at most ${limits.passwordMax} characters` })
    )
  }),
  success: AuthSession,
  error: [BadRequest, Unauthorized, TooManyRequests]
}).middleware(ClientLimit)

const createApiKey = HttpApiEndpoint.post("createApiKey", "/v1/api-keys", {
  payload: Schema.Struct({ name: Name }),
  success: ApiKeyCreated.pipe(HttpApiSchema.status(201)),
  error: [BadRequest, Forbidden]
}).middleware(BootstrapAuth)

const listApiKeys = HttpApiEndpoint.get("listApiKeys", "/v1/api-keys", {
  success: Schema.Array(ApiKeyInfo),
  error: Forbidden
}).middleware(BootstrapAuth)

const revokeApiKey = HttpApiEndpoint.delete("revokeApiKey", "/v1/api-keys/:id", {
  params: { id: Uuid },
  success: HttpApiSchema.NoContent,
  error: [NotFound, Forbidden]
}).middleware(BootstrapAuth)

const me = HttpApiEndpoint.get("me", "/v1/me", {
  success: Schema.Struct({
    id: Id,
    email: Schema.String,
    full_name: Schema.String,
    /** The kind of credential making the request. */
    credential: Schema.Literals(["apiKey", "oauth", "session", "intake", "browser"])
  }),
  error: NotFound
}).middleware(AnyUserAuth)

// the web board's sign out (issue 21; the session cookie is set by login and signup from the app)
const logout = HttpApiEndpoint.post("logout", "/v1/auth/logout", {
  success: HttpApiSchema.NoContent,
  error: BadRequest
})
  .middleware(AnyUserAuth)
  .annotateMerge(
    OpenApi.annotations({
      summary: "Sign out of the web app",
      description:
        "Ends the web app's session making the request (its session cookie, with the X-CSRF-Token header) on every server at once and clears both cookies. Any other credential is refused with 400: revoke an API key with DELETE /v1/api-keys/{id}."
    })
  )

export class AccountsGroup extends HttpApiGroup.make("accounts")
  .add(signup)
  .add(login)
  .add(createApiKey)
  .add(listApiKeys)
  .add(revokeApiKey)
  .add(me)
  .add(logout)
  .annotateMerge(OpenApi.annotations({ title: "Account bootstrap" })) {}
