/**
 * Issue 9, part 1: requests generated from the server's own OpenAPI document, on the embedded database
 * (bad input meets the same SQL on PostgreSQL; which suites run there: docs/development.md).
 *
 * For every operation of the document, with fast-check (fixed seed):
 *   - valid requests, drawn from the request schema (all of Unicode, lengths up to and at the
 *     bounds, optional fields present or absent, unknown extra fields, every credential kind the
 *     operation documents), addressing real resources of the caller's: the owner's valid request is
 *     accepted (2xx), its body matches the document's response schema, and what it made or changed
 *     reads back at once (after a DELETE, the resource answers 404);
 *   - invalid requests, one thing of a valid one broken (a field of the wrong type, past its length,
 *     outside its enum or pattern, a bad uuid, a required field missing, a body that is not an
 *     object, malformed JSON, a wrong content type, a bad query or header value): never 2xx, the
 *     status SPEC.md gives (400 unless the operation's row says otherwise), `{error: string}`, and
 *     nothing changed in the database.
 * Every response: never 5xx, its status among those SPEC.md allows the operation (support/openapi.ts)
 * and declared by the document, failures `{error: string}`.
 *
 * HOSTILE_SEED (default 7) and HOSTILE_RUNS (runs per operation and kind, default 10) make longer
 * local runs: `HOSTILE_RUNS=200 vitest run test/hostile-generated.test.ts`.
 */
import { Blobs, issuePasswordReset, type Principal, Workspaces } from "@board/core"
import { Effect } from "effect"
import fc from "fast-check"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { publishRelease } from "../packages/core/src/desktop/publish.ts"
import { arbitraryOf, invalidValuesFor, type Pools, ref, refs, resolveRefs } from "./support/arbitraries.ts"
import { backends } from "./support/backends.ts"
import { type Account, bootstrap, call, key, type Reply, SUITE_PASSWORD } from "./support/client.ts"
import { makeBuild } from "./support/desktopHttp.ts"
import { fullFlow } from "./support/oauthFlow.ts"
import {
  allowedStatuses,
  type DocOperation,
  type Document,
  type JsonSchema,
  loadDocument,
  makeValidators,
  operationsOf,
  type Parameter,
  tabledOperations,
  type Validators
} from "./support/openapi.ts"
import { type ChangeLog, installChangeLog } from "./support/changeLog.ts"
import { startServer, type TestServer } from "./support/server.ts"

const SEED = Number(process.env.HOSTILE_SEED ?? 7)
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10)

type Body =
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "raw"; readonly raw: string; readonly contentType: string }
  | { readonly kind: "none" }

interface Req {
  readonly credential: string
  readonly params: Readonly<Record<string, unknown>>
  readonly query: Readonly<Record<string, unknown>>
  readonly headers: Readonly<Record<string, unknown>>
  readonly body: Body
}

/** What a valid request of an operation addresses, and how its effect reads back. */
interface Case {
  /** Values by field or parameter name: ids of real things (Ref), or semantically valid values. */
  readonly pools?: Pools
  /** Fresh resources for one run (a card to delete, a grant to revoke), merged into the ids. */
  readonly setup?: () => Promise<Record<string, string>>
  /** Reads back what a 2xx did; `req` has its Refs resolved. */
  readonly check?: (r: Reply, req: Req, ids: Readonly<Record<string, string>>) => Promise<void>
  /**
   * The credential kinds a valid request uses, when not every documented one can act: an agent
   * session answers only its own actor (the credential that opened it in `setup`, an API key).
   */
  readonly credentials?: ReadonlyArray<string>
  /** The status SPEC.md gives an invalid value of a parameter, when it is not 400. */
  readonly invalidStatus?: Readonly<Record<string, number>>
  /**
   * Removes, after a run's checks, what would otherwise pile up and slow every later run: a
   * webhook left behind gets a delivery, and the worker an attempt, for every later event.
   */
  readonly teardown?: (r: Reply, ids: Readonly<Record<string, string>>) => Promise<void>
  /**
   * Turns a generated valid request into the one a caller really sends, when its credential
   * depends on the body (a forge's signature over the raw body): applied before sending.
   */
  readonly prepare?: (req: Req) => Req
  /**
   * Why the generic invalid-request mutations do not apply (they expect 400 for a body a
   * forge's endpoint answers by its signature first, and 202 for events it does not read),
   * and which suite tests its refusals instead.
   */
  readonly ownRefusals?: string
}

/** Every webhook of this suite: the discard port on loopback, closed, so a delivery fails at once and goes nowhere. */
const HOOK_URL = "http://127.0.0.1:9/hook"

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v)

describe.each(backends)("generated requests on %s", (backend) => {
  let server: TestServer
  let base: string
  let doc: Document
  let v: Validators
  let ops: Map<string, DocOperation>
  let A: Account
  let B: Account
  let oauthToken: string
  let intakeToken: string
  let root: string
  /** The shared fixture's ids, by name (see beforeAll). */
  const ids: Record<string, string> = {}
  let cardRef = ""

  const h = () => key(A.apiKey)
  /** B (the peer) a plain member of A's workspace again, or not a member at all, before a members run. */
  const peerIsMember = async (member: boolean) =>
    member
      ? server.query(
          `INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'member')
           ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = 'member'`,
          [A.workspaceId, B.userId]
        )
      : server.query(`DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [
          A.workspaceId,
          B.userId
        ])
  const must = async (method: string, p: string, body: unknown, status: number, headers = h()) => {
    const r = await call(base, method, p, { ...(body !== undefined ? { body } : {}), headers })
    if (r.status !== status)
      throw new Error(`${method} ${p} → ${r.status} (expected ${status}): ${r.text.slice(0, 300)}`)
    return r.body
  }
  const newCard = async (columnId: string, title: string) =>
    (await must("POST", "/v1/cards", { projectId: ids.project, columnId, title }, 201)).id as string
  const getCard = (id: string) => call(base, "GET", `/v1/cards/${id}`, { headers: h() })
  const board = async (projectId: string) => must("GET", `/v1/board/${projectId}`, undefined, 200)
  const freshProject = () =>
    must("POST", "/v1/projects", { workspaceId: ids.workspace, name: "Fresh", template: "kanban" }, 201)
  /** Deletes a webhook of the suite's if it is still there (204), or already gone (404). */
  const dropWebhook = async (id: string | undefined) => {
    if (id === undefined) return
    const r = await call(base, "DELETE", `/v1/webhooks/${id}`, { headers: h() })
    if (r.status !== 204 && r.status !== 404) throw new Error(`DELETE /v1/webhooks/${id} → ${r.status}: ${r.text}`)
  }

  /** Every real credential in every header it could be sent in. */
  const placements: ReadonlyArray<{ readonly kind: string; readonly header: "x-api-key" | "bearer" | "x-intake-key" }> =
    ["apiKey", "oauth", "session", "intake"].flatMap((kind) =>
      (["x-api-key", "bearer", "x-intake-key"] as const).map((header) => ({ kind, header }))
    )
  const documentedHeader = {
    apiKey: "x-api-key",
    oauth: "bearer",
    session: "bearer",
    intake: "x-intake-key"
  } as Record<string, string>
  const secretOf = (kind: string) =>
    (({ apiKey: A.apiKey, oauth: oauthToken, session: A.session, intake: intakeToken }) as Record<string, string>)[
      kind
    ]!
  const placed = (p: { kind: string; header: string }): Record<string, string> =>
    p.header === "bearer" ? { authorization: `Bearer ${secretOf(p.kind)}` } : { [p.header]: secretOf(p.kind) }

  /**
   * The web app's session (issue 21) of the current run, as the app sends it: the cookie, its
   * origin and the CSRF token. Not a security scheme of the document (a cookie), so used only by
   * the operation that takes nothing else (sign out), set by that case's `setup`.
   */
  let browserHeaders: Record<string, string> = {}
  const webLogin = async () => {
    const origin = new URL(server.config.publicUrl).origin
    const r = await call(base, "POST", "/v1/auth/login", {
      body: { email: A.email, password: SUITE_PASSWORD },
      headers: { origin }
    })
    const cookies = Object.fromEntries(
      r.headers.getSetCookie().map((c) => c.split(";")[0]!.split("=") as [string, string])
    )
    browserHeaders = {
      cookie: `board_session=${cookies.board_session}`,
      origin,
      "x-csrf-token": cookies.board_csrf!
    }
  }

  /** The headers of a request's credential: a kind in its documented header, or `<kind> in <header>`. */
  const credentialHeaders = (credential: string): Record<string, string> => {
    if (credential === "none") return {}
    if (credential === "browser") return { ...browserHeaders }
    const [kind, header] = credential.includes(" in ")
      ? credential.split(" in ")
      : [credential, documentedHeader[credential]]
    return placed({ kind: kind!, header: header! })
  }

  const deref = (s: JsonSchema): JsonSchema =>
    s.$ref !== undefined ? doc.components.schemas[s.$ref.split("/").pop()!]! : s
  const bodySchema = (o: DocOperation) => {
    const s = o.op.requestBody?.content["application/json"]?.schema
    return s === undefined ? undefined : deref(s)
  }
  const paramsIn = (o: DocOperation, where: Parameter["in"]) => (o.op.parameters ?? []).filter((p) => p.in === where)
  const credentialsOf = (o: DocOperation) => {
    const kinds = (o.op.security ?? []).flatMap((s) => Object.keys(s))
    return kinds.length === 0 ? ["none"] : kinds
  }

  const pathOf = (o: DocOperation, params: Readonly<Record<string, unknown>>) =>
    o.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = String(params[name])
      // `{file}` is `<version>/<artifact>`: its slash is a real one
      return name === "file" ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value)
    })

  const send = async (o: DocOperation, req: Req): Promise<Reply> => {
    const query = new URLSearchParams()
    for (const [k, value] of Object.entries(req.query)) if (value !== undefined) query.append(k, String(value))
    const qs = query.toString()
    const headers = credentialHeaders(req.credential)
    for (const [k, value] of Object.entries(req.headers)) if (value !== undefined) headers[k] = String(value)
    const target = `${pathOf(o, req.params)}${qs === "" ? "" : `?${qs}`}`
    if (req.body.kind === "json") return call(base, o.method, target, { body: req.body.value, headers })
    if (req.body.kind === "raw")
      return call(base, o.method, target, {
        raw: req.body.raw,
        headers: { ...headers, "content-type": req.body.contentType }
      })
    return call(base, o.method, target, { headers })
  }

  const resolveReq = (req: Req, runIds: Readonly<Record<string, string>>): Req => ({
    ...req,
    params: resolveRefs(req.params, runIds) as Record<string, unknown>,
    query: resolveRefs(req.query, runIds) as Record<string, unknown>,
    headers: resolveRefs(req.headers, runIds) as Record<string, unknown>,
    body: req.body.kind === "json" ? { kind: "json", value: resolveRefs(req.body.value, runIds) } : req.body
  })

  /** The checks every response gets: status, documented status, error body, success body schema. */
  const expectDocumented = (o: DocOperation, r: Reply, label: string) => {
    const shown = `${o.key} → ${r.status} ${r.text.slice(0, 300)}\n  ${label}`
    expect(r.status, shown).toBeLessThan(500)
    const allowed = allowedStatuses(o)
    expect(
      allowed.has(r.status),
      `${shown}\n  not among the statuses SPEC.md allows ${o.key}: ${[...allowed].join(", ")}`
    ).toBe(true)
    expect(
      o.op.responses[String(r.status)],
      `${shown}\n  not declared in the document's responses for ${o.key}`
    ).toBeDefined()
    if (r.status >= 400) {
      expect(
        isJsonObject(r.body) && typeof r.body.error === "string" && r.body.error.length > 0,
        `${shown}\n  failure without {error: string}`
      ).toBe(true)
    }
    const schema = v.responseSchema(o.op, r.status)
    if (schema !== undefined) {
      expect(r.headers.get("content-type") ?? "", shown).toContain("application/json")
      const result = v.validate(schema, r.body)
      expect(result.ok, `${shown}\n  body does not match the document's schema for ${r.status}: ${result.errors}`).toBe(
        true
      )
    } else if (r.status === 204 || r.status === 302) {
      expect(r.text, shown).toBe("")
    }
  }

  // ---- valid requests, from the document ----

  const validRequest = (o: DocOperation, c: Case): fc.Arbitrary<Req> => {
    const pools = c.pools ?? {}
    const param = (p: Parameter) => pools[p.name] ?? arbitraryOf(deref(p.schema), { header: p.in === "header" })
    const group = (where: Parameter["in"]) => {
      const ps = paramsIn(o, where)
      const model = Object.fromEntries(ps.map((p) => [p.name, param(p)]))
      return fc.record(model, {
        requiredKeys: ps.filter((p) => p.required === true).map((p) => p.name)
      }) as fc.Arbitrary<Record<string, unknown>>
    }
    const schema = bodySchema(o)
    const body: fc.Arbitrary<Body> =
      schema === undefined
        ? fc.constant({ kind: "none" })
        : arbitraryOf(schema, { pools, extras: true }).map((value) => ({ kind: "json", value }))
    return fc.record({
      credential: fc.constantFrom(...(c.credentials ?? credentialsOf(o))),
      params: group("path"),
      query: group("query"),
      headers: group("header"),
      body
    })
  }

  /** The generator's own promise, checked before sending: the request is valid by the document. */
  const expectValidByDocument = (o: DocOperation, req: Req) => {
    for (const p of o.op.parameters ?? []) {
      const where = p.in === "path" ? req.params : p.in === "query" ? req.query : req.headers
      const value = where[p.name]
      if (value === undefined) {
        expect(p.required !== true, `generator left out required ${p.in} parameter ${p.name}`).toBe(true)
        continue
      }
      const r = v.validate(deref(p.schema), value)
      expect(r.ok, `generated ${p.in} parameter ${p.name}=${JSON.stringify(value)} is not valid: ${r.errors}`).toBe(
        true
      )
    }
    const schema = bodySchema(o)
    if (schema !== undefined && req.body.kind === "json") {
      const r = v.validate(schema, req.body.value)
      expect(
        r.ok,
        `generated body is not valid by the document: ${r.errors}: ${JSON.stringify(req.body.value).slice(0, 300)}`
      ).toBe(true)
    }
  }

  // ---- invalid requests: one thing of a valid one broken ----

  interface Mutation {
    readonly label: string
    readonly apply: (req: Req) => Req
    readonly status: number
  }

  /** Query and path values are strings on the wire: the document's integers are checked as numbers. */
  const wireValue = (s: JsonSchema, raw: string): unknown =>
    s.type === "integer" && /^-?\d+$/.test(raw) ? Number(raw) : raw

  const mutationsOf = (o: DocOperation, c: Case): Array<Mutation> => {
    const out: Array<Mutation> = []
    const statusFor = (name: string) => c.invalidStatus?.[name] ?? 400
    const schema = bodySchema(o)
    if (schema !== undefined) {
      const bodyOf = (req: Req) => (req.body.kind === "json" && isJsonObject(req.body.value) ? req.body.value : {})
      for (const [name, propSchema] of Object.entries(schema.properties ?? {})) {
        const s = deref(propSchema)
        for (const bad of invalidValuesFor(s, (x) => !v.validate(s, x).ok)) {
          out.push({
            label: `body ${name}=${JSON.stringify(bad).slice(0, 40)}`,
            apply: (req) => ({ ...req, body: { kind: "json", value: { ...bodyOf(req), [name]: bad } } }),
            status: statusFor(name)
          })
        }
      }
      for (const name of schema.required ?? []) {
        out.push({
          label: `body without ${name}`,
          apply: (req) => {
            const { [name]: _gone, ...rest } = bodyOf(req)
            return { ...req, body: { kind: "json", value: rest } }
          },
          status: 400
        })
      }
      for (const [k, needs] of Object.entries(schema.dependentRequired ?? {})) {
        out.push({
          label: `body ${k} without ${needs.join(", ")}`,
          apply: (req) => {
            const rest = { ...bodyOf(req) }
            for (const n of needs) delete rest[n]
            return { ...req, body: { kind: "json", value: { ...rest, [k]: rest[k] ?? "because" } } }
          },
          status: 400
        })
      }
      const wholeBodies: Array<[string, Body]> = [
        ["body null", { kind: "json", value: null }],
        ["body an array", { kind: "json", value: [] }],
        ["body a string", { kind: "json", value: "text" }],
        ["body a number", { kind: "json", value: 5 }],
        ["malformed JSON {", { kind: "raw", raw: "{", contentType: "application/json" }],
        ['malformed JSON {"a":', { kind: "raw", raw: '{"a":', contentType: "application/json" }],
        ["empty JSON body", { kind: "raw", raw: "", contentType: "application/json" }],
        ["no body", { kind: "none" }]
      ]
      for (const [label, body] of wholeBodies) out.push({ label, apply: (req) => ({ ...req, body }), status: 400 })
      for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "application/xml"]) {
        out.push({
          label: `JSON sent as ${contentType}`,
          apply: (req) => ({
            ...req,
            body: { kind: "raw", raw: JSON.stringify(req.body.kind === "json" ? req.body.value : {}), contentType }
          }),
          status: 400
        })
      }
    }
    for (const p of o.op.parameters ?? []) {
      const s = deref(p.schema)
      const candidates = [
        "not-a-uuid",
        "00000000-0000-4000-8000-00000000000g",
        "abc",
        "1.5",
        "-1",
        "0",
        "1e3",
        " 1",
        "NOPE",
        "a".repeat(300),
        "😀".repeat(250),
        "ABC!",
        "a b",
        "\u0000"
      ]
      if (s.maximum !== undefined) candidates.push(String(s.maximum + 1))
      if (s.minimum !== undefined) candidates.push(String(s.minimum - 1))
      if (s.maxLength !== undefined) candidates.push("q".repeat(s.maxLength + 1))
      if (p.in !== "path") candidates.push("")
      const bad = candidates.filter((x) => !v.validate(s, wireValue(s, x)).ok)
      // header values must be sendable: visible ASCII
      const sendable = p.in === "header" ? bad.filter((x) => /^[\x20-\x7e]*$/.test(x) && x.trim() === x) : bad
      const where = p.in === "path" ? "params" : p.in === "query" ? "query" : "headers"
      for (const x of sendable) {
        out.push({
          label: `${p.in} ${p.name}=${JSON.stringify(x).slice(0, 40)}`,
          apply: (req) => ({ ...req, [where]: { ...req[where], [p.name]: x } }),
          status: statusFor(p.name)
        })
      }
      if (p.required === true && p.in !== "path") {
        out.push({
          label: `without ${p.in} ${p.name}`,
          apply: (req) => {
            const { [p.name]: _gone, ...rest } = req[where]
            return { ...req, [where]: rest }
          },
          status: 400
        })
      }
    }
    return out
  }

  /**
   * What a refused request changed in the database: it may change none of it (support/changeLog.ts:
   * triggers log every table a statement changes). Background work is judged by what it means.
   */
  let changes: ChangeLog
  const watchChanges = (s: TestServer) =>
    installChangeLog(s, {
      columns: {
        // a grant's last use is stamped by any request with its token, refused or not
        oauth_grants: ["id", "user_id", "client_id", "workspaces", "scope", "revoked_at"],
        // the delivery worker's progress (attempts, errors, the payload it fixes) goes on in the background
        webhook_deliveries: ["id", "webhook_id", "event_n", "event_id", "event_type", "created_at"]
      },
      summaries: {
        // position counts are folded in the background: what they say, not how many rows say it
        card_order_counts: `SELECT column_id, bucket, sum(delta) FROM card_order_counts GROUP BY 1, 2 HAVING sum(delta) <> 0`
      }
    })

  // ---- the fixture and the cases ----

  const intakeCards = async (tokenId: string) =>
    (
      await server.query<{ n: number }>(`SELECT count(*)::int AS n FROM cards WHERE intake_token_id = $1`, [tokenId])
    )[0]!.n
  const usedIdempotencyKeys = new Set<string>()

  const allProjectLinks = async (projectId: string) => {
    const all: Array<any> = []
    for (let offset = 0; ; offset += 500) {
      const page = await must("GET", `/v1/projects/${projectId}/links?limit=500&offset=${offset}`, undefined, 200)
      all.push(...page.links)
      if (page.links.length < 500) return all
    }
  }

  let urlCounter = 0
  let emailCounter = 0

  const cases = (): Record<string, Case> => {
    const columns = refs("col0", "col1", "col2")
    const hookUrl = fc.constant(HOOK_URL)
    const hookEvents = fc.constantFrom(["*"], ["card.created", "card.moved"], ["label.created"])
    const longLease = fc.integer({ min: 1800, max: 3600 })
    const freshSession = async () => {
      const card = await newCard(ids.col0!, "worked by an agent")
      return { session: (await must("POST", `/v1/cards/${card}/claim`, {}, 201)).id as string }
    }
    const project = { projectId: ref("project") }
    // assignees are members of the card's workspace (anyone else is a documented 400), and a due
    // date is a real instant (the document's pattern also lets 2026-99-99 through)
    const cardExtras = {
      assigneeIds: fc.subarray([A.userId]),
      dueAt: fc.option(
        fc
          .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
          .map((d) => d.toISOString()),
        { nil: null }
      )
    }
    const assignee = fc.constantFrom("me", A.userId, B.userId)
    // an event id sorts as text: the first possible one and a far one are both valid cursors
    const eventId = fc.constantFrom("000000000000000000000000", "0000000fffff0000000fffff")
    const eventCursor = { after: eventId }
    const eventTypesPool = fc.constantFrom("card.created", "card.moved,card.created", " card.deleted ")
    return {
      "GET /v1": {},
      "GET /v1/health": {},
      "POST /v1/auth/signup": {
        // a fresh address each run: a second signup for one email within 5 minutes is SPEC's 429;
        // a fresh invitation (to A's workspace, for any email) when the run sends one
        setup: async () => ({
          freshInvitation: (await must("POST", `/v1/workspaces/${ids.workspace}/invitations`, {}, 201)).token
        }),
        pools: {
          email: fc.emailAddress().map((e) => `gen${++emailCounter}.${e}`),
          invitation: ref("freshInvitation")
        },
        check: async (r, req) => {
          const body = req.body.kind === "json" ? (req.body.value as { email: string; password: string }) : undefined
          const login = await call(base, "POST", "/v1/auth/login", {
            body: { email: body!.email, password: body!.password }
          })
          expect(login.status, login.text).toBe(200)
          expect(login.body.user.id).toBe(r.body.user.id)
        }
      },
      "POST /v1/auth/login": {
        pools: {
          email: fc.constantFrom(A.email, A.email.toUpperCase(), ` ${A.email} `),
          password: fc.constant(SUITE_PASSWORD)
        },
        check: async (r) => expect(r.body.user.id).toBe(A.userId)
      },
      "POST /v1/api-keys": {
        pools: { projectIds: ref("project").map((r) => [r]), expiresAt: fc.constant("2099-01-01T00:00:00.000Z") },
        check: async (r) =>
          expect((await call(base, "GET", "/v1/workspaces", { headers: key(r.body.rawKey) })).status).toBe(200)
      },
      "POST /v1/workspaces": {
        check: async (r) => {
          const list = await must("GET", "/v1/workspaces", undefined, 200)
          expect(list).toContainEqual(r.body.workspace)
        }
      },
      "GET /v1/workspaces": {},
      "GET /v1/auth/providers": { check: async (r) => expect(r.body).toEqual({ providers: [] }) },
      "GET /v1/me": { check: async (r) => expect(r.body.id).toBe(A.userId) },
      // ends the web app's session: a fresh one each run (any other credential is a documented 400)
      "POST /v1/auth/logout": {
        credentials: ["browser"],
        setup: async () => {
          await webLogin()
          return {}
        },
        check: async () => {
          const after = await call(base, "GET", "/v1/me", {
            headers: { cookie: browserHeaders.cookie!, "sec-fetch-site": "same-origin" }
          })
          expect(after.status).toBe(401)
        }
      },
      "GET /v1/workspaces/{id}/projects": { pools: { id: ref("workspace") } },
      // issue 30: agents as members (a fresh agent to delete, a fresh key to revoke)
      "POST /v1/workspaces/{id}/agents": {
        pools: { id: ref("workspace") },
        check: async (r) =>
          expect(await must("GET", `/v1/workspaces/${ids.workspace}/agents`, undefined, 200)).toContainEqual(r.body)
      },
      "GET /v1/workspaces/{id}/agents": { pools: { id: ref("workspace") } },
      "DELETE /v1/agents/{id}": {
        setup: async () => ({
          freshAgent: (await must("POST", `/v1/workspaces/${ids.workspace}/agents`, { name: "to be deleted" }, 201)).id
        }),
        pools: { id: ref("freshAgent") },
        check: async (_r, req) =>
          expect((await call(base, "DELETE", `/v1/agents/${req.params.id}`, { headers: h() })).status).toBe(404)
      },
      "POST /v1/agents/{id}/api-keys": {
        pools: {
          id: ref("agent"),
          projectIds: ref("project").map((r) => [r]),
          expiresAt: fc.constant("2099-01-01T00:00:00.000Z")
        },
        check: async (r) =>
          expect((await call(base, "GET", "/v1/me", { headers: key(r.body.rawKey) })).body.id).toBe(ids.agent)
      },
      "GET /v1/agents/{id}/api-keys": { pools: { id: ref("agent") } },
      "DELETE /v1/agents/{id}/api-keys/{keyId}": {
        setup: async () => {
          const fresh = await must("POST", `/v1/agents/${ids.agent}/api-keys`, { name: "to be revoked" }, 201)
          return { freshAgentKey: fresh.id, freshAgentRaw: fresh.rawKey }
        },
        pools: { id: ref("agent"), keyId: ref("freshAgentKey") },
        check: async (_r, _req, runIds) =>
          expect((await call(base, "GET", "/v1/me", { headers: key(runIds.freshAgentRaw!) })).status).toBe(401)
      },
      "GET /v1/workspaces/{id}/members": { pools: { id: ref("workspace") } },
      "POST /v1/workspaces/{id}/members": {
        pools: { id: ref("workspace"), email: fc.constantFrom(B.email, B.email.toUpperCase()) },
        // B is not a member before each run (a second add of a member is 409)
        setup: async () => {
          await peerIsMember(false)
          return {}
        },
        check: async (r) => {
          expect(r.body.userId).toBe(B.userId)
          expect(await must("GET", `/v1/workspaces/${ids.workspace}/members`, undefined, 200)).toContainEqual(r.body)
        }
      },
      "PATCH /v1/workspaces/{id}": {
        pools: { id: ref("workspace") },
        check: async (r) => expect(await must("GET", "/v1/workspaces", undefined, 200)).toContainEqual(r.body)
      },
      "DELETE /v1/workspaces/{id}": {
        setup: async () => ({
          fresh: (await must("POST", "/v1/workspaces", { name: "To be deleted" }, 201)).workspace.id
        }),
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          const listed = await must("GET", "/v1/workspaces", undefined, 200)
          expect(listed.map((w: { id: string }) => w.id)).not.toContain(req.params.id)
          expect((await call(base, "DELETE", `/v1/workspaces/${req.params.id}`, { headers: h() })).status).toBe(404)
        }
      },
      "GET /v1/projects/{id}": {
        pools: { id: ref("project") },
        check: async (r) => expect((await board(ids.project!)).project).toEqual(r.body)
      },
      // a fresh project: an archived shared one would leave the other operations' lists
      "PATCH /v1/projects/{id}": {
        setup: async () => ({ fresh: (await freshProject()).project.id }),
        pools: { id: ref("fresh") },
        check: async (r, req) => {
          expect(await must("GET", `/v1/projects/${req.params.id}`, undefined, 200)).toEqual(r.body)
          expect((await board(String(req.params.id))).project).toEqual(r.body)
        }
      },
      "DELETE /v1/projects/{id}": {
        setup: async () => ({ fresh: (await freshProject()).project.id }),
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          expect((await call(base, "GET", `/v1/projects/${req.params.id}`, { headers: h() })).status).toBe(404)
          expect((await call(base, "GET", `/v1/board/${req.params.id}`, { headers: h() })).status).toBe(404)
        }
      },
      "PATCH /v1/workspaces/{id}/members/{userId}": {
        pools: { id: ref("workspace"), userId: ref("peer") },
        setup: async () => {
          await peerIsMember(true)
          return { peer: B.userId }
        },
        check: async (r, req) => {
          expect(r.body.userId).toBe(B.userId)
          expect(r.body.role).toBe(req.body.kind === "json" ? (req.body.value as { role?: string }).role : undefined)
        }
      },
      "DELETE /v1/workspaces/{id}/members/{userId}": {
        pools: { id: ref("workspace"), userId: ref("peer") },
        setup: async () => {
          await peerIsMember(true)
          return { peer: B.userId }
        },
        check: async () => {
          const left = await must("GET", `/v1/workspaces/${ids.workspace}/members`, undefined, 200)
          expect(left.map((m: { userId: string }) => m.userId)).not.toContain(B.userId)
        }
      },
      // issue 30: invitations and password reset
      "POST /v1/workspaces/{id}/invitations": {
        pools: { id: ref("workspace"), email: fc.emailAddress().map((e) => `inv${++emailCounter}.${e}`) },
        check: async (r) => {
          const { url, token, ...listed } = r.body
          expect(url).toBe(`${server.config.publicUrl}/invite/${token}`)
          expect(await must("GET", `/v1/workspaces/${ids.workspace}/invitations`, undefined, 200)).toContainEqual(
            listed
          )
        }
      },
      "GET /v1/workspaces/{id}/invitations": { pools: { id: ref("workspace") } },
      "DELETE /v1/invitations/{id}": {
        setup: async () => {
          const i = await must("POST", `/v1/workspaces/${ids.workspace}/invitations`, {}, 201)
          return { fresh: i.id, freshToken: i.token }
        },
        pools: { id: ref("fresh") },
        check: async () => expect((await call(base, "GET", `/v1/invitations/${runIds.freshToken}`)).status).toBe(404)
      },
      // the path's `{id}` is the invitation's token
      "GET /v1/invitations/{id}": {
        setup: async () => ({
          freshToken: (await must("POST", `/v1/workspaces/${ids.workspace}/invitations`, { role: "viewer" }, 201)).token
        }),
        pools: { id: ref("freshToken") },
        // the workspace's name as it is now (the rename operation's runs change it)
        check: async (r) => {
          const listed = await must("GET", "/v1/workspaces", undefined, 200)
          const name = listed.find((w: { id: string }) => w.id === ids.workspace).name
          expect(r.body).toMatchObject({ workspaceName: name, role: "viewer" })
        }
      },
      // A joins a fresh workspace of B's by B's link
      "POST /v1/invitations/{token}/accept": {
        setup: async () => {
          const ws = await must("POST", "/v1/workspaces", { name: "peer's team" }, 201, key(B.apiKey))
          const i = await must("POST", `/v1/workspaces/${ws.workspace.id}/invitations`, {}, 201, key(B.apiKey))
          return { freshWorkspace: ws.workspace.id, freshToken: i.token }
        },
        pools: { token: ref("freshToken") },
        check: async (r) => {
          expect(r.body.workspace.id).toBe(runIds.freshWorkspace)
          expect(r.body.member.userId).toBe(A.userId)
          expect((await call(base, "GET", `/v1/invitations/${runIds.freshToken}`)).status).toBe(404)
        }
      },
      "POST /v1/auth/password-reset": {
        pools: { email: fc.constantFrom(A.email, "nobody@example.com") }
      },
      // a fresh account each run, its link made as the operator's command makes one
      "POST /v1/auth/password-reset/confirm": {
        setup: async () => {
          const email = `reset${++emailCounter}@example.com`
          await must("POST", "/v1/auth/signup", { email, password: SUITE_PASSWORD, full_name: "R" }, 201)
          const link = await server.run(issuePasswordReset(email))
          return { freshEmail: email, freshToken: link!.url.split("/reset-password/")[1]! }
        },
        pools: { token: ref("freshToken") },
        check: async (r, req) => {
          const password = (req.body as { value: { password: string } }).value.password
          expect(r.body.user.email).toBe(runIds.freshEmail)
          const login = await call(base, "POST", "/v1/auth/login", { body: { email: runIds.freshEmail, password } })
          expect(login.status, login.text).toBe(200)
        }
      },
      "POST /v1/projects": {
        pools: { workspaceId: ref("workspace") },
        check: async (r) => {
          const b = await board(r.body.project.id)
          expect(b.project).toEqual(r.body.project)
          expect(b.columns).toEqual(r.body.columns)
          expect(await must("GET", `/v1/workspaces/${ids.workspace}/projects`, undefined, 200)).toContainEqual(
            r.body.project
          )
        }
      },
      "GET /v1/board/{projectId}": { pools: { ...project, assignee } },
      "POST /v1/cards": {
        pools: { ...project, columnId: columns, ...cardExtras, labelIds: fc.constant([]), ttlSeconds: longLease },
        check: async (r) => {
          const back = await getCard(r.body.id)
          expect(back.status).toBe(200)
          expect(back.body).toEqual(r.body)
        }
      },
      "GET /v1/cards/{id}": { pools: { id: ref("card") } },
      // issue 33: archive and restore (idempotent: each answers the card)
      "POST /v1/cards/{id}/archive": {
        setup: async () => ({ fresh: await newCard(ids.col0!, "To archive") }),
        pools: { id: ref("fresh") },
        check: async (r) => expect(r.body.archivedAt).not.toBeNull()
      },
      "POST /v1/cards/{id}/restore": {
        setup: async () => {
          const fresh = await newCard(ids.col0!, "To restore")
          await must("POST", `/v1/cards/${fresh}/archive`, undefined, 200)
          return { fresh }
        },
        pools: { id: ref("fresh") },
        check: async (r) => expect(r.body.archivedAt).toBeNull()
      },
      // issue 31: repositories, pull requests, deployments
      "POST /v1/projects/{id}/repositories": {
        pools: { id: ref("project"), name: fc.constant(null).map(() => `acme/generated-${++emailCounter}`) },
        check: async (r) => expect(r.body.webhookSecret).toMatch(/^whsec_/)
      },
      "GET /v1/projects/{id}/repositories": { pools: { id: ref("project") } },
      "DELETE /v1/repositories/{id}": {
        setup: async () => ({
          fresh: (
            await must(
              "POST",
              `/v1/projects/${ids.project}/repositories`,
              { provider: "github", name: `acme/to-remove-${++emailCounter}` },
              201
            )
          ).id
        }),
        pools: { id: ref("fresh") }
      },
      "GET /v1/cards/{id}/pull-requests": { pools: { id: ref("card") } },
      "POST /v1/projects/{id}/deployments": {
        pools: { id: ref("project"), commits: fc.constant(["9fceb02d0ae598e95dc970b74767f19372d61af8"]) }
      },
      // the forge's own request, signed as GitHub signs it: an event the service does not read
      // (a generated body is no pull request), answered 202; the same delivery again is a replay
      "POST /v1/forge-hooks/{repositoryId}": {
        pools: { repositoryId: ref("repository") },
        prepare: (req) => {
          const raw = JSON.stringify(req.body.kind === "json" ? req.body.value : {})
          const signature = crypto.createHmac("sha256", repositorySecret).update(raw).digest("hex")
          return {
            ...req,
            headers: {
              ...req.headers,
              "X-Hub-Signature-256": `sha256=${signature}`,
              "X-GitHub-Event": "ping",
              "X-GitHub-Delivery": crypto.randomUUID()
            },
            body: { kind: "raw", raw, contentType: "application/json" }
          }
        },
        check: async (r, req) => {
          expect(r.status).toBe(202)
          expect(r.body).toEqual({ ok: true })
          const again = await call(base, "POST", `/v1/forge-hooks/${String(req.params.repositoryId)}`, {
            raw: req.body.kind === "raw" ? req.body.raw : "",
            headers: { ...(req.headers as Record<string, string>), "content-type": "application/json" }
          })
          expect(again.status, again.text).toBe(202)
          const unsigned = await call(base, "POST", `/v1/forge-hooks/${String(req.params.repositoryId)}`, {
            raw: req.body.kind === "raw" ? req.body.raw : "",
            headers: { "content-type": "application/json", "X-GitHub-Event": "ping" }
          })
          expect(unsigned.status, unsigned.text).toBe(401)
        },
        ownRefusals:
          "the signature is checked before the body is read, so a generic malformed body is a 401 (or, signed, an event not read: 202); forge-refusals.test.ts tests its 400, 401, 404 and 413 over HTTP"
      },
      "PATCH /v1/cards/{id}": {
        pools: { id: ref("card"), ...cardExtras },
        check: async (r) => expect((await getCard(r.body.id)).body).toEqual(r.body)
      },
      "DELETE /v1/cards/{id}": {
        setup: async () => ({ fresh: await newCard(ids.col2!, "to be deleted") }),
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          expect((await getCard(String(req.params.id))).status).toBe(404)
          expect((await call(base, "DELETE", `/v1/cards/${req.params.id}`, { headers: h() })).status).toBe(404)
        }
      },
      "POST /v1/cards/{id}/move": {
        pools: { id: ref("card"), columnId: columns },
        check: async (r, req) => {
          expect(r.body.columnId).toBe((req.body as { value: { columnId: string } }).value.columnId)
          expect((await getCard(r.body.id)).body).toEqual(r.body)
        }
      },
      "GET /v1/search": { pools: { ...project, assignee } },
      "POST /v1/columns": {
        pools: project,
        check: async (r) => expect((await board(ids.project!)).columns).toContainEqual(r.body)
      },
      "PATCH /v1/columns/{id}": {
        pools: { id: ref("spareColumn") },
        check: async (r) => expect((await board(ids.project!)).columns).toContainEqual(r.body)
      },
      "DELETE /v1/columns/{id}": {
        setup: async () => ({
          fresh: (await must("POST", "/v1/columns", { projectId: ids.project, name: "to be deleted" }, 201)).id
        }),
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          expect((await board(ids.project!)).columns.map((c: any) => c.id)).not.toContain(req.params.id)
          expect(
            (await call(base, "PATCH", `/v1/columns/${req.params.id}`, { body: { name: "again" }, headers: h() }))
              .status
          ).toBe(404)
          expect((await call(base, "DELETE", `/v1/columns/${req.params.id}`, { headers: h() })).status).toBe(404)
        }
      },
      "POST /v1/labels": {
        // label names are unique per project (README: a duplicate is 409): a fresh board each run
        setup: async () => ({
          freshProject: (await must("POST", "/v1/projects", { workspaceId: ids.workspace, name: "Labels" }, 201))
            .project.id
        }),
        pools: { projectId: ref("freshProject") },
        check: async (r, req) =>
          expect(
            (await board(String((req.body as { value: { projectId: string } }).value.projectId))).labels
          ).toContainEqual(r.body)
      },
      "POST /v1/cards/{id}/labels": {
        pools: { id: ref("card"), labelId: refs("label", "spareLabel") },
        check: async (r, req) => {
          expect(r.body.labels.map((l: any) => l.id)).toContain(
            (req.body as { value: { labelId: string } }).value.labelId
          )
          expect((await getCard(r.body.id)).body).toEqual(r.body)
        }
      },
      "DELETE /v1/cards/{id}/labels/{labelId}": {
        setup: async () => {
          const fresh = await newCard(ids.col2!, "label holder")
          await must("POST", `/v1/cards/${fresh}/labels`, { labelId: ids.spareLabel }, 200)
          return { fresh }
        },
        pools: { id: ref("fresh"), labelId: ref("spareLabel") },
        check: async (_r, req) => {
          expect((await getCard(String(req.params.id))).body.labels).toEqual([])
          expect(
            (
              await call(base, "DELETE", pathOf(ops.get("DELETE /v1/cards/{id}/labels/{labelId}")!, req.params), {
                headers: h()
              })
            ).status
          ).toBe(404)
        }
      },
      "POST /v1/subtasks": {
        pools: { cardId: ref("card") },
        check: async (r) => expect((await getCard(ids.card!)).body.subtasks).toContainEqual(r.body)
      },
      "POST /v1/subtasks/{id}/toggle": {
        pools: { id: ref("subtask") },
        check: async (r) => expect((await getCard(ids.card!)).body.subtasks).toContainEqual(r.body)
      },
      "DELETE /v1/subtasks/{id}": {
        setup: async () => ({
          fresh: (await must("POST", "/v1/subtasks", { cardId: ids.target, title: "to be deleted" }, 201)).id
        }),
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          expect((await getCard(ids.target!)).body.subtasks.map((s: any) => s.id)).not.toContain(req.params.id)
          expect((await call(base, "POST", `/v1/subtasks/${req.params.id}/toggle`, { headers: h() })).status).toBe(404)
        }
      },
      "GET /v1/cards/{id}/links": { pools: { id: ref("card") } },
      "POST /v1/cards/{id}/comments": {
        pools: { id: ref("card") },
        check: async (r) =>
          expect(
            (await must("GET", `/v1/cards/${ids.card}/comments?limit=500`, undefined, 200)).comments
          ).toContainEqual(r.body)
      },
      "GET /v1/cards/{id}/comments": { pools: { id: ref("card") } },
      "PATCH /v1/comments/{id}": {
        pools: { id: ref("comment") },
        check: async (r) =>
          expect(
            (await must("GET", `/v1/cards/${ids.card}/comments?limit=500`, undefined, 200)).comments
          ).toContainEqual(r.body)
      },
      "DELETE /v1/comments/{id}": {
        setup: async () => ({
          fresh: (await must("POST", `/v1/cards/${ids.target}/comments`, { body: "to be deleted" }, 201)).id
        }),
        pools: { id: ref("fresh") },
        check: async (_r, req) =>
          expect((await call(base, "DELETE", `/v1/comments/${req.params.id}`, { headers: h() })).status).toBe(404)
      },
      "POST /v1/cards/{id}/links": {
        pools: { id: ref("card"), targetId: refs("target", "third") },
        check: async (r) => {
          const links = await must("GET", `/v1/cards/${ids.card}/links`, undefined, 200)
          expect(links.map((l: any) => l.id)).toContain(r.body.id)
        }
      },
      "DELETE /v1/links/{id}": {
        setup: async () => {
          const freshCard = await newCard(ids.col2!, "link holder")
          return {
            freshCard,
            fresh: (
              await must("POST", `/v1/cards/${freshCard}/links`, { targetId: ids.third, linkType: "relates_to" }, 201)
            ).id
          }
        },
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          expect(await must("GET", `/v1/cards/${ids.third}/links`, undefined, 200)).not.toContainEqual(
            expect.objectContaining({ id: req.params.id })
          )
          expect((await call(base, "DELETE", `/v1/links/${req.params.id}`, { headers: h() })).status).toBe(404)
        }
      },
      "GET /v1/projects/{projectId}/links": { pools: project },
      "POST /v1/projects/{projectId}/links": {
        pools: project,
        check: async (r) => expect(await allProjectLinks(ids.project!)).toContainEqual(r.body.link)
      },
      "PATCH /v1/projects/{projectId}/links/{linkId}": {
        pools: { ...project, linkId: ref("projectLink") },
        check: async (r) => expect(await allProjectLinks(ids.project!)).toContainEqual(r.body.link)
      },
      "DELETE /v1/projects/{projectId}/links/{linkId}": {
        setup: async () => ({
          fresh: (
            await must(
              "POST",
              `/v1/projects/${ids.project}/links`,
              { url: `https://example.org/gone/${++urlCounter}` },
              201
            )
          ).link.id
        }),
        pools: { ...project, linkId: ref("fresh") },
        check: async (_r, req) => {
          const p = `/v1/projects/${ids.project}/links/${req.params.linkId}`
          expect((await call(base, "PATCH", p, { body: {}, headers: h() })).status).toBe(404)
          expect((await call(base, "POST", `${p}/evaluate`, { headers: h() })).status).toBe(404)
          expect((await allProjectLinks(ids.project!)).map((l) => l.id)).not.toContain(req.params.linkId)
        }
      },
      "POST /v1/projects/{projectId}/links/{linkId}/evaluate": { pools: { ...project, linkId: ref("projectLink") } },
      "GET /v1/cards/{id}/prompt": { pools: { id: ref("card") } },
      "GET /v1/projects/{projectId}/events": { pools: { ...project, ...eventCursor, types: eventTypesPool } },
      "GET /v1/cards/{id}/history": { pools: { id: ref("card"), ...eventCursor } },
      "GET /v1/projects/{projectId}/events/stream": { pools: { ...project, ...eventCursor, "last-event-id": eventId } },
      "POST /v1/nlu": {
        // free text is interpreted: a command the grammar does not know is SPEC's 400, so the
        // valid ones are real commands about real cards
        pools: {
          projectId: ref("project"),
          command: fc.oneof(
            fc.constant(`show ${cardRef}`),
            fc.constantFrom("low", "medium", "high", "urgent").map((p) => `set priority of ${cardRef} to ${p}`),
            fc.constantFrom("To Do", "In Progress", "Done").map((c) => `move ${cardRef} to ${c}`),
            fc.constantFrom("bug", "spare").map((l) => `add label ${l} to ${cardRef}`),
            fc.constantFrom("login", "target card", "page").map((q) => `search for ${q}`)
          )
        }
      },
      "POST /v1/intake": {
        check: async (_r, req) => {
          const key = req.headers["idempotency-key"] as string | undefined
          const before = key !== undefined && usedIdempotencyKeys.has(key)
          if (key !== undefined) usedIdempotencyKeys.add(key)
          // a repeated Idempotency-Key files nothing new; every other 201 filed one card
          const filed = (await intakeCards(ids.intakeTokenId!)) - intakeCount
          intakeCount += filed
          expect(filed).toBe(before ? 0 : 1)
        }
      },
      "POST /v1/intake-tokens": {
        pools: { columnId: columns },
        check: async (r) => {
          const { token: _token, ...listed } = r.body
          expect(await must("GET", `/v1/projects/${ids.project}/intake-tokens`, undefined, 200)).toContainEqual(listed)
        }
      },
      "GET /v1/projects/{projectId}/intake-tokens": { pools: project },
      "DELETE /v1/intake-tokens/{id}": {
        setup: async () => {
          const t = await must("POST", "/v1/intake-tokens", { columnId: ids.col0 }, 201)
          return { fresh: t.id, freshToken: t.token }
        },
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          const listed = (await must("GET", `/v1/projects/${ids.project}/intake-tokens`, undefined, 200)).find(
            (t: any) => t.id === req.params.id
          )
          expect(listed?.revokedAt).toEqual(expect.any(String))
          expect(
            (
              await call(base, "POST", "/v1/intake", {
                body: { title: "after revoke" },
                headers: { "x-intake-key": runIds.freshToken! }
              })
            ).status
          ).toBe(401)
        }
      },
      "POST /v1/webhooks": {
        pools: { ...project, workspaceId: ref("workspace"), url: hookUrl, events: hookEvents },
        check: async (r) => {
          const { secret, ...shown } = r.body
          expect(secret).toMatch(/^whsec_/)
          expect(await must("GET", `/v1/webhooks/${r.body.id}`, undefined, 200)).toEqual(shown)
        },
        teardown: async (r) => dropWebhook(r.status === 201 ? r.body.id : undefined)
      },
      "GET /v1/webhooks": { pools: { ...project, workspaceId: ref("workspace") } },
      "GET /v1/webhooks/{id}": { pools: { id: ref("webhook") } },
      "PATCH /v1/webhooks/{id}": {
        pools: { id: ref("webhook"), url: hookUrl, events: hookEvents },
        check: async (r) => expect(await must("GET", `/v1/webhooks/${r.body.id}`, undefined, 200)).toEqual(r.body)
      },
      "DELETE /v1/webhooks/{id}": {
        setup: async () => ({
          freshWebhook: (
            await must("POST", "/v1/webhooks", { url: HOOK_URL, projectId: ids.project, events: ["*"] }, 201)
          ).id
        }),
        pools: { id: ref("freshWebhook") },
        check: async (_r, req) =>
          expect((await call(base, "GET", `/v1/webhooks/${req.params.id}`, { headers: h() })).status).toBe(404),
        // a refused DELETE leaves the fresh webhook
        teardown: async (_r, runIds) => dropWebhook(runIds.freshWebhook)
      },
      "GET /v1/webhooks/{id}/deliveries": { pools: { id: ref("webhook") } },
      "POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        pools: { id: ref("webhook"), deliveryId: ref("delivery") }
      },
      "POST /v1/webhooks/{id}/ping": { pools: { id: ref("webhook") } },
      // claims and agent sessions (issue 19): a fresh card, or a fresh session on one, per run
      "POST /v1/cards/{id}/claim": {
        setup: async () => ({ fresh: await newCard(ids.col0!, "to claim") }),
        // leases outlive the suite: the sweep expiring one mid-run would change rows under the change log
        pools: { id: ref("fresh"), ttlSeconds: longLease },
        check: async (r, req) => expect((await getCard(req.params.id as string)).body.claim?.sessionId).toBe(r.body.id)
      },
      "POST /v1/projects/{projectId}/claim-next": {
        pools: { ...project, columnId: columns, labelIds: fc.constant([]), ttlSeconds: longLease },
        check: async (r) => {
          if (r.status === 201) expect((await getCard(r.body.card.id)).body.claim?.sessionId).toBe(r.body.session.id)
        }
      },
      "POST /v1/agent-sessions/{id}/heartbeat": {
        setup: freshSession,
        credentials: ["apiKey"],
        pools: { id: ref("session") }
      },
      "POST /v1/agent-sessions/{id}/activities": {
        setup: freshSession,
        credentials: ["apiKey"],
        pools: { id: ref("session") },
        check: async (r, req) =>
          expect((await must("GET", `/v1/agent-sessions/${req.params.id}`, undefined, 200)).activities).toContainEqual(
            r.body
          )
      },
      "POST /v1/agent-sessions/{id}/release": {
        setup: freshSession,
        credentials: ["apiKey"],
        pools: { id: ref("session"), moveTo: columns },
        check: async (r) => expect((await getCard(r.body.cardId)).body.claim).toBeNull()
      },
      "GET /v1/agent-sessions/{id}": { setup: freshSession, pools: { id: ref("session") } },
      "GET /v1/cards/{id}/agent-sessions": { pools: { id: ref("card") } },
      "GET /v1/projects/{projectId}/agent-sessions": { pools: project },
      "GET /v1/api-keys": {
        check: async (r) => expect(r.body.filter((k: any) => k.current).length).toBeLessThanOrEqual(1)
      },
      "DELETE /v1/api-keys/{id}": {
        setup: async () => {
          const fresh = await must("POST", "/v1/api-keys", { name: "to be revoked" }, 201)
          return { freshKeyId: fresh.id, freshKey: fresh.rawKey }
        },
        pools: { id: ref("freshKeyId") },
        check: async (_r, req) => {
          expect((await must("GET", "/v1/api-keys", undefined, 200)).map((k: any) => k.id)).not.toContain(req.params.id)
          expect((await call(base, "DELETE", `/v1/api-keys/${req.params.id}`, { headers: h() })).status).toBe(404)
          expect((await call(base, "GET", "/v1/workspaces", { headers: key(runIds.freshKey!) })).status).toBe(401)
        }
      },
      "GET /v1/oauth/grants": {},
      "DELETE /v1/oauth/grants/{id}": {
        setup: async () => {
          const flow = await fullFlow(base, A, [ids.workspace!])
          const grants = await must("GET", "/v1/oauth/grants", undefined, 200)
          return {
            fresh: grants.find((g: any) => g.clientId === flow.client.client_id).id,
            freshAccess: flow.tokens.access_token
          }
        },
        pools: { id: ref("fresh") },
        check: async (_r, req) => {
          expect((await must("GET", "/v1/oauth/grants", undefined, 200)).map((g: any) => g.id)).not.toContain(
            req.params.id
          )
          expect((await call(base, "DELETE", `/v1/oauth/grants/${req.params.id}`, { headers: h() })).status).toBe(404)
          expect(
            (await call(base, "GET", "/v1/workspaces", { headers: { authorization: `Bearer ${runIds.freshAccess}` } }))
              .status
          ).toBe(401)
        }
      },
      "GET /v1/desktop/releases/latest": {
        pools: { platform: fc.constant("darwin-arm64") },
        invalidStatus: { platform: 404 }
      },
      "GET /v1/desktop/download": {
        pools: { platform: fc.constant("darwin-arm64") },
        invalidStatus: { platform: 404 },
        check: async (r) => {
          if (r.status === 302) expect(r.headers.get("location")).toMatch(/^https?:\/\//)
        }
      },
      "GET /v1/desktop/updates/{platform}/latest-mac.yml": {
        pools: { platform: fc.constant("darwin-arm64") },
        invalidStatus: { platform: 404 },
        check: async (r) => expect(r.headers.get("location")).toMatch(/^https?:\/\//)
      },
      "GET /v1/desktop/updates/{platform}/{version}/{artifact}": {
        pools: {
          platform: fc.constant("darwin-arm64"),
          version: fc.constant("1.2.3"),
          artifact: fc.constantFrom(
            "Board-1.2.3-arm64-mac.zip",
            "Board 1.2.3-arm64.dmg",
            "Board-1.2.3-arm64-mac.zip.blockmap"
          )
        },
        invalidStatus: { platform: 404, version: 404, artifact: 404 },
        check: async (r) => expect(r.headers.get("location")).toMatch(/^https?:\/\//)
      }
    }
  }

  let intakeCount = 0
  /** The webhook secret of the repository the forge-hooks case signs for. */
  let repositorySecret = ""
  /** The ids of the run in progress (shared fixture and the run's fresh resources). */
  let runIds: Record<string, string> = {}
  let table: Record<string, Case> = {}

  beforeAll(async () => {
    // webhooks go only to a closed local port (HOOK_URL): nothing generated leaves the machine
    server = await startServer(backend, { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_ALLOW_HTTP: "true" })
    base = server.baseUrl
    doc = await loadDocument(base)
    v = makeValidators(doc)
    ops = new Map(operationsOf(doc).map((o) => [o.key, o]))
    A = await bootstrap(base, "generated")
    B = await bootstrap(base, "peer")
    ids.workspace = A.workspaceId
    ids.project = A.projectId
    for (const [i, c] of A.columns.entries()) ids[`col${i}`] = c.id
    ids.card = await newCard(ids.col0!, "Fix the login page")
    ids.target = await newCard(ids.col0!, "Target card")
    ids.third = await newCard(ids.col1!, "Third card")
    cardRef = (await getCard(ids.card)).body.ref
    ids.label = (await must("POST", "/v1/labels", { projectId: ids.project, name: "bug", color: "#ff0000" }, 201)).id
    ids.spareLabel = (await must("POST", "/v1/labels", { projectId: ids.project, name: "spare" }, 201)).id
    await must("POST", `/v1/cards/${ids.card}/labels`, { labelId: ids.label }, 200)
    ids.subtask = (await must("POST", "/v1/subtasks", { cardId: ids.card, title: "write tests" }, 201)).id
    ids.comment = (await must("POST", `/v1/cards/${ids.card}/comments`, { body: "first thoughts" }, 201)).id
    ids.link = (await must("POST", `/v1/cards/${ids.card}/links`, { targetId: ids.target, linkType: "blocks" }, 201)).id
    ids.spareColumn = (await must("POST", "/v1/columns", { projectId: ids.project, name: "Parked" }, 201)).id
    ids.projectLink = (
      await must(
        "POST",
        `/v1/projects/${ids.project}/links`,
        { url: "https://docs.example.com/login", title: "Login guide" },
        201
      )
    ).link.id
    ids.webhook = (await must("POST", "/v1/webhooks", { url: HOOK_URL, projectId: ids.project, events: ["*"] }, 201)).id
    ids.delivery = (await must("POST", `/v1/webhooks/${ids.webhook}/ping`, undefined, 202)).id
    const minted = await must("POST", "/v1/intake-tokens", { columnId: ids.col0 }, 201)
    ids.intakeTokenId = minted.id
    ids.agent = (await must("POST", `/v1/workspaces/${A.workspaceId}/agents`, { name: "Claude" }, 201)).id
    {
      const connected = await must(
        "POST",
        `/v1/projects/${ids.project}/repositories`,
        { provider: "github", name: "acme/hostile-hooks" },
        201
      )
      ids.repository = connected.id
      repositorySecret = connected.webhookSecret
    }
    intakeToken = minted.token
    oauthToken = (await fullFlow(base, A, [A.workspaceId])).tokens.access_token
    // one desktop release, published in process, for the manifest, the download and the feed
    root = fs.mkdtempSync(path.join(os.tmpdir(), "board-generated-"))
    const build = makeBuild(root, "1.2.3", 64 * 1024)
    await server.run(
      Effect.gen(function* () {
        const blobs = yield* Blobs
        return yield* publishRelease(blobs, {
          platform: "darwin-arm64",
          version: "1.2.3",
          notes: "First",
          files: [build.zip, build.dmg, build.blockmap]
        })
      })
    )
    table = cases()
    changes = await watchChanges(server)
  })
  afterAll(async () => {
    await server?.stop()
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true })
  })

  it("has a case and a status row for every operation of the document, and no others", () => {
    const documented = [...ops.keys()].sort()
    expect(documented.length).toBeGreaterThan(40)
    expect(Object.keys(table).sort()).toEqual(documented)
    expect([...tabledOperations()].sort()).toEqual(documented)
  })

  const eachOperation = (
    kind: string,
    body: (o: DocOperation, c: Case, index: number) => Promise<void>,
    timeout: number
  ) =>
    it(
      `${kind} on every operation`,
      async () => {
        const failures: Array<string> = []
        let index = 0
        for (const [k, o] of ops) {
          try {
            await body(o, table[k]!, index++)
          } catch (e) {
            failures.push(`${k}: ${e instanceof Error ? e.message : String(e)}`)
          }
        }
        expect(failures, failures.join("\n\n")).toEqual([])
      },
      timeout
    )

  /** Runs a property; a failure reads as the check that failed, with the seed and path that replay it. */
  const holds = async <T>(property: fc.IAsyncPropertyWithHooks<T>, params: fc.Parameters<T>) => {
    const details = await fc.check(property, params)
    if (details.failed) {
      const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
      throw new Error(
        `${why.slice(0, 1500)}\n  (after ${details.numRuns} runs; replay with seed ${details.seed}, path "${details.counterexamplePath}")`
      )
    }
  }

  describe("defects these requests found, each pinned", () => {
    const expectError = (r: Reply, status: number) => {
      expect(r.status, r.text).toBe(status)
      expect(r.body).toEqual({ error: expect.any(String) })
    }

    it("a template named like an Object.prototype member is an unknown template (400), not a 500", async () => {
      for (const template of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
        expectError(
          await call(base, "POST", "/v1/projects", {
            body: { workspaceId: ids.workspace, name: "P", template },
            headers: h()
          }),
          400
        )
        // the core itself, as MCP or the CLI would reach it
        const principal: Principal = { userId: A.userId, via: "apiKey", workspaces: "all" }
        const refused = await server.run(
          Effect.gen(function* () {
            return yield* (yield* Workspaces).createProject(principal, {
              workspaceId: ids.workspace!,
              name: "P",
              template
            })
          }).pipe(Effect.flip)
        )
        expect(refused._tag).toBe("InvalidInput")
      }
    })

    it("text limits count code points, as the document's maxLength does: 500 emoji are a 500-character title", async () => {
      const body = {
        projectId: ids.project,
        columnId: ids.col2,
        title: "😀".repeat(500),
        description: "𝔘".repeat(10_000)
      }
      const created = await call(base, "POST", "/v1/cards", { body, headers: h() })
      expect(created.status, created.text).toBe(201)
      expect(created.body.title).toBe(body.title)
      expectError(
        await call(base, "POST", "/v1/cards", { body: { ...body, title: "😀".repeat(501) }, headers: h() }),
        400
      )
      const tags = ["🏷".repeat(50)]
      const link = await call(base, "POST", `/v1/projects/${ids.project}/links`, {
        body: { url: "https://example.net/emoji", title: "é".repeat(200), tags },
        headers: h()
      })
      expect(link.status, link.text).toBe(201)
      expectError(
        await call(base, "POST", `/v1/projects/${ids.project}/links`, {
          body: { url: "https://example.net/e2", tags: ["🏷".repeat(51)] },
          headers: h()
        }),
        400
      )
    })

    it("a path id longer than 100 characters is a malformed id (400), not an unknown endpoint (404)", async () => {
      for (const id of ["a".repeat(101), "a".repeat(5000)]) {
        const r = await call(base, "GET", `/v1/cards/${id}`, { headers: h() })
        expectError(r, 400)
        expect(r.body.error).toMatch(/UUID/)
      }
    })

    it("query integers are digits within their range; other spellings are 400", async () => {
      for (const q of [
        "limit=1e2",
        "limit=%205",
        "limit=5.0",
        "offset=1e3",
        "offset=-0",
        "offset=0x10",
        "limit=501",
        "offset=100000000000000000000"
      ]) {
        expectError(await call(base, "GET", `/v1/projects/${ids.project}/links?${q}`, { headers: h() }), 400)
      }
      expectError(await call(base, "GET", "/v1/search?q=x&limit=1e2", { headers: h() }), 400)
      const ok = await call(base, "GET", `/v1/projects/${ids.project}/links?limit=0500&offset=0`, { headers: h() })
      expect(ok.status, ok.text).toBe(200)
      expect(ok.body.limit).toBe(500)
    })

    it("a malformed email is a malformed request when adding a member (400), not an unknown account (404)", async () => {
      for (const email of ["no-at-sign", "a@b", "@example.com"]) {
        expectError(
          await call(base, "POST", `/v1/workspaces/${ids.workspace}/members`, { body: { email }, headers: h() }),
          400
        )
      }
      expectError(
        await call(base, "POST", `/v1/workspaces/${ids.workspace}/members`, {
          body: { email: "nobody-here@example.com" },
          headers: h()
        }),
        404
      )
    })

    it("a password signup accepts (NUL included) also logs in", async () => {
      const email = `nul-${Date.now()}@example.com`
      const password = "pass\u0000word 123"
      const signup = await call(base, "POST", "/v1/auth/signup", { body: { email, password, full_name: "Nul" } })
      expect(signup.status, signup.text).toBe(201)
      const login = await call(base, "POST", "/v1/auth/login", { body: { email, password } })
      expect(login.status, login.text).toBe(200)
      expect(login.body.user.id).toBe(signup.body.user.id)
    })

    it("the document states what the server checks", async () => {
      const cardBody = (await getCard(ids.card!)).body
      const body = (key: string) => bodySchema(ops.get(key)!)!
      const param = (key: string, name: string) =>
        deref(ops.get(key)!.op.parameters!.find((p) => p.name === name)!.schema)
      const accepts = (schema: JsonSchema, value: unknown) => v.validate(schema, value).ok
      const title = body("POST /v1/cards").properties!.title!
      expect([
        accepts(title, "ok"),
        accepts(title, "   "),
        accepts(title, "a\u0000b"),
        accepts(title, "😀".repeat(500))
      ]).toEqual([true, false, false, true])
      expect(accepts(body("POST /v1/labels").properties!.color!, "red")).toBe(false)
      expect(accepts(body("POST /v1/projects/{projectId}/links").properties!.url!, "ftp://example.com/x")).toBe(false)
      expect(accepts(body("POST /v1/projects").properties!.template!, "scrum")).toBe(false)
      expect(accepts(body("POST /v1/auth/signup").properties!.password!, "short")).toBe(false)
      expect(accepts(body("POST /v1/auth/signup").properties!.email!, "no-at-sign")).toBe(false)
      expect(accepts(body("POST /v1/intake-tokens").properties!.expiresAt!, "tomorrow")).toBe(false)
      expect(accepts(body("POST /v1/nlu").properties!.command!, "x".repeat(1001))).toBe(false)
      expect(accepts(body("PATCH /v1/projects/{projectId}/links/{linkId}"), { reason: "why" })).toBe(false)
      expect(param("GET /v1/projects/{projectId}/links", "limit")).toEqual({
        type: "integer",
        minimum: 1,
        maximum: 500
      })
      expect(param("GET /v1/search", "q").pattern).toBe("\\S")
      const feedFile = "GET /v1/desktop/updates/{platform}/{version}/{artifact}"
      expect(accepts(param(feedFile, "artifact"), "notes.txt")).toBe(false)
      expect(accepts(param(feedFile, "version"), "v1.2.3")).toBe(false)
      // and what its answers hold: ids are uuids, times date-times (checked on every success above)
      const card = v.responseSchema(ops.get("GET /v1/cards/{id}")!.op, 200)!
      expect(accepts(card, { ...cardBody, id: "WEB-1" })).toBe(false)
      expect(accepts(card, { ...cardBody, createdAt: "yesterday" })).toBe(false)
      expect(accepts(card, cardBody)).toBe(true)
    })
  })

  eachOperation(
    "the owner's valid requests are accepted, match the document and read back",
    async (o, c, index) => {
      await holds(
        fc.asyncProperty(validRequest(o, c), async (generated) => {
          runIds = { ...ids, ...(await c.setup?.()) }
          const resolved = resolveReq(generated, runIds)
          expectValidByDocument(o, resolved)
          const req = c.prepare?.(resolved) ?? resolved
          const r = await send(o, req)
          const label = `${o.key} (request ${JSON.stringify({ ...req, body: req.body.kind === "json" ? req.body.value : req.body.kind }).slice(0, 400)})`
          expectDocumented(o, r, label)
          expect(
            r.status >= 200 && r.status < 400,
            `valid request refused: ${o.key} → ${r.status} ${r.text.slice(0, 300)}\n  ${label}`
          ).toBe(true)
          await c.check?.(r, req, runIds)
          await c.teardown?.(r, runIds)
        }),
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true }
      )
    },
    600_000
  )

  eachOperation(
    "every credential the operation does not document, in every header, is refused and changes nothing",
    async (o, c, index) => {
      const documented = credentialsOf(o)
      if (documented.includes("none")) return
      const wrong = placements.filter((p) => !(documented.includes(p.kind) && documentedHeader[p.kind] === p.header))
      const samples = fc.sample(validRequest(o, c), { seed: SEED + index, numRuns: wrong.length })
      for (const [i, p] of wrong.entries()) {
        runIds = { ...ids, ...(await c.setup?.()) }
        const req = { ...resolveReq(samples[i]!, runIds), credential: `${p.kind} in ${p.header}` }
        await changes.mark()
        const r = await send(o, req)
        const label = `${o.key} with the ${p.kind} credential in ${p.header}`
        expectDocumented(o, r, label)
        expect([401, 403], `${label} answered ${r.status} ${r.text.slice(0, 300)}`).toContain(r.status)
        const changed = await changes.changed()
        expect(changed, `${label} changed ${changed.join(", ")}`).toEqual([])
        await c.teardown?.(r, runIds)
      }
    },
    600_000
  )

  eachOperation(
    "invalid requests are refused with SPEC's status and change nothing",
    async (o, c, index) => {
      if (c.ownRefusals !== undefined) return
      const mutations = mutationsOf(o, c)
      if (mutations.length === 0) return
      await holds(
        fc.asyncProperty(validRequest(o, c), fc.constantFrom(...mutations), async (generated, mutation) => {
          runIds = { ...ids, ...(await c.setup?.()) }
          const req = mutation.apply(resolveReq(generated, runIds))
          await changes.mark()
          const r = await send(o, req)
          const label = `${o.key} with ${mutation.label}`
          expectDocumented(o, r, label)
          expect(r.status, `invalid request answered ${r.status} ${r.text.slice(0, 300)}\n  ${label}`).toBe(
            mutation.status
          )
          const changed = await changes.changed()
          expect(changed, `${label} changed ${changed.join(", ")}`).toEqual([])
          await c.teardown?.(r, runIds)
        }),
        { seed: SEED + index, numRuns: Math.max(RUNS, Math.min(mutations.length, 3 * RUNS)), endOnFailure: true }
      )
    },
    600_000
  )
})
