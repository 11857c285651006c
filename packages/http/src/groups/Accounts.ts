import {
  Email,
  Id,
  keyLimitFields,
  keyLimitViewFields,
  limits,
  MaxString,
  Name,
  NewPassword,
  Timestamp,
  Uuid
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound, TooManyRequests, Unauthorized } from "../errors.ts"
import { AnyUserAuth, BootstrapAuth, ClientLimit } from "../middleware/Authentication.ts"
import { AuthSession, doc } from "../schemas.ts"

export const ApiKeyCreated = Schema.Struct({
  id: Id,
  name: Schema.String,
  ...keyLimitViewFields,
  rawKey: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "ApiKeyCreated",
  description: "A new API key, with its secret `rawKey`: shown this once only."
})

export const ApiKeyInfo = Schema.Struct({
  id: Id,
  name: Schema.String,
  ...keyLimitViewFields,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  /** Whether this is the key making the request. */
  current: Schema.Boolean
}).annotate({ identifier: "ApiKey", description: "One of the caller's API keys, without its secret." })

const signup = HttpApiEndpoint.post("signup", "/v1/auth/signup", {
  payload: Schema.Struct({
    email: Email,
    // counted in code points, as the core (and JSON Schema's minLength/maxLength) count them
    password: Schema.String.check(
      Schema.isBetweenCodePoints(limits.passwordMin, limits.passwordMax, {
        message: `must be ${limits.passwordMin} to ${limits.passwordMax} characters long`
      })
    ),
    full_name: Name,
    /** An invitation's token (`svc_inv_…`): the account joins its workspace at once. */
    invitation: Schema.optionalKey(MaxString(200))
  }),
  success: AuthSession.pipe(HttpApiSchema.status(201)),
  error: [BadRequest, Forbidden, NotFound, Conflict, TooManyRequests]
})
  .annotateMerge(
    doc(
      "Sign up",
      "Creates an account and answers a short-lived session token for the bootstrap calls (create a workspace, a project, an API key). With `invitation` (an invitation's token) the account joins that workspace at once, also while signups are closed; 404 for an unknown, used, withdrawn or expired invitation, 403 when it names another email. 400 for a commonly used password or an email with invisible or control characters; 409 when the email has an account; 429 after more than one signup per email every 5 minutes; 403 when signups are closed and no invitation is given."
    )
  )
  .middleware(ClientLimit)

const passwordReset = HttpApiEndpoint.post("passwordReset", "/v1/auth/password-reset", {
  payload: Schema.Struct({ email: Email }),
  success: Schema.Struct({ message: Schema.String }).pipe(HttpApiSchema.status(202)),
  error: [BadRequest, TooManyRequests]
})
  .annotateMerge(
    doc(
      "Ask for a password reset",
      "When the email has an account and the server has mail (SMTP_URL), mails it a one-time link to `PUBLIC_URL/reset-password/<token>`, valid 1 hour (at most 5 per hour). Answers 202 with the same body whether or not the account exists. Without mail, an operator prints a link with `board admin reset-password EMAIL`."
    )
  )
  .middleware(ClientLimit)

const passwordResetConfirm = HttpApiEndpoint.post("passwordResetConfirm", "/v1/auth/password-reset/confirm", {
  payload: Schema.Struct({
    /** The token of the link (`svc_pr_…`, the last part of `/reset-password/<token>`). */
    token: MaxString(200),
    password: NewPassword
  }),
  success: AuthSession,
  error: [BadRequest, NotFound, TooManyRequests]
})
  .annotateMerge(
    doc(
      "Set a new password",
      "Uses a reset link's token once: sets the password (signup's rules; 400 for a weak one), ends every web app session of the account on every server, and answers like login. 404 for an unknown, used or expired link."
    )
  )
  .middleware(ClientLimit)

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
})
  .annotateMerge(
    doc(
      "Log in",
      "Trades an email and password for a new session token. 401 for a wrong password or an unknown email, alike. Limited per client address and per account: after 10 failures for one email within 15 minutes it answers 429 with Retry-After (at most 15 minutes) to every address that has not signed in to that account in the last 30 days."
    )
  )
  .middleware(ClientLimit)

const createApiKey = HttpApiEndpoint.post("createApiKey", "/v1/api-keys", {
  payload: Schema.Struct({ name: Name, ...keyLimitFields }).annotate({ identifier: "ApiKeyCreate" }),
  success: ApiKeyCreated.pipe(HttpApiSchema.status(201)),
  error: [BadRequest, Forbidden, NotFound]
})
  .annotateMerge(
    doc(
      "Create an API key",
      "Creates an API key for the caller. `rawKey` (prefix `svc_`) is shown in this answer only: store it. Send it as `X-API-Key`. Optional limits: `scopes` (some of read, write, delete, admin; all when left out: reads need read, creating and changing write, DELETE delete, managing members, projects, webhooks and keys admin), `projectIds` (the projects it reaches; outside them it answers 404) and `expiresAt` (then it answers 401). A key made with a limited key is limited as much (never more than its maker)."
    )
  )
  .middleware(BootstrapAuth)

const listApiKeys = HttpApiEndpoint.get("listApiKeys", "/v1/api-keys", {
  success: Schema.Array(ApiKeyInfo),
  error: Forbidden
})
  .annotateMerge(
    doc("List API keys", "The caller's API keys, without their secrets; `current` marks the key making the request.")
  )
  .middleware(BootstrapAuth)

const revokeApiKey = HttpApiEndpoint.delete("revokeApiKey", "/v1/api-keys/:id", {
  params: { id: Uuid },
  success: HttpApiSchema.NoContent,
  error: [NotFound, Forbidden]
})
  .annotateMerge(
    doc(
      "Revoke an API key",
      "Revokes one of the caller's API keys; requests with it answer 401 from then on, whatever it opened (event streams, MCP sessions) ends within 1 second on every instance, and the webhooks it created are disabled."
    )
  )
  .middleware(BootstrapAuth)

const me = HttpApiEndpoint.get("me", "/v1/me", {
  success: Schema.Struct({
    id: Id,
    email: Schema.String,
    full_name: Schema.String,
    /** The kind of credential making the request. */
    credential: Schema.Literals(["apiKey", "oauth", "session", "intake", "browser"])
  }),
  error: NotFound
})
  .annotateMerge(
    doc(
      "Who am I",
      "The account the calling credential acts for, and the kind of credential (API key, OAuth token, session token, the web app's session cookie)."
    )
  )
  .middleware(AnyUserAuth)

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

export const SignInProviders = Schema.Struct({
  providers: Schema.Array(
    Schema.Struct({
      id: Schema.Literal("oidc"),
      /** Shown as "Sign in with <name>". */
      name: Schema.String,
      /** The path on this origin a browser opens to sign in with it. */
      startUrl: Schema.String
    })
  )
}).annotate({
  identifier: "SignInProviders",
  description: "The single sign-on providers the sign-in page offers beside the password (none unless configured)."
})

// the sign-in page asks which single sign-on provider to offer (docs/sso.md)
const authProviders = HttpApiEndpoint.get("authProviders", "/v1/auth/providers", { success: SignInProviders })
  .annotateMerge(
    doc(
      "List sign-in providers",
      "The single sign-on providers this server offers (OIDC_ISSUER): each with the name its button shows and the path a browser opens to sign in with it (`/auth/oidc/start`, outside the API; the result is the web app's session). An empty list without single sign-on. No credential."
    )
  )
  .middleware(ClientLimit)

export class AccountsGroup extends HttpApiGroup.make("accounts")
  .add(signup)
  .add(login)
  .add(passwordReset)
  .add(passwordResetConfirm)
  .add(createApiKey)
  .add(listApiKeys)
  .add(revokeApiKey)
  .add(me)
  .add(logout)
  .add(authProviders)
  .annotateMerge(
    OpenApi.annotations({
      title: "Account bootstrap",
      description:
        "Sign up (also by invitation), log in, reset a password, sign out of the web app, and manage API keys: a session token only bootstraps (workspaces, projects, API keys); everything else takes an API key, an OAuth token or the web app's session cookie."
    })
  ) {}
