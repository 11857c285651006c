/** A user's OAuth grants: listed and revoked with an API key or a session (CONTRACT.md). */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { doc } from "../schemas.ts"
import { Forbidden, NotFound } from "../errors.ts"
import { BootstrapAuth } from "../middleware/Authentication.ts"
import { Id, Timestamp, Uuid } from "@board/core/contract"

export const Grant = Schema.Struct({
  id: Id,
  clientId: Schema.String,
  clientName: Schema.NullOr(Schema.String),
  workspaces: Schema.Array(Id),
  scope: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "Grant", description: "An OAuth client the user allowed, and the workspaces it may use." })

export class GrantsGroup extends HttpApiGroup.make("grants")
  .add(
    HttpApiEndpoint.get("list", "/v1/oauth/grants", { success: Schema.Array(Grant) }).annotateMerge(
      doc("List OAuth grants", "The OAuth clients (agents) the caller allowed, with the workspaces each may use.")
    )
  )
  .add(
    HttpApiEndpoint.delete("revoke", "/v1/oauth/grants/:id", {
      params: { id: Uuid },
      success: HttpApiSchema.NoContent,
      error: [NotFound, Forbidden]
    }).annotateMerge(
      doc(
        "Revoke an OAuth grant",
        "Revokes a grant and every token issued under it, at once: what its tokens opened (event streams, MCP sessions) ends within 1 second on every instance, and the webhooks made with it are disabled."
      )
    )
  )
  .middleware(BootstrapAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "OAuth grants",
      description: "The agents you allowed, and the workspaces each may use; revoking takes effect at once."
    })
  ) {}
