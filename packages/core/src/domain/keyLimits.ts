/**
 * Scoped credentials (issue 33): what a key may do (`scopes`), where (`projectIds`) and until
 * when (`expiresAt`). API keys (`POST /v1/api-keys`) and agent keys take the same three fields;
 * an OAuth grant's scope `mcp` is read and write, `mcp:read` is read only. The access rule
 * (board/Access.ts) checks them per operation: reads need `read`, creating and changing `write`,
 * deleting `delete`, managing (members, invitations, workspaces, projects, repositories,
 * webhooks, keys) `admin`.
 */
import { Schema } from "effect"
import { checkedId, ProjectId } from "./ids.ts"
import { DateTimeInput, Timestamp } from "./text.ts"

/** The scopes a key may hold, in their order; a key made without `scopes` holds all of them. */
export const apiKeyScopes = ["read", "write", "delete", "admin"] as const
export const ApiKeyScope = Schema.Literals(apiKeyScopes).annotate({
  message: `unknown scope; use some of: ${apiKeyScopes.join(", ")}`
})
export type ApiKeyScope = typeof ApiKeyScope.Type

/** The most projects one key may be limited to. */
export const KEY_PROJECTS_MAX = 100

/** What a client may send when it makes a key (each field optional: all scopes, every project, no end). */
export const keyLimitFields = {
  /** A subset of read, write, delete, admin; all of them when left out. */
  scopes: Schema.optionalKey(
    Schema.Array(ApiKeyScope).check(
      Schema.isMinLength(1, {
        message: `name at least one of ${apiKeyScopes.join(", ")}, or leave scopes out for all of them`
      }),
      Schema.isMaxLength(apiKeyScopes.length, { message: "at most 4 scopes" })
    )
  ),
  /** The projects the key reaches (ids); every project of the account's workspaces when left out. */
  projectIds: Schema.optionalKey(
    Schema.Array(checkedId(ProjectId)).check(
      Schema.isMinLength(1, { message: "name at least one project, or leave projectIds out for every project" }),
      Schema.isMaxLength(KEY_PROJECTS_MAX, { message: `at most ${KEY_PROJECTS_MAX} projects` })
    )
  ),
  /** When the key stops working (ISO 8601, in the future); never when left out. */
  expiresAt: Schema.optionalKey(DateTimeInput)
}

/** What a key's answers say about its limits. */
export const keyLimitViewFields = {
  scopes: Schema.Array(ApiKeyScope),
  /** null: every project of the account's workspaces. */
  projectIds: Schema.NullOr(Schema.Array(ProjectId)),
  /** null: never expires. */
  expiresAt: Schema.NullOr(Timestamp)
}

/** The limits a key was made with, as the core takes them. */
export interface KeyLimitsInput {
  readonly scopes?: ReadonlyArray<ApiKeyScope> | undefined
  readonly projectIds?: ReadonlyArray<string> | undefined
  readonly expiresAt?: string | undefined
}
