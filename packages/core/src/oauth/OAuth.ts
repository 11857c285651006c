/**
 * The authorization server's state: clients, single-use codes, grants bound to workspaces,
 * and rotating tokens. Redemptions and rotations are single UPDATE … WHERE used_at IS NULL
 * statements, so two instances racing on one code or refresh token get one success.
 *
 * Over 400 lines: one service for the authorization server's every state change, so each
 * single-use rule is read in one place; rows and constants live in oauthTypes.ts.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import { AppConfig } from "../Config.ts"
import { type Forbidden, NotFound } from "../domain/errors.ts"
import { requireScopes, scopesFor } from "../board/Access.ts"
import type { Principal } from "../domain/Principal.ts"
import { digestToken, isWellFormed, mintToken } from "../auth/secretTokens.ts"
import { iso } from "../board/rows.ts"
import { grantScopes, validateRegistration } from "./clientMetadata.ts"
import { isClientIdUrl, makeDocumentClient } from "./clientIdDocument.ts"
import { WebhookResolver } from "../webhooks/urlPolicy.ts"
import {
  ACCESS_TOKEN_SECONDS,
  CLIENT_ID,
  type ClientRow,
  CODE_SECONDS,
  fail,
  type GrantView,
  type IssueCodeInput,
  OAuthError,
  REFRESH_TOKEN_DAYS,
  type RegisteredClient,
  refuse,
  type TokenResponse
} from "./oauthTypes.ts"
import { CHALLENGE, verifierMatches } from "./pkce.ts"
import { namesResource } from "./resourceIndicator.ts"
import { CredentialCache } from "../auth/CredentialCache.ts"
import { sqlNow } from "../infra/clock.ts"

export {
  ACCESS_TOKEN_SECONDS,
  CODE_SECONDS,
  type GrantView,
  type IssueCodeInput,
  OAuthError,
  REFRESH_TOKEN_DAYS,
  type RegisteredClient,
  type TokenResponse
} from "./oauthTypes.ts"

export class OAuth extends Context.Service<
  OAuth,
  {
    readonly register: (body: unknown) => Effect.Effect<RegisteredClient, OAuthError>
    readonly client: (clientId: string) => Effect.Effect<ClientRow | undefined>
    /**
     * The client of `clientId`: a registered one, or the one its Client ID Metadata Document
     * (an https URL) describes, fetched when not cached; an OAuthError says why a document
     * cannot be used.
     */
    readonly resolveClient: (clientId: string) => Effect.Effect<ClientRow | undefined, OAuthError>
    readonly issueCode: (input: IssueCodeInput) => Effect.Effect<string>
    readonly exchangeCode: (input: {
      code: string
      clientId: string | undefined
      clientSecret: string | undefined
      redirectUri: string | undefined
      codeVerifier: string | undefined
      resource: string | undefined
    }) => Effect.Effect<TokenResponse, OAuthError>
    readonly refresh: (input: {
      refreshToken: string
      clientId: string | undefined
      clientSecret: string | undefined
      scope: string | undefined
      resource: string | undefined
    }) => Effect.Effect<TokenResponse, OAuthError>
    /** The principal of a live access token bound to this resource, or undefined. */
    readonly accessPrincipal: (token: string) => Effect.Effect<Principal | undefined>
    readonly grants: (principal: Principal) => Effect.Effect<ReadonlyArray<GrantView>>
    readonly revokeGrant: (principal: Principal, grantId: string) => Effect.Effect<void, NotFound | Forbidden>
    /** Whether the user has a live grant for this client (the authorization endpoint's errors go back at once only then). */
    readonly hasGrant: (userId: string, clientId: string) => Effect.Effect<boolean>
    /** The protected resource every token is bound to: PUBLIC_URL/api. */
    readonly resource: string
  }
>()("board/core/OAuth") {
  static readonly layer = Layer.effect(
    OAuth,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cache = yield* CredentialCache
      const config = yield* AppConfig
      const resource = `${config.publicUrl}/api`

      const register = Effect.fn("OAuth.register")(function* (body: unknown) {
        const checked = validateRegistration(body)
        if (!checked.ok) return yield* fail(checked.error, checked.error_description)
        const c = checked.client
        const clientId = `board_client_${crypto.randomBytes(12).toString("base64url")}`
        const secret =
          c.token_endpoint_auth_method === "none" ? undefined : crypto.randomBytes(32).toString("base64url")
        const now = yield* sqlNow
        const [row] = yield* sql<{ created_at: Date }>`
          INSERT INTO oauth_clients (id, client_name, redirect_uris, grant_types, response_types, token_endpoint_auth_method, application_type, scope, secret_digest, metadata, created_at)
          VALUES (${clientId}, ${c.client_name ?? null}, ${c.redirect_uris as Array<string>}::text[], ${c.grant_types as Array<string>}::text[],
            ${c.response_types as Array<string>}::text[], ${c.token_endpoint_auth_method}, ${c.application_type ?? null}, ${c.scope},
            ${secret === undefined ? null : digestToken(secret)}, ${JSON.stringify(c.extra)}::jsonb, ${now}::timestamptz)
          RETURNING created_at`.pipe(Effect.orDie)
        return {
          ...c,
          client_id: clientId,
          client_id_issued_at: Math.floor(row!.created_at.getTime() / 1000),
          ...(secret === undefined ? {} : { client_secret: secret })
        }
      })

      const resolver = yield* WebhookResolver

      const documentClient = makeDocumentClient(sql, { allowPrivate: config.webhookAllowPrivate }, resolver)

      // only an id of the shape register mints, or a metadata document's URL, is looked up:
      // anything else (a NUL among it, which PostgreSQL's text cannot hold) is simply no client
      const resolveClient = (clientId: string): Effect.Effect<ClientRow | undefined, OAuthError> =>
        isClientIdUrl(clientId)
          ? documentClient(clientId)
          : !CLIENT_ID.test(clientId)
            ? Effect.succeed(undefined)
            : sql<ClientRow>`SELECT id, client_name, redirect_uris, token_endpoint_auth_method, secret_digest, scope FROM oauth_clients WHERE id = ${clientId}`.pipe(
                Effect.orDie,
                Effect.map((rows) => rows[0])
              )

      const client = (clientId: string) =>
        resolveClient(clientId).pipe(
          Effect.catchTag("OAuthError", (e) => Effect.as(Effect.logWarning(`oauth: ${e.description}`), undefined))
        )

      /** RFC 6749 §2.3: a confidential client proves its secret; a public one sends only its id. */
      const authenticateClient = (clientId: string | undefined, secret: string | undefined) =>
        Effect.gen(function* () {
          if (clientId === undefined) return yield* fail("invalid_request", "client_id is required")
          const c = yield* resolveClient(clientId)
          if (c === undefined) return yield* fail("invalid_client", "unknown client_id", 401)
          if (c.secret_digest !== null) {
            const given = secret === undefined ? "" : digestToken(secret)
            if (
              given.length !== c.secret_digest.length ||
              !crypto.timingSafeEqual(Buffer.from(given), Buffer.from(c.secret_digest))
            ) {
              return yield* fail("invalid_client", "client authentication failed", 401)
            }
          }
          return c
        })

      const issueCode = Effect.fn("OAuth.issueCode")(function* (input: IssueCodeInput) {
        const code = mintToken("authCode")
        const now = yield* sqlNow
        yield* sql`
          INSERT INTO oauth_codes (digest, client_id, user_id, redirect_uri, code_challenge, scope, resource, workspaces, created_at, expires_at)
          VALUES (${digestToken(code)}, ${input.clientId}, ${input.userId}, ${input.redirectUri}, ${input.codeChallenge}, ${input.scope},
            ${input.resource}, ${input.workspaces as Array<string>}::uuid[], ${now}::timestamptz,
            ${now}::timestamptz + ${`${CODE_SECONDS} seconds`}::interval)`.pipe(Effect.orDie)
        return code
      })

      // `now`: the time its transaction read, so the pair and the grant's use share one time
      const mintPair = (grantId: string, now: string, scope: string) =>
        Effect.gen(function* () {
          const access = mintToken("oauthAccess")
          const refreshToken = mintToken("oauthRefresh")
          yield* sql`
            INSERT INTO oauth_tokens (digest, grant_id, kind, created_at, expires_at) VALUES
              (${digestToken(access)}, ${grantId}, 'access', ${now}::timestamptz,
                ${now}::timestamptz + ${`${ACCESS_TOKEN_SECONDS} seconds`}::interval),
              (${digestToken(refreshToken)}, ${grantId}, 'refresh', ${now}::timestamptz,
                ${now}::timestamptz + ${`${REFRESH_TOKEN_DAYS} days`}::interval)`
          yield* sql`UPDATE oauth_grants SET last_used_at = ${now}::timestamptz WHERE id = ${grantId}`
          return {
            access_token: access,
            token_type: "Bearer" as const,
            expires_in: ACCESS_TOKEN_SECONDS,
            refresh_token: refreshToken,
            scope
          }
        })

      const revokeGrantNow = (grantId: string, now: string) =>
        sql`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ${now}::timestamptz) WHERE id = ${grantId}`.pipe(
          Effect.orDie,
          Effect.andThen(cache.invalidate(grantId))
        )

      // every code and grant is bound to `resource` (whatever URL under it the client named), so a
      // wrong one is refused before the code or refresh token is touched: a client that
      // misnames the resource keeps its grant and can retry with the right one
      const resourceProblem = (given: string | undefined) =>
        given !== undefined && !namesResource(given, resource)
          ? refuse("invalid_target", `resource must be ${resource} or a URL under it`)
          : undefined

      const exchangeCode = Effect.fn("OAuth.exchangeCode")(function* (input: {
        code: string
        clientId: string | undefined
        clientSecret: string | undefined
        redirectUri: string | undefined
        codeVerifier: string | undefined
        resource: string | undefined
      }) {
        const c = yield* authenticateClient(input.clientId, input.clientSecret)
        if (input.codeVerifier === undefined) return yield* fail("invalid_grant", "code_verifier is required (PKCE)")
        if (!isWellFormed("authCode", input.code)) return yield* fail("invalid_grant", "invalid authorization code")
        const wrongTarget = resourceProblem(input.resource)
        if (wrongTarget) return yield* Effect.fail(wrongTarget)
        const digest = digestToken(input.code)
        const now = yield* sqlNow
        // refusals are returned, not failed, so the transaction commits: the code stays used
        // and a replay's revocation sticks
        const outcome = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const [code] = yield* sql<{
                client_id: string
                user_id: string
                redirect_uri: string
                code_challenge: string
                scope: string
                resource: string
                workspaces: Array<string>
                expired: boolean
              }>`
            UPDATE oauth_codes SET used_at = ${now}::timestamptz WHERE digest = ${digest} AND used_at IS NULL
            RETURNING client_id, user_id, redirect_uri, code_challenge, scope, resource, workspaces,
              expires_at <= ${now}::timestamptz AS expired`
              if (code === undefined) {
                // a second redemption: revoke whatever the first one issued (OAuth 2.1 §4.1.3)
                const [used] = yield* sql<{
                  grant_id: string | null
                }>`SELECT grant_id FROM oauth_codes WHERE digest = ${digest}`
                if (used?.grant_id) yield* revokeGrantNow(used.grant_id, now)
                return refuse("invalid_grant", "invalid authorization code")
              }
              if (code.expired) return refuse("invalid_grant", "the authorization code has expired")
              if (code.client_id !== c.id) return refuse("invalid_grant", "the code was issued to another client")
              if (input.redirectUri !== undefined && input.redirectUri !== code.redirect_uri)
                return refuse("invalid_grant", "redirect_uri does not match the authorization request")
              if (!verifierMatches(input.codeVerifier!, code.code_challenge))
                return refuse("invalid_grant", "code_verifier does not match the code_challenge")
              const [grant] = yield* sql<{ id: string }>`
            INSERT INTO oauth_grants (user_id, client_id, workspaces, scope, resource, created_at)
            VALUES (${code.user_id}, ${c.id}, ${code.workspaces}::uuid[], ${code.scope}, ${code.resource}, ${now}::timestamptz)
            RETURNING id`
              yield* sql`UPDATE oauth_codes SET grant_id = ${grant!.id} WHERE digest = ${digest}`
              return yield* mintPair(grant!.id, now, code.scope)
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        return yield* outcome instanceof OAuthError ? Effect.fail(outcome) : Effect.succeed(outcome)
      })

      const refresh = Effect.fn("OAuth.refresh")(function* (input: {
        refreshToken: string
        clientId: string | undefined
        clientSecret: string | undefined
        scope: string | undefined
        resource: string | undefined
      }) {
        const c = yield* authenticateClient(input.clientId, input.clientSecret)
        if (input.scope?.split(" ").some((s) => s !== "mcp" && s !== "mcp:read")) {
          return yield* fail("invalid_scope", "a refresh can only keep the grant's scope (mcp or mcp:read)")
        }
        if (!isWellFormed("oauthRefresh", input.refreshToken))
          return yield* fail("invalid_grant", "invalid refresh token")
        const wrongTarget = resourceProblem(input.resource)
        if (wrongTarget) return yield* Effect.fail(wrongTarget)
        const digest = digestToken(input.refreshToken)
        const now = yield* sqlNow
        const outcome = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const [rotated] = yield* sql<{ grant_id: string; expired: boolean }>`
            UPDATE oauth_tokens SET used_at = ${now}::timestamptz WHERE digest = ${digest} AND kind = 'refresh' AND used_at IS NULL
            RETURNING grant_id, expires_at <= ${now}::timestamptz AS expired`
              if (rotated === undefined) {
                // replay of a rotated token: someone holds a copy; end the whole grant (RFC 9700 §4.14.2)
                const [seen] = yield* sql<{
                  grant_id: string
                }>`SELECT grant_id FROM oauth_tokens WHERE digest = ${digest} AND kind = 'refresh'`
                if (seen !== undefined) yield* revokeGrantNow(seen.grant_id, now)
                return refuse("invalid_grant", "invalid refresh token")
              }
              const [grant] = yield* sql<{ client_id: string; resource: string; revoked: boolean; scope: string }>`
            SELECT client_id, resource, scope, revoked_at IS NOT NULL AS revoked FROM oauth_grants WHERE id = ${rotated.grant_id}`
              if (grant === undefined || grant.revoked) return refuse("invalid_grant", "the grant has been revoked")
              if (rotated.expired) return refuse("invalid_grant", "the refresh token has expired")
              if (grant.client_id !== c.id)
                return refuse("invalid_grant", "the refresh token was issued to another client")
              // bound to an earlier PUBLIC_URL: its tokens would be refused at the API anyway
              if (grant.resource !== resource) return refuse("invalid_grant", "the grant is for another resource")
              // a refresh keeps the grant's scope; it may ask for less (mcp:read of an mcp grant)
              // but never more (RFC 6749 §6)
              if (input.scope !== undefined && grant.scope === "mcp:read" && input.scope.split(" ").includes("mcp"))
                return refuse("invalid_scope", "this grant is mcp:read: a refresh cannot widen it to mcp")
              return yield* mintPair(rotated.grant_id, now, grant.scope)
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        return yield* outcome instanceof OAuthError ? Effect.fail(outcome) : Effect.succeed(outcome)
      })

      const accessPrincipal = (token: string) =>
        Effect.gen(function* () {
          if (!isWellFormed("oauthAccess", token)) return undefined
          const digest = digestToken(token)
          const now = yield* sqlNow
          return yield* cache.resolve(
            digest,
            sql<{ user_id: string; workspaces: Array<string>; grant_id: string; expires_at: Date; scope: string }>`
            SELECT g.user_id, g.workspaces, g.id AS grant_id, g.scope, t.expires_at FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
            WHERE t.digest = ${digest} AND t.kind = 'access' AND t.expires_at > ${now}::timestamptz
              AND g.revoked_at IS NULL AND g.resource = ${resource}`.pipe(
              Effect.orDie,
              Effect.map(([row]) =>
                row === undefined
                  ? undefined
                  : {
                      value: {
                        userId: row.user_id,
                        via: "oauth",
                        workspaces: new Set(row.workspaces),
                        credentialId: row.grant_id,
                        expiresAt: new Date(row.expires_at).getTime(),
                        scopes: grantScopes(row.scope)
                      } satisfies Principal as Principal,
                      credentialId: row.grant_id,
                      expiresAt: new Date(row.expires_at).getTime()
                    }
              )
            )
          )
        })

      const grants = (principal: Principal) =>
        sql<{
          id: string
          client_id: string
          client_name: string | null
          workspaces: Array<string>
          scope: string
          created_at: Date
          last_used_at: Date | null
        }>`
          SELECT g.id, g.client_id, c.client_name, g.workspaces, g.scope, g.created_at, g.last_used_at
          FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
          WHERE g.user_id = ${principal.userId} AND g.revoked_at IS NULL ORDER BY g.created_at, g.id`.pipe(
          Effect.orDie,
          Effect.map((rows) =>
            rows.map((r) => ({
              id: r.id,
              clientId: r.client_id,
              clientName: r.client_name,
              workspaces: r.workspaces,
              scope: r.scope,
              createdAt: iso(r.created_at),
              // a grant's workspaces and scope never change; revoking removes it from the list
              updatedAt: iso(r.created_at),
              lastUsedAt: r.last_used_at === null ? null : iso(r.last_used_at)
            }))
          )
        )

      const revokeGrant = Effect.fn("OAuth.revokeGrant")(function* (principal: Principal, grantId: string) {
        // managing credentials (issue 33): admin, and delete
        yield* requireScopes(principal, scopesFor({ manages: true, deletes: true }), "revoke OAuth grants")
        if (!/^[0-9a-f-]{36}$/i.test(grantId)) return yield* new NotFound({ message: `grant ${grantId} not found` })
        const now = yield* sqlNow
        const rows = yield* sql`
          UPDATE oauth_grants SET revoked_at = ${now}::timestamptz
          WHERE id = ${grantId} AND user_id = ${principal.userId} AND revoked_at IS NULL RETURNING id`.pipe(
          Effect.orDie
        )
        if (rows.length === 0) return yield* new NotFound({ message: `grant ${grantId} not found` })
        yield* cache.invalidate(grantId)
      })

      const hasGrant = (userId: string, clientId: string) =>
        sql`SELECT 1 FROM oauth_grants WHERE user_id = ${userId} AND client_id = ${clientId} AND revoked_at IS NULL LIMIT 1`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        )

      return OAuth.of({
        hasGrant,
        register,
        client,
        resolveClient,
        issueCode,
        exchangeCode,
        refresh,
        accessPrincipal,
        grants,
        revokeGrant,
        resource
      })
    })
  )
}

export { CHALLENGE }
