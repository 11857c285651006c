import { AppConfig } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { healthBody } from "../monitoring/healthFastPath.ts"
import { serviceVersion } from "../monitoring/version.ts"

export const SystemHandlers = HttpApiBuilder.group(Api, "system", (handlers) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const baseUrl = `${config.publicUrl}/api`
    const index = {
      status: "ok" as const,
      service: "service-api" as const,
      name: "Board Service",
      description:
        "A board for human and agent teams: workspaces, projects, columns, cards, labels, subtasks, links, agent prompts and a blind intake channel.",
      version: "1.0",
      serviceVersion,
      baseUrl,
      documentation: {
        openapi: `${baseUrl}/v1/openapi.json`,
        docs: `${baseUrl}/v1/docs`,
        oauthAuthorizationServer: `${config.publicUrl}/.well-known/oauth-authorization-server`,
        oauthProtectedResource: `${config.publicUrl}/.well-known/oauth-protected-resource/api`
      },
      authentication: {
        required: true,
        schemes: [
          {
            type: "apiKey",
            in: "header",
            name: "X-API-Key",
            prefix: "svc_",
            description: "API key; acts for its user across all of the user's workspaces."
          },
          {
            type: "http",
            scheme: "bearer",
            prefix: "svc_at_",
            description: "OAuth 2.1 access token (scope mcp), bound to the workspaces chosen at consent."
          },
          {
            type: "apiKey",
            in: "header",
            name: "X-Intake-Key",
            prefix: "svc_in_",
            description: "Intake token: only POST /v1/intake, into one column."
          },
          {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description: "Session token from signup or login: only the account bootstrap endpoints."
          }
        ]
      }
    }
    // most health requests never reach this handler (monitoring/healthFastPath.ts)
    return handlers.handle("index", () => Effect.succeed(index)).handle("health", () => Effect.succeed(healthBody))
  })
)
