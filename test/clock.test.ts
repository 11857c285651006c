/**
 * One clock (issue 16, item 4): every time the core writes or compares comes from Effect's
 * Clock, so a TestClock moves each expiry without waiting, through the real SQL of each
 * database. The tests set the TestClock to 2020, years before the database's own clock: a
 * statement that still asked the database for `now()` would find every token long expired
 * (and every row written years later), so each first "still valid" proves the time was passed.
 */
import {
  ACCESS_TOKEN_SECONDS,
  Accounts,
  CODE_SECONDS,
  coreLayer,
  Credentials,
  Intake,
  IntakeTokens,
  OAuth,
  parseConfig,
  type Principal,
  REFRESH_TOKEN_DAYS,
  Workspaces
} from "@board/core"
import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect, Layer, References } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import { timestampOf } from "../packages/core/src/infra/clock.ts"
import { type Backend, backends, createTestDatabase } from "./support/backends.ts"
import { testHasher } from "./support/server.ts"

const START = Date.parse("2020-01-01T00:00:00.000Z")
const SESSION_TTL_SECONDS = 3600
const SIGNUP_INTERVAL = "5m"

/** The core on a fresh database of `backend`, its background work on the live clock. */
const coreOn = (backend: Backend) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const database =
        backend === "postgres"
          ? yield* Effect.acquireRelease(
              Effect.promise(() => createTestDatabase()),
              (db) => Effect.promise(db.drop)
            )
          : undefined
      const config = parseConfig({
        DATA_DIR: "memory:",
        SIGNUP_INTERVAL,
        ...(database !== undefined ? { DATABASE_URL: database.url } : {})
      })
      return coreLayer(config, { hasher: testHasher })
    })
  ).pipe(Layer.provide(Layer.succeed(References.MinimumLogLevel, "Warn")))

/** A test's own TestClock, set to START: only the test's fiber sees it. */
const onTestClock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.andThen(TestClock.setTime(START), effect).pipe(Effect.provide(TestClock.layer()))

const email = () => `clock-${crypto.randomBytes(6).toString("hex")}@example.com`

const signup = (address = email()) =>
  Effect.flatMap(Accounts, (accounts) =>
    accounts.signup({ email: address, password: "correct horse battery", full_name: "Clock Test" })
  )

const asSession = (token: string) =>
  Effect.flatMap(Credentials, (credentials) =>
    credentials.resolve({ apiKey: undefined, authorization: `Bearer ${token}`, intakeKey: undefined }, ["session"])
  )

/** A user with a workspace and a kanban project: the principal and the project's first column. */
const board = Effect.gen(function* () {
  const { session } = yield* signup()
  const principal = yield* asSession(session.access_token)
  const workspaces = yield* Workspaces
  const workspace = yield* workspaces.create(principal, "Clock")
  const { columns } = yield* workspaces.createProject(principal, {
    workspaceId: workspace.id,
    name: "Clock",
    template: "kanban"
  })
  return { principal, workspace, column: columns[0]! }
})

const pkce = () => {
  const verifier = crypto.randomBytes(32).toString("base64url")
  return { verifier, challenge: crypto.createHash("sha256").update(verifier).digest("base64url") }
}

describe("the time literal", () => {
  it("keeps microseconds, as PostgreSQL does: rows written within one millisecond stay in order", () => {
    expect(timestampOf(1_700_000_000_123_456_789n)).toBe("2023-11-14T22:13:20.123456Z")
    expect(timestampOf(BigInt(START) * 1_000_000n)).toBe("2020-01-01T00:00:00.000000Z")
  })
})

for (const backend of backends) {
  describe(`one clock on ${backend}`, () => {
    layer(coreOn(backend), { excludeTestServices: true, timeout: 120_000 })((it) => {
      it.effect("rows are written at the Clock's time, not the database's", () =>
        onTestClock(
          Effect.gen(function* () {
            const { principal, workspace, column } = yield* board
            expect(workspace.createdAt).toBe("2020-01-01T00:00:00.000Z")
            expect(column.createdAt).toBe("2020-01-01T00:00:00.000Z")
            yield* TestClock.adjust(Duration.millis(1500))
            const later = yield* (yield* Workspaces).createProject(principal, {
              workspaceId: workspace.id,
              name: "Later"
            })
            expect(later.project.createdAt).toBe("2020-01-01T00:00:01.500Z")
            const sql = yield* SqlClient.SqlClient
            const [row] = yield* sql<{ joined: Date }>`
              SELECT joined_at AS joined FROM workspace_members WHERE workspace_id = ${workspace.id}`
            expect(row!.joined.toISOString()).toBe("2020-01-01T00:00:00.000Z")
          })
        )
      )

      it.effect("a session token expires when the Clock passes its hour", () =>
        onTestClock(
          Effect.gen(function* () {
            const { session, user } = yield* signup()
            expect(session.expires_at).toBe("2020-01-01T01:00:00.000Z")
            expect((yield* asSession(session.access_token)).userId).toBe(user.id)
            yield* TestClock.adjust(Duration.seconds(SESSION_TTL_SECONDS - 10))
            expect((yield* asSession(session.access_token)).userId).toBe(user.id)
            // jose allows 5 seconds of skew past `exp`
            yield* TestClock.adjust(Duration.seconds(16))
            const refused = yield* Effect.flip(asSession(session.access_token))
            expect(refused._tag).toBe("Unauthenticated")
          })
        )
      )

      it.effect("the signup interval is counted on the Clock", () =>
        onTestClock(
          Effect.gen(function* () {
            const address = email()
            yield* signup(address)
            const early = yield* Effect.flip(signup(address))
            expect(early._tag).toBe("TooManyRequests")
            expect(early._tag === "TooManyRequests" && early.retryAfterSeconds).toBe(300)
            yield* TestClock.adjust(Duration.minutes(4))
            const still = yield* Effect.flip(signup(address))
            expect(still._tag === "TooManyRequests" && still.retryAfterSeconds).toBe(60)
            yield* TestClock.adjust(Duration.minutes(1))
            // the interval has passed: the attempt is let through, to meet the existing account
            expect((yield* Effect.flip(signup(address)))._tag).toBe("Conflict")
          })
        )
      )

      it.effect("an intake token expires at its expiresAt on the Clock, cached or not", () =>
        onTestClock(
          Effect.gen(function* () {
            const { principal, column } = yield* board
            const tokens = yield* IntakeTokens
            const intake = yield* Intake
            const expiresAt = new Date(START + 3_600_000).toISOString()
            const early = yield* tokens.mint(principal, { columnId: column.id, expiresAt })
            const late = yield* tokens.mint(principal, { columnId: column.id, expiresAt })
            expect(early.expiresAt).toBe(expiresAt)
            // read now: the credential cache holds it until its expiry
            expect((yield* intake.authenticate(early.token)).tokenId).toBe(early.id)
            yield* TestClock.adjust(Duration.minutes(59))
            // first read a minute before it expires: the database compares with the Clock's time
            expect((yield* intake.authenticate(late.token)).tokenId).toBe(late.id)
            yield* intake.file(yield* intake.authenticate(early.token), { title: "filed before expiry" }, undefined)
            yield* TestClock.adjust(Duration.minutes(1))
            expect((yield* Effect.flip(intake.authenticate(early.token)))._tag).toBe("Unauthenticated")
            expect((yield* Effect.flip(intake.authenticate(late.token)))._tag).toBe("Unauthenticated")
            // a token must expire in the Clock's future
            const past = yield* Effect.flip(
              tokens.mint(principal, { columnId: column.id, expiresAt: new Date(START).toISOString() })
            )
            expect(past._tag).toBe("InvalidInput")
          })
        )
      )

      it.effect("OAuth codes, access tokens and refresh tokens expire on the Clock", () =>
        onTestClock(
          Effect.gen(function* () {
            const { principal, workspace } = yield* board
            const oauth = yield* OAuth
            const client = yield* oauth.register({
              client_name: "Clock Agent",
              redirect_uris: ["http://127.0.0.1/callback"],
              token_endpoint_auth_method: "none"
            })
            expect(client.client_id_issued_at).toBe(START / 1000)
            const authorize = (p: Principal) =>
              Effect.gen(function* () {
                const { verifier, challenge } = pkce()
                const code = yield* oauth.issueCode({
                  clientId: client.client_id,
                  userId: p.userId,
                  redirectUri: "http://127.0.0.1/callback",
                  codeChallenge: challenge,
                  scope: "mcp",
                  resource: oauth.resource,
                  workspaces: [workspace.id]
                })
                return { code, verifier }
              })
            const exchange = (issued: { code: string; verifier: string }) =>
              oauth.exchangeCode({
                code: issued.code,
                clientId: client.client_id,
                clientSecret: undefined,
                redirectUri: "http://127.0.0.1/callback",
                codeVerifier: issued.verifier,
                resource: undefined
              })
            const refresh = (refreshToken: string) =>
              oauth.refresh({
                refreshToken,
                clientId: client.client_id,
                clientSecret: undefined,
                scope: undefined,
                resource: undefined
              })

            // an authorization code lives CODE_SECONDS
            const stale = yield* authorize(principal)
            yield* TestClock.adjust(Duration.seconds(CODE_SECONDS))
            const expiredCode = yield* Effect.flip(exchange(stale))
            expect(expiredCode.description).toBe("the authorization code has expired")

            const fresh = yield* authorize(principal)
            yield* TestClock.adjust(Duration.seconds(CODE_SECONDS - 1))
            const pair = yield* exchange(fresh)
            expect((yield* oauth.accessPrincipal(pair.access_token))?.userId).toBe(principal.userId)

            // an access token lives ACCESS_TOKEN_SECONDS (cached, then compared in SQL)
            yield* TestClock.adjust(Duration.seconds(ACCESS_TOKEN_SECONDS - 1))
            expect((yield* oauth.accessPrincipal(pair.access_token))?.userId).toBe(principal.userId)
            yield* TestClock.adjust(Duration.seconds(1))
            expect(yield* oauth.accessPrincipal(pair.access_token)).toBeUndefined()

            // a refresh token lives REFRESH_TOKEN_DAYS; a rotation starts a new pair on the Clock
            const rotated = yield* refresh(pair.refresh_token)
            expect((yield* oauth.accessPrincipal(rotated.access_token))?.userId).toBe(principal.userId)
            yield* TestClock.adjust(Duration.days(REFRESH_TOKEN_DAYS))
            const expiredRefresh = yield* Effect.flip(refresh(rotated.refresh_token))
            expect(expiredRefresh.description).toBe("the refresh token has expired")

            const [grant] = yield* oauth.grants(principal)
            expect(grant!.createdAt).toBe(new Date(START + 2 * CODE_SECONDS * 1000 - 1000).toISOString())
            expect(grant!.lastUsedAt).toBe(
              new Date(START + (2 * CODE_SECONDS - 1 + ACCESS_TOKEN_SECONDS) * 1000).toISOString()
            )
          })
        )
      )
    })
  })
}
