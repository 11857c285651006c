import type { ApiKeyScope } from "./keyLimits.ts"

/** Who is calling and what the credential may reach: the one access model of the core. */
/** `browser`: the web board's session cookie (auth/WebSessions.ts), with an API key's reach. */
export type CredentialKind = "apiKey" | "oauth" | "session" | "intake" | "browser"

export interface Principal {
  readonly userId: string
  readonly via: CredentialKind
  /** "all": every workspace the user belongs to; otherwise an OAuth grant's workspaces. */
  readonly workspaces: "all" | ReadonlySet<string>
  /** Intake tokens only: the one column they file into. */
  readonly columnId?: string
  /** The credential's own id (api key, OAuth token, intake token), for budgets and audit. */
  readonly credentialId?: string
  /**
   * When the credential presented ends by itself (an OAuth access token), ms since the epoch:
   * what it opened (an event stream) ends then too (auth/CredentialWatch.ts).
   */
  readonly expiresAt?: number
  /** The account is an agent member (migrations/0022): it acts through its own keys only. */
  readonly agent?: boolean
  /**
   * What the credential may do (issue 33): an API key's `scopes`, an OAuth grant's (`mcp`: read,
   * write and delete; `mcp:read`: read). Absent: everything (a session, the web app, an
   * unscoped key). Checked per operation by board/Access.ts.
   */
  readonly scopes?: ReadonlySet<ApiKeyScope>
  /**
   * The projects a key is limited to (its `projectIds`); absent: every project. `workspaces` is
   * then the workspaces of those projects. Outside them everything answers 404.
   */
  readonly projects?: ReadonlySet<string>
}
