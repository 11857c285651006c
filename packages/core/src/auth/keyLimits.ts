/**
 * The limits a key is made with (issue 33: `scopes`, `projectIds`, `expiresAt`), for API keys
 * (auth/Accounts.ts) and agent keys (board/AgentMembers.ts) alike: checked against the database
 * and the clock, and never beyond the credential making the key (a key limited to read, to one
 * project or to a date makes keys within those limits only; left out, they are inherited).
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { apiKeyScopes, type ApiKeyScope, type KeyLimitsInput } from "../domain/keyLimits.ts"
import type { ProjectId } from "../domain/ids.ts"
import { Forbidden, InvalidInput, NotFound } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"

/** A key's limits as stored: NULL is "not limited". */
export interface StoredLimits {
  readonly scopes: Array<ApiKeyScope> | null
  readonly projectIds: Array<string> | null
  readonly expiresAt: string | null
}

/** The columns of `api_keys` the views read. */
export const KEY_LIMIT_COLUMNS = "scopes, project_ids, expires_at"

export interface KeyLimitRow {
  readonly scopes: ReadonlyArray<string> | null
  readonly project_ids: ReadonlyArray<string> | null
  readonly expires_at: Date | string | null
}

/** A key's limits as its answers say them. */
export const limitsView = (r: KeyLimitRow) => ({
  // NULL: made without scopes, so all of them
  scopes: (r.scopes ?? apiKeyScopes) as ReadonlyArray<ApiKeyScope>,
  projectIds: r.project_ids === null ? null : (r.project_ids as ReadonlyArray<ProjectId>),
  expiresAt: r.expires_at === null ? null : new Date(r.expires_at).toISOString()
})

/**
 * Settles what a new key of `owner` may do: the scopes in their order, each once; the projects,
 * each one `owner` is a member of (404 otherwise, as for any project one cannot see); the
 * expiry, in the future. Within the maker's own limits (403 naming what it lacks).
 */
export const settleLimits = (
  sql: SqlClient.SqlClient,
  maker: Principal,
  owner: string,
  input: KeyLimitsInput,
  now: string
): Effect.Effect<StoredLimits, Forbidden | InvalidInput | NotFound> =>
  Effect.gen(function* () {
    const wanted = input.scopes ?? (maker.scopes === undefined ? undefined : [...maker.scopes])
    const beyond = wanted?.find((s) => maker.scopes !== undefined && !maker.scopes.has(s))
    if (beyond !== undefined) {
      return yield* new Forbidden({
        message: `a key cannot give more than it holds: this key lacks the "${beyond}" scope`
      })
    }
    const scopes = wanted === undefined ? null : apiKeyScopes.filter((s) => wanted.includes(s))

    const projects = input.projectIds ?? (maker.projects === undefined ? undefined : [...maker.projects])
    let projectIds: Array<string> | null = null
    if (projects !== undefined) {
      const unique = [...new Set(projects)]
      const outside = unique.find((id) => maker.projects !== undefined && !maker.projects.has(id))
      if (outside !== undefined) return yield* new NotFound({ message: `project ${outside} not found` })
      const found = yield* sql
        .unsafe<{ id: string }>(
          `SELECT p.id FROM projects p
           JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = $1::uuid
           WHERE p.id = ANY($2::uuid[])`,
          [owner, unique]
        )
        .pipe(Effect.orDie)
      const known = new Set(found.map((r) => r.id))
      const missing = unique.find((id) => !known.has(id))
      if (missing !== undefined) return yield* new NotFound({ message: `project ${missing} not found` })
      projectIds = unique
    }

    let expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt).toISOString()
    if (expiresAt !== null && Date.parse(expiresAt) <= Date.parse(now)) {
      return yield* new InvalidInput({ message: `expiresAt: must be in the future (it is ${now} now)` })
    }
    if (maker.via === "apiKey" && maker.expiresAt !== undefined) {
      if (expiresAt !== null && Date.parse(expiresAt) > maker.expiresAt) {
        return yield* new Forbidden({
          message: `a key cannot outlive the key making it: this key expires at ${new Date(maker.expiresAt).toISOString()}`
        })
      }
      expiresAt ??= new Date(maker.expiresAt).toISOString()
    }
    return { scopes, projectIds, expiresAt }
  })
