/**
 * Issue 19: claims and agent sessions over real HTTP on each database. A claim is a session with
 * a lease; while it is live and unexpired the card shows it (GET card, the board) and nobody else
 * can claim it; activities move the session's status; a release frees the card and moves it in
 * the same transaction; a lease that passes (the server's clock moved by the test, no sleeps)
 * frees the card at once for readers and claimers, and the sweep marks the session stale with a
 * `system` event.
 */
import { AgentSessions, EventLog, type Principal } from "@board/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends } from "./support/backends.ts"
import { type Account, bearer, bootstrap, call, key } from "./support/client.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { makeShiftedClock } from "./support/shiftedClock.ts"

describe.each(backends)("claims and agent sessions on %s", (backend) => {
  let server: TestServer
  let base: string
  let A: Account
  let M: Account // a member of A's workspace
  let A2key: string // a second API key of A's
  const clock = makeShiftedClock()

  beforeAll(async () => {
    server = await startServer({ backend, clock: clock.clock })
    base = server.baseUrl
    A = await bootstrap(base, "ada")
    M = await bootstrap(base, "max")
    const added = await call(base, "POST", `/v1/workspaces/${A.workspaceId}/members`, {
      body: { email: M.email },
      headers: key(A.apiKey)
    })
    expect(added.status).toBe(201)
    A2key = (await call(base, "POST", "/v1/api-keys", { body: { name: "second" }, headers: bearer(A.session) })).body
      .rawKey
  }, 120_000)
  afterAll(() => server?.stop())

  const newCard = async (title: string, extra: Record<string, unknown> = {}) => {
    const r = await call(base, "POST", "/v1/cards", {
      body: { projectId: A.projectId, columnId: A.columns[0]!.id, title, ...extra },
      headers: key(A.apiKey)
    })
    expect(r.status).toBe(201)
    return r.body
  }
  const claim = (cardId: string, headers: Record<string, string>, body: unknown = {}) =>
    call(base, "POST", `/v1/cards/${cardId}/claim`, { body, headers })
  const getCard = async (cardId: string) =>
    (await call(base, "GET", `/v1/cards/${cardId}`, { headers: key(A.apiKey) })).body
  const eventsOf = (sessionId: string) =>
    server.query<{ type: string; actor: any; data: any }>(
      `SELECT type, actor, data FROM events WHERE data::jsonb -> 'object' ->> 'id' = $1 OR data::jsonb -> 'object' ->> 'sessionId' = $1 ORDER BY tx, n`,
      [sessionId]
    )

  it("a claim opens an active session that the card and the board show; the same actor gets it back", async () => {
    const card = await newCard("Claim me")
    expect(card.claim).toBeNull()
    const first = await claim(card.id, key(A.apiKey), { ttlSeconds: 120 })
    expect(first.status).toBe(201)
    const s = first.body
    expect(s).toEqual({
      id: expect.any(String),
      cardId: card.id,
      projectId: A.projectId,
      actor: { type: "user", userId: A.userId, name: "ada" },
      status: "active",
      leaseExpiresAt: expect.any(String),
      createdAt: s.createdAt,
      updatedAt: s.updatedAt
    })
    const lease = Date.parse(s.leaseExpiresAt) - Date.parse(s.createdAt)
    expect(lease).toBe(120_000)
    const shown = await getCard(card.id)
    expect(shown.claim).toEqual({ sessionId: s.id, actor: s.actor, leaseExpiresAt: s.leaseExpiresAt })
    const board = await call(base, "GET", `/v1/board/${A.projectId}`, { headers: key(A.apiKey) })
    expect(board.body.cards.find((c: any) => c.id === card.id).claim).toEqual(shown.claim)
    // the same actor again: 200, the same session, the lease renewed from now with the new ttl
    clock.advance(10_000)
    const again = await claim(card.id, key(A.apiKey), { ttlSeconds: 300 })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(s.id)
    expect(Date.parse(again.body.leaseExpiresAt) - Date.parse(again.body.updatedAt)).toBe(300_000)
    expect((await eventsOf(s.id)).map((e) => e.type)).toEqual(["agent_session.created", "agent_session.updated"])
  })

  it("another actor gets 409 naming the holder and the lease's end: another member, and the same person through another credential", async () => {
    const card = await newCard("Taken")
    const mine = await claim(card.id, key(A.apiKey))
    expect(mine.status).toBe(201)
    const theirs = await claim(card.id, key(M.apiKey))
    expect(theirs.status).toBe(409)
    expect(theirs.body.error).toContain("by ada")
    expect(theirs.body.error).toContain(mine.body.leaseExpiresAt)
    // A's second API key is another credential: another actor
    const viaOtherKey = await claim(card.id, key(A2key))
    expect(viaOtherKey.status).toBe(409)
    // and so is an OAuth grant of A's, which claims as an agent named after its client
    const { tokens, client } = await fullFlow(base, A, [A.workspaceId])
    const viaOAuth = await claim(card.id, bearer(tokens.access_token))
    expect(viaOAuth.status).toBe(409)
    const other = await newCard("For the agent")
    const agent = await claim(other.id, bearer(tokens.access_token))
    expect(agent.status).toBe(201)
    expect(agent.body.actor).toEqual({
      type: "agent",
      userId: A.userId,
      name: client.client_name,
      onBehalfOf: A.userId
    })
  })

  it("refuses a lease outside 30 to 3,600 seconds, and a card that is not there", async () => {
    const card = await newCard("Bounds")
    for (const ttlSeconds of [29, 3601, 1.5, "60"]) {
      const r = await claim(card.id, key(A.apiKey), { ttlSeconds })
      expect(r.status).toBe(400)
      expect(r.body.error).toMatch(/ttlSeconds/)
    }
    expect((await claim("00000000-0000-4000-8000-000000000000", key(A.apiKey))).status).toBe(404)
    const outsider = await bootstrap(base, "outsider")
    expect((await claim(card.id, key(outsider.apiKey))).status).toBe(404)
  })

  it("a heartbeat extends the lease by its ttl; only the session's actor may heartbeat, report or release", async () => {
    const card = await newCard("Beat")
    const s = (await claim(card.id, key(A.apiKey), { ttlSeconds: 60 })).body
    clock.advance(30_000)
    const beat = await call(base, "POST", `/v1/agent-sessions/${s.id}/heartbeat`, { headers: key(A.apiKey) })
    expect(beat.status).toBe(200)
    expect(Date.parse(beat.body.leaseExpiresAt)).toBe(Date.parse(beat.body.updatedAt) + 60_000)
    expect(Date.parse(beat.body.leaseExpiresAt)).toBeGreaterThan(Date.parse(s.leaseExpiresAt))
    for (const headers of [key(M.apiKey), key(A2key)]) {
      expect((await call(base, "POST", `/v1/agent-sessions/${s.id}/heartbeat`, { headers })).status).toBe(404)
      const report = await call(base, "POST", `/v1/agent-sessions/${s.id}/activities`, {
        body: { type: "thought", body: "not mine" },
        headers
      })
      expect(report.status).toBe(404)
      const release = await call(base, "POST", `/v1/agent-sessions/${s.id}/release`, { body: {}, headers })
      expect(release.status).toBe(404)
    }
    // but a member may read it
    const read = await call(base, "GET", `/v1/agent-sessions/${s.id}`, { headers: key(M.apiKey) })
    expect(read.status).toBe(200)
    expect(read.body.activities).toEqual([])
  })

  it("activities: an elicitation waits, an error marks, a response completes and frees the card", async () => {
    const card = await newCard("Work")
    const s = (await claim(card.id, key(A.apiKey))).body
    const report = (type: string, body: string) =>
      call(base, "POST", `/v1/agent-sessions/${s.id}/activities`, { body: { type, body }, headers: key(A.apiKey) })
    const status = async () =>
      (await call(base, "GET", `/v1/agent-sessions/${s.id}`, { headers: key(A.apiKey) })).body.status
    const thought = await report("thought", "Reading the card")
    expect(thought.status).toBe(201)
    expect(thought.body).toEqual({
      id: expect.any(String),
      sessionId: s.id,
      type: "thought",
      body: "Reading the card",
      createdAt: expect.any(String)
    })
    expect((await report("elicitation", "Which browser?")).status).toBe(201)
    expect(await status()).toBe("awaitingInput")
    expect((await getCard(card.id)).claim.sessionId).toBe(s.id)
    expect((await report("action", "Trying Firefox")).status).toBe(201)
    expect(await status()).toBe("active")
    expect((await report("error", "It crashed")).status).toBe(201)
    expect(await status()).toBe("error")
    expect((await getCard(card.id)).claim.sessionId).toBe(s.id)
    expect((await report("response", "Fixed in #12")).status).toBe(201)
    expect(await status()).toBe("complete")
    expect((await getCard(card.id)).claim).toBeNull()
    // an ended session takes nothing more
    const late = await report("thought", "one more")
    expect(late.status).toBe(409)
    expect(late.body.error).toMatch(/ended \(complete\)/)
    expect((await call(base, "POST", `/v1/agent-sessions/${s.id}/heartbeat`, { headers: key(A.apiKey) })).status).toBe(
      409
    )
    for (const bad of [
      { type: "thought", body: "" },
      { type: "thought", body: "   " },
      { type: "thought", body: "x".repeat(10_001) },
      { type: "musing", body: "hm" }
    ]) {
      const r = await call(base, "POST", `/v1/agent-sessions/${s.id}/activities`, { body: bad, headers: key(A.apiKey) })
      expect(r.status).toBe(400)
    }
    // the page of activities, oldest first
    const page = await call(base, "GET", `/v1/agent-sessions/${s.id}?limit=2&offset=1`, { headers: key(A.apiKey) })
    expect(page.body.activities.map((a: any) => a.body)).toEqual(["Which browser?", "Trying Firefox"])
    expect((await call(base, "GET", `/v1/agent-sessions/${s.id}?limit=0`, { headers: key(A.apiKey) })).status).toBe(400)
    const types = (await eventsOf(s.id)).map((e) => e.type)
    expect(types.filter((t) => t === "agent_activity.created")).toHaveLength(5)
    expect(types).toContain("agent_session.completed")
    // a new claim of the freed card is a new session
    const next = await claim(card.id, key(M.apiKey))
    expect(next.status).toBe(201)
    expect(next.body.id).not.toBe(s.id)
  })

  it("a release frees the card and moves it in the same transaction, logging card.moved", async () => {
    const card = await newCard("Ship")
    const s = (await claim(card.id, key(A.apiKey))).body
    const done = A.columns[2]!
    const released = await call(base, "POST", `/v1/agent-sessions/${s.id}/release`, {
      body: { status: "complete", moveTo: done.id },
      headers: key(A.apiKey)
    })
    expect(released.status).toBe(200)
    expect(released.body.status).toBe("complete")
    const after = await getCard(card.id)
    expect(after.columnId).toBe(done.id)
    expect(after.claim).toBeNull()
    const moved = await server.query<{ type: string; data: any }>(
      `SELECT type, data FROM events WHERE card_id = $1 AND type = 'card.moved'`,
      [card.id]
    )
    expect(moved).toHaveLength(1)
    const data = typeof moved[0]!.data === "string" ? JSON.parse(moved[0]!.data) : moved[0]!.data
    expect(data.object.columnId).toBe(done.id)
    expect(data.object.claim).toBeNull()
    // releasing again: the session has ended
    expect(
      (await call(base, "POST", `/v1/agent-sessions/${s.id}/release`, { body: {}, headers: key(A.apiKey) })).status
    ).toBe(409)
    // a move to a column elsewhere fails and leaves the session as it was (one transaction)
    const other = await newCard("Stay")
    const s2 = (await claim(other.id, key(A.apiKey))).body
    const elsewhere = await bootstrap(base, "elsewhere")
    const bad = await call(base, "POST", `/v1/agent-sessions/${s2.id}/release`, {
      body: { moveTo: elsewhere.columns[0]!.id },
      headers: key(A.apiKey)
    })
    expect(bad.status).toBe(404)
    expect((await getCard(other.id)).claim?.sessionId).toBe(s2.id)
    const plain = await call(base, "POST", `/v1/agent-sessions/${s2.id}/release`, { body: {}, headers: key(A.apiKey) })
    expect(plain.status).toBe(200)
    expect(plain.body.status).toBe("released")
    expect((await getCard(other.id)).claim).toBeNull()
  })

  it("lists a card's sessions and a project's, newest first, by status", async () => {
    const card = await newCard("History")
    const one = (await claim(card.id, key(A.apiKey))).body
    await call(base, "POST", `/v1/agent-sessions/${one.id}/release`, { body: {}, headers: key(A.apiKey) })
    const two = (await claim(card.id, key(M.apiKey))).body
    const list = await call(base, "GET", `/v1/cards/${card.id}/agent-sessions`, { headers: key(A.apiKey) })
    expect(list.status).toBe(200)
    expect(list.body.map((s: any) => s.id)).toEqual([two.id, one.id])
    const active = await call(base, "GET", `/v1/projects/${A.projectId}/agent-sessions?status=active`, {
      headers: key(A.apiKey)
    })
    expect(active.body.map((s: any) => s.id)).toContain(two.id)
    expect(active.body.every((s: any) => s.status === "active")).toBe(true)
    const released = await call(base, "GET", `/v1/projects/${A.projectId}/agent-sessions?status=released`, {
      headers: key(A.apiKey)
    })
    expect(released.body.map((s: any) => s.id)).toContain(one.id)
    expect(
      (await call(base, "GET", `/v1/projects/${A.projectId}/agent-sessions?status=busy`, { headers: key(A.apiKey) }))
        .status
    ).toBe(400)
  })

  it("a passed lease frees the card at once for readers and claimers, and the sweep marks it stale as the system", async () => {
    const card = await newCard("Lease")
    const s = (await claim(card.id, key(A.apiKey), { ttlSeconds: 30 })).body
    clock.advance(29_000)
    expect((await getCard(card.id)).claim?.sessionId).toBe(s.id)
    expect((await claim(card.id, key(M.apiKey))).status).toBe(409)
    clock.advance(1_000)
    // the lease has ended: no claim, whether or not the sweep has run
    expect((await getCard(card.id)).claim).toBeNull()
    const read = await call(base, "GET", `/v1/agent-sessions/${s.id}`, { headers: key(A.apiKey) })
    expect(read.body.status).toBe("stale")
    // the sweep (every second) marks it stale with a system event, without any request to it
    let stale: ReadonlyArray<{ status: string }> = []
    for (let i = 0; i < 100; i++) {
      stale = await server.query(`SELECT status FROM agent_sessions WHERE id = $1`, [s.id])
      if (stale[0]?.status === "stale") break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(stale[0]?.status).toBe("stale")
    const events = await eventsOf(s.id)
    const staleEvent = events.find((e) => e.type === "agent_session.stale")
    const actor = typeof staleEvent?.actor === "string" ? JSON.parse(staleEvent.actor) : staleEvent?.actor
    expect(actor).toEqual({ type: "system" })
    // the old session cannot heartbeat; the card is the next claimer's
    const beat = await call(base, "POST", `/v1/agent-sessions/${s.id}/heartbeat`, { headers: key(A.apiKey) })
    expect(beat.status).toBe(409)
    const taken = await claim(card.id, key(M.apiKey))
    expect(taken.status).toBe(201)
  })

  it("a claim takes a card whose lease passed before the sweep reached it", async () => {
    const card = await newCard("Race the sweep")
    const s = (await claim(card.id, key(A.apiKey), { ttlSeconds: 30 })).body
    clock.advance(30_000)
    // the claim itself marks the passed session stale in its own transaction
    const taken = await claim(card.id, key(M.apiKey))
    expect(taken.status).toBe(201)
    const [row] = await server.query(`SELECT status FROM agent_sessions WHERE id = $1`, [s.id])
    expect(row.status).toBe("stale")
    const heartbeat = await call(base, "POST", `/v1/agent-sessions/${s.id}/heartbeat`, { headers: key(A.apiKey) })
    expect(heartbeat.status).toBe(409)
  })

  it("a person's comment resumes a session awaiting input (the hook the comments call, in their transaction)", async () => {
    const card = await newCard("Ask first")
    const s = (await claim(card.id, key(A.apiKey))).body
    await call(base, "POST", `/v1/agent-sessions/${s.id}/activities`, {
      body: { type: "elicitation", body: "Which colour?" },
      headers: key(A.apiKey)
    })
    const [mKey] = await server.query<{ id: string }>(`SELECT id FROM api_keys WHERE user_id = $1`, [M.userId])
    const as = (principal: Principal) =>
      server.run(
        Effect.gen(function* () {
          const events = yield* EventLog
          const sessions = yield* AgentSessions
          yield* events.withEvents(sessions.resumeOnComment(principal, card.id))
        })
      )
    const status = async () =>
      (await call(base, "GET", `/v1/agent-sessions/${s.id}`, { headers: key(A.apiKey) })).body.status
    // an agent's comment (an OAuth grant) is no answer, nor is the session's own actor's
    await as({ userId: M.userId, via: "oauth", workspaces: "all", credentialId: crypto.randomUUID() })
    const [aKey] = await server.query<{ id: string }>(
      `SELECT id FROM api_keys WHERE user_id = $1 ORDER BY created_at LIMIT 1`,
      [A.userId]
    )
    await as({ userId: A.userId, via: "apiKey", workspaces: "all", credentialId: aKey!.id })
    expect(await status()).toBe("awaitingInput")
    await as({ userId: M.userId, via: "apiKey", workspaces: "all", credentialId: mKey!.id })
    expect(await status()).toBe("active")
    const resumed = (await eventsOf(s.id)).filter((e) => e.type === "agent_session.updated").at(-1)!
    const actor = typeof resumed.actor === "string" ? JSON.parse(resumed.actor) : resumed.actor
    expect(actor).toEqual({ type: "user", userId: M.userId, name: "max" })
  })
})
