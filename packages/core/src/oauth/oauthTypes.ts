/**
 * The authorization server's vocabulary: token lifetimes, the RFC 6749 error, the shapes of a
 * registered client, a token answer, a grant, and what consent hands the code issuer. Apart
 * from the service (OAuth.ts) so the routes and the consent page read them without its SQL.
 */
import { Data, Effect } from "effect"
import type { ClientRegistration } from "./clientMetadata.ts"

export const ACCESS_TOKEN_SECONDS = 3600
export const REFRESH_TOKEN_DAYS = 30
export const CODE_SECONDS = 120
/** What register mints: `board_client_` and 12 random bytes in base64url. */
export const CLIENT_ID = /^board_client_[A-Za-z0-9_-]{16}$/

/** An RFC 6749 §5.2 error: `error` is the wire code. */
export class OAuthError extends Data.TaggedError("OAuthError")<{
  readonly error: string
  readonly description: string
  readonly status: 400 | 401
}> {}

export const refuse = (error: string, description: string, status: 400 | 401 = 400) =>
  new OAuthError({ error, description, status })
export const fail = (error: string, description: string, status: 400 | 401 = 400) =>
  Effect.fail(refuse(error, description, status))

export interface RegisteredClient extends ClientRegistration {
  readonly client_id: string
  readonly client_id_issued_at: number
  readonly client_secret?: string
}

export interface TokenResponse {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
}

export interface GrantView {
  readonly id: string
  readonly clientId: string
  readonly clientName: string | null
  readonly workspaces: ReadonlyArray<string>
  readonly scope: string
  readonly createdAt: string
  readonly updatedAt: string
  readonly lastUsedAt: string | null
}

export type ClientRow = {
  id: string
  client_name: string | null
  redirect_uris: Array<string>
  token_endpoint_auth_method: string
  secret_digest: string | null
  scope: string
}

/** What the consent step knows when it issues an authorization code. */
export interface IssueCodeInput {
  readonly clientId: string
  readonly userId: string
  readonly redirectUri: string
  readonly codeChallenge: string
  readonly scope: string
  readonly resource: string
  readonly workspaces: ReadonlyArray<string>
}
