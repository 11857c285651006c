import { Accounts, AppConfig, type AuthSession, Oidc, PasswordResets, WebSessions } from "@board/core"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { orHttpError } from "../errors.ts"
import { clientAddress } from "../middleware/budget.ts"
import { clearSessionCookies, fromApp, setSessionCookies, webCookiesFor } from "../middleware/webSession.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const AccountsHandlers = HttpApiBuilder.group(Api, "accounts", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    const webSessions = yield* WebSessions
    const oidc = yield* Oidc
    const resets = yield* PasswordResets
    const cookies = webCookiesFor((yield* AppConfig).publicUrl)

    // signing in from the web app itself also opens a web session (the cookies); the answer's
    // body is the same for every client, and a CLI or script (no Origin) gets no cookie
    const withWebSession = <E, R>(signedIn: Effect.Effect<AuthSession, E, R>) =>
      Effect.gen(function* () {
        const session = yield* signedIn
        if (fromApp(yield* HttpServerRequest.HttpServerRequest, cookies)) {
          yield* setSessionCookies(cookies, yield* webSessions.open(session.user.id))
        }
        return session
      })

    return (
      handlers
        .handle("signup", ({ payload }) => withWebSession(accounts.signup(payload)).pipe(orHttpError))
        .handle("login", ({ payload }) =>
          Effect.gen(function* () {
            // the address lets one that has signed in to this account before past its lock (Accounts.login)
            const address = clientAddress(yield* HttpServerRequest.HttpServerRequest)
            return yield* withWebSession(accounts.login({ ...payload, address }))
          }).pipe(orHttpError)
        )
        .handle("passwordReset", ({ payload }) =>
          resets.request(payload.email).pipe(
            Effect.as({
              message:
                "if this email has an account, a link to choose a new password was mailed to it (valid 1 hour); no mail? ask the server's operator for a link (board admin reset-password EMAIL)"
            }),
            orHttpError
          )
        )
        // the account's web sessions all end; one from the app opens anew, as after a login
        .handle("passwordResetConfirm", ({ payload }) => withWebSession(resets.confirm(payload)).pipe(orHttpError))
        .handle("createApiKey", ({ payload }) => asPrincipal((p) => accounts.createApiKey(p, payload)))
        .handle("listApiKeys", () => asPrincipal((p) => accounts.apiKeys(p)))
        .handle("revokeApiKey", ({ params }) => asPrincipal((p) => accounts.revokeApiKey(p, params.id)))
        .handle("me", () => asPrincipal((p) => accounts.me(p)))
        .handle("authProviders", () => Effect.succeed({ providers: oidc.providers }))
        .handle("logout", () =>
          asPrincipal((p) => webSessions.revoke(p)).pipe(Effect.andThen(clearSessionCookies(cookies)))
        )
    )
  })
)
