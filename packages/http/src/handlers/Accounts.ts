import { Accounts } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { orHttpError } from "../errors.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const AccountsHandlers = HttpApiBuilder.group(Api, "accounts", (handlers) =>
  Effect.gen(function* () {
    const accounts = yield* Accounts
    return handlers
      .handle("signup", ({ payload }) => accounts.signup(payload).pipe(orHttpError))
      .handle("login", ({ payload }) => accounts.login(payload).pipe(orHttpError))
      .handle("createApiKey", ({ payload }) => asPrincipal((p) => accounts.createApiKey(p, payload.name)))
      .handle("listApiKeys", () => asPrincipal((p) => accounts.apiKeys(p)))
      .handle("revokeApiKey", ({ params }) => asPrincipal((p) => accounts.revokeApiKey(p, params.id)))
      .handle("me", () => asPrincipal((p) => accounts.me(p)))
  })
)
