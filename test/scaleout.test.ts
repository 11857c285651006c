/**
 * Issue 9 (part 5): two `board serve` processes on one PostgreSQL and one Redis behind a
 * round-robin client. Nothing may live in one process only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postgresUrl } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { type Instances, startInstances } from "./support/instances.ts"
import { linesWithSecrets } from "./support/leaks.ts"
import { consent, pkce, registerClient, tokenRequest } from "./support/oauthFlow.ts"

const redisUrl = process.env.REDIS_URL
const USER_BUDGET = 300
/** The default REGISTRATION_LIMIT (20/1h): the pair runs with it. */
const REGISTRATION_BUDGET = 20

describe.skipIf(postgresUrl === undefined || redisUrl === undefined)(
  "two instances on one PostgreSQL and one Redis",
  () => {
    let instances: Instances | undefined
    let outputs: ReadonlyArray<() => string> = []
    let bases: ReadonlyArray<string>
    let dbUrl: string
    let a: Account
    beforeAll(async () => {
      // both start at once against a fresh database: migrations must run exactly once
      instances = await startInstances({
        REDIS_URL: redisUrl,
        // request logs on: the last test searches them for raw secrets
        LOG_LEVEL: "info",
        // low enough for the shared-budget test to exhaust, high enough for the other tests
        RATE_LIMIT: `${USER_BUDGET}/60s`
      })
      ;({ bases, outputs, databaseUrl: dbUrl } = instances)
      a = await bootstrap(bases[0]!, "scaled")
    }, 120_000)
    afterAll(() => instances?.stop())

    const other = (i: number) => bases[(i + 1) % 2]!

    it("applied each migration once", async () => {
      const { PgClient } = await import("@effect/sql-pg")
      const { Effect, Redacted } = await import("effect")
      const Reactivity = await import("effect/reactivity/Reactivity")
      const rows = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const sql = yield* PgClient.make({ url: Redacted.make(dbUrl), maxConnections: 1 })
            return yield* sql<{ migration_id: number }>`SELECT migration_id FROM board_migrations ORDER BY migration_id`
          })
        ).pipe(Effect.provide(Reactivity.layer), Effect.orDie)
      )
      const ids = rows.map((r) => r.migration_id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids[0]).toBe(1)
    })

    it("a session and an API key minted on one instance work on the other", async () => {
      expect((await call(bases[1]!, "GET", "/v1/workspaces", { headers: key(a.apiKey) })).status).toBe(200)
      const ws = await call(bases[1]!, "POST", "/v1/workspaces", {
        body: { name: "via B" },
        headers: { authorization: `Bearer ${a.session}` }
      })
      expect(ws.status).toBe(201)
    })

    it("a created card is readable at once on the other instance", async () => {
      for (let i = 0; i < 10; i++) {
        const c = await call(bases[i % 2]!, "POST", "/v1/cards", {
          body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: `rr ${i}` },
          headers: key(a.apiKey)
        })
        expect(c.status).toBe(201)
        expect((await call(other(i), "GET", `/v1/cards/${c.body.id}`, { headers: key(a.apiKey) })).status).toBe(200)
      }
    })

    it("intake idempotency holds across both: 20 parallel requests with one key file one card", async () => {
      const col = (
        await call(bases[0]!, "POST", "/v1/columns", {
          body: { projectId: a.projectId, name: "Scaled inbox" },
          headers: key(a.apiKey)
        })
      ).body.id
      const t = (
        await call(bases[0]!, "POST", "/v1/intake-tokens", { body: { columnId: col }, headers: key(a.apiKey) })
      ).body
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          call(bases[i % 2]!, "POST", "/v1/intake", {
            body: { title: "once across two" },
            headers: { "x-intake-key": t.token, "idempotency-key": "shared-key" }
          })
        )
      )
      expect(replies.map((r) => r.status)).toEqual(Array(20).fill(201))
      const board = await call(bases[1]!, "GET", `/v1/board/${a.projectId}`, { headers: key(a.apiKey) })
      expect(board.body.cards.filter((c: any) => c.columnId === col)).toHaveLength(1)
    })

    it("an authorization code is redeemed once, and a refresh token rotated once, across both", async () => {
      const client = (await registerClient(bases[0]!)).body
      const { verifier, challenge } = pkce()
      const { location } = await consent(bases[1]!, {
        clientId: client.client_id,
        challenge,
        email: a.email,
        password: "correct horse battery",
        workspaces: [a.workspaceId]
      })
      const code = new URL(location!).searchParams.get("code")!
      const form = {
        grant_type: "authorization_code",
        code,
        client_id: client.client_id,
        redirect_uri: "http://127.0.0.1:47001/callback",
        code_verifier: verifier
      }
      const redeemed = await Promise.all([0, 1, 0, 1].map((i) => tokenRequest(bases[i]!, form)))
      expect(redeemed.filter((r) => r.status === 200)).toHaveLength(1)
      // the losers count as code reuse and revoke what the winner got (OAuth 2.1): the refresh
      // race needs a grant of its own
      const second = pkce()
      const again = await consent(bases[0]!, {
        clientId: client.client_id,
        challenge: second.challenge,
        email: a.email,
        password: "correct horse battery",
        workspaces: [a.workspaceId]
      })
      const fresh = await tokenRequest(bases[1]!, {
        ...form,
        code: new URL(again.location!).searchParams.get("code")!,
        code_verifier: second.verifier
      })
      expect(fresh.status).toBe(200)
      const refresh = fresh.body.refresh_token
      const rotated = await Promise.all(
        [0, 1, 0, 1, 0, 1].map((i) =>
          tokenRequest(bases[i]!, { grant_type: "refresh_token", refresh_token: refresh, client_id: client.client_id })
        )
      )
      expect(rotated.filter((r) => r.status === 200)).toHaveLength(1)
    })

    it("the rate budget is shared: one user's requests alternating over both instances get one budget, not two", async () => {
      const u = await bootstrap(bases[0]!, "budgeted")
      const statuses: Array<number> = []
      // twice the budget, alternating: separate per-process budgets would let every request through
      for (let i = 0; i < USER_BUDGET * 2; i++)
        statuses.push((await call(bases[i % 2]!, "GET", "/v1/workspaces", { headers: key(u.apiKey) })).status)
      const ok = statuses.filter((s) => s === 200).length
      expect(ok).toBeLessThanOrEqual(USER_BUDGET)
      expect(ok).toBeGreaterThan(USER_BUDGET - 10) // bootstrap spent a few
      expect(statuses.slice(-2)).toEqual([429, 429])
      const refused = await call(bases[1]!, "GET", "/v1/workspaces", { headers: key(u.apiKey) })
      expect(refused.status).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(refused.body).toEqual({ error: expect.any(String) })
      // another user's budget is untouched on either instance
      for (const b of bases)
        expect((await call(b, "GET", "/v1/workspaces", { headers: key(a.apiKey) })).status).toBe(200)
    })

    it("the per-address budget of dynamic client registration is shared too", async () => {
      const statuses: Array<number> = []
      for (let i = 0; i < REGISTRATION_BUDGET * 2; i++) statuses.push((await registerClient(bases[i % 2]!)).status)
      expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(REGISTRATION_BUDGET)
      expect(statuses.slice(-2)).toEqual([429, 429])
    })

    /** Polls every check until it answers `expected`: all must, within 1 s of the revoke together. */
    const allWithin1s = async (checks: ReadonlyArray<() => Promise<number>>, expected: number) => {
      const deadline = Date.now() + 1000
      const statuses: Array<number> = []
      for (const check of checks) {
        let status = await check()
        while (status !== expected && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 25))
          status = await check()
        }
        statuses.push(status)
      }
      return statuses
    }
    const runSql = async (text: string, params: ReadonlyArray<unknown>) => {
      const { PgClient } = await import("@effect/sql-pg")
      const { Effect, Redacted } = await import("effect")
      const Reactivity = await import("effect/reactivity/Reactivity")
      await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const sql = yield* PgClient.make({ url: Redacted.make(dbUrl), maxConnections: 1 })
            yield* sql.unsafe(text, params as Array<any>)
          })
        ).pipe(Effect.provide(Reactivity.layer), Effect.orDie)
      )
    }

    it("a revoked key is refused by both within a second, though each had it cached", async () => {
      const u = await bootstrap(bases[0]!, "revoker")
      // both instances have now resolved (and cached) the key
      for (const b of bases)
        expect((await call(b, "GET", "/v1/workspaces", { headers: key(u.apiKey) })).status).toBe(200)
      const [mine] = (await call(bases[1]!, "GET", "/v1/api-keys", { headers: key(u.apiKey) })).body
      expect((await call(bases[0]!, "DELETE", `/v1/api-keys/${mine.id}`, { headers: key(u.apiKey) })).status).toBe(204)
      const workspaces = (b: string) => async () =>
        (await call(b, "GET", "/v1/workspaces", { headers: key(u.apiKey) })).status
      expect(await allWithin1s(bases.map(workspaces), 401)).toEqual([401, 401])
    })

    it("a key or an intake token revoked in SQL, by no instance, is refused by both within a second", async () => {
      const u = await bootstrap(bases[0]!, "sqlrevoker")
      const minted = await call(bases[0]!, "POST", "/v1/intake-tokens", {
        body: { columnId: u.columns[0]!.id, name: "form" },
        headers: key(u.apiKey)
      })
      expect(minted.status).toBe(201)
      const intake = (b: string) =>
        call(b, "POST", "/v1/intake", {
          body: { title: "from the form" },
          headers: { "x-intake-key": minted.body.token }
        })
      for (const b of bases) {
        expect((await call(b, "GET", "/v1/workspaces", { headers: key(u.apiKey) })).status).toBe(200)
        expect((await intake(b)).status).toBe(201)
      }
      await runSql(`UPDATE api_keys SET revoked_at = now() WHERE user_id = $1`, [u.userId])
      await runSql(`UPDATE intake_tokens SET revoked_at = now() WHERE id = $1`, [minted.body.id])
      const workspaces = (b: string) => async () =>
        (await call(b, "GET", "/v1/workspaces", { headers: key(u.apiKey) })).status
      const filing = (b: string) => async () => (await intake(b)).status
      expect(await allWithin1s([...bases.map(workspaces), ...bases.map(filing)], 401)).toEqual([401, 401, 401, 401])
    })

    it("keys are served from memory, and an instance whose revocation feed drops stops trusting its memory", async () => {
      const u = await bootstrap(bases[0]!, "cached")
      const workspaces = (b: string) => async () =>
        (await call(b, "GET", "/v1/workspaces", { headers: key(u.apiKey) })).status
      for (const b of bases) expect(await workspaces(b)()).toBe(200)
      // revoked behind the feed's back (its trigger off): the instances still answer from memory,
      // which shows the lookup really is off the request path
      await runSql(`ALTER TABLE api_keys DISABLE TRIGGER api_keys_revoked`, [])
      try {
        await runSql(`UPDATE api_keys SET revoked_at = now() WHERE user_id = $1`, [u.userId])
      } finally {
        await runSql(`ALTER TABLE api_keys ENABLE TRIGGER api_keys_revoked`, [])
      }
      for (const b of bases) expect(await workspaces(b)()).toBe(200)
      // the feed's connections go away: no instance may trust what it may have missed
      await runSql(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
        []
      )
      expect(await allWithin1s(bases.map(workspaces), 401)).toEqual([401, 401])
      // and the feed comes back by itself: a revoke is heard again
      const v = await bootstrap(bases[1]!, "recached")
      const again = (b: string) => async () =>
        (await call(b, "GET", "/v1/workspaces", { headers: key(v.apiKey) })).status
      await new Promise((r) => setTimeout(r, 1500))
      for (const b of bases) expect(await again(b)()).toBe(200)
      await runSql(`UPDATE api_keys SET revoked_at = now() WHERE user_id = $1`, [v.userId])
      expect(await allWithin1s(bases.map(again), 401)).toEqual([401, 401])
    })

    it("neither instance logged a raw secret (the requests above used every kind of credential)", () => {
      const lines = outputs.flatMap((o) => o().split("\n"))
      expect(lines.length).toBeGreaterThan(100)
      expect(linesWithSecrets(lines)).toEqual([])
    })
  }
)
