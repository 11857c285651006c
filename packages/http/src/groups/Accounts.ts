import { limits } from "@board/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, TooManyRequests, Unauthorized } from "../errors.ts"
import { BootstrapAuth, ClientLimit } from "../middleware/Authentication.ts"
import { AuthSession, MaxString, Name } from "../schemas.ts"

export const ApiKeyCreated = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  rawKey: Schema.String,
  createdAt: Schema.String
})

const signup = HttpApiEndpoint.post("signup", "/v1/auth/signup", {
  payload: Schema.Struct({
    email: MaxString(254),
    // counted in code points by the core; the schema bound only stops absurd input early
    password: Schema.String.check(Schema.isMaxLength(limits.passwordMax * 2, { message: "must be 8 to 128 characters" })),
    full_name: Name
  }),
  success: AuthSession.pipe(HttpApiSchema.status(201)),
  error: [BadRequest, Forbidden, Conflict, TooManyRequests]
}).middleware(ClientLimit)

const login = HttpApiEndpoint.post("login", "/v1/auth/login", {
  payload: Schema.Struct({ email: MaxString(254), password: MaxString(limits.passwordMax * 2) }),
  success: AuthSession,
  error: [BadRequest, Unauthorized, TooManyRequests]
}).middleware(ClientLimit)

const createApiKey = HttpApiEndpoint.post("createApiKey", "/v1/api-keys", {
  payload: Schema.Struct({ name: Name }),
  success: ApiKeyCreated.pipe(HttpApiSchema.status(201)),
  error: [BadRequest, Forbidden]
}).middleware(BootstrapAuth)

export class AccountsGroup extends HttpApiGroup.make("accounts")
  .add(signup)
  .add(login)
  .add(createApiKey)
  .annotateMerge(OpenApi.annotations({ title: "Account bootstrap" }))
{}
