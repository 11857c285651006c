/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP
 * 2025-11-25 authorization spec's preferred registration; issue 33): a `client_id` that is an
 * https URL names a JSON document of the client's metadata, which the authorization server
 * fetches. Fetched under the webhook address rules (webhooks/urlPolicy.ts): https only, a host
 * that is or resolves to public addresses only (WEBHOOK_ALLOW_PRIVATE lifts that), the
 * connection made to the very address checked, no redirects followed, at most DOCUMENT_CAP
 * bytes, within DOCUMENT_TIMEOUT_MS. The TLS certificate is checked against Node's trust store
 * (NODE_EXTRA_CA_CERTS adds a CA, e.g. an intranet's or a test's).
 */
import { https } from "../infra/nodeHttp.ts"
import { pinHost, type Resolver, urlShapeFailure } from "../webhooks/urlPolicy.ts"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { sqlNow } from "../infra/clock.ts"
import { type RegistrationResult, validateRegistration } from "./clientMetadata.ts"
import { type ClientRow, fail } from "./oauthTypes.ts"

/** The draft's advice: servers should not accept larger documents. */
export const DOCUMENT_CAP = 5 * 1024
export const DOCUMENT_TIMEOUT_MS = 5_000
/** How long a document is kept without a Cache-Control max-age. */
export const DEFAULT_CACHE_MS = 10 * 60_000
/** The longest a document is kept, whatever its max-age says. */
export const MAX_CACHE_MS = 24 * 60 * 60_000

/**
 * Whether `clientId` is a metadata document's URL (the draft's §3): https, a path beyond "/",
 * no fragment, no user or password, no dot segments.
 */
export const isClientIdUrl = (clientId: string): boolean => {
  if (!clientId.startsWith("https://") || clientId.length > 2000) return false
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return false
  }
  return (
    url.protocol === "https:" &&
    url.pathname !== "/" &&
    url.hash === "" &&
    !clientId.includes("#") &&
    url.username === "" &&
    url.password === "" &&
    !/\/\.\.?(\/|$)/.test(clientId.slice(clientId.indexOf("//") + 2))
  )
}

/** How long a document may be kept, from its Cache-Control (no-store, no-cache: not at all). */
export const cacheMsOf = (cacheControl: string | undefined): number => {
  if (cacheControl === undefined) return DEFAULT_CACHE_MS
  const directives = cacheControl
    .toLowerCase()
    .split(",")
    .map((d) => d.trim())
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return 0
  const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)).find((m) => m !== null)
  if (maxAge === undefined || maxAge === null) return DEFAULT_CACHE_MS
  return Math.min(Number(maxAge[1]) * 1000, MAX_CACHE_MS)
}

export type Fetched =
  | { readonly ok: true; readonly document: unknown; readonly cacheMs: number }
  | { readonly ok: false; readonly error: string }

/** The address rules' refusals, worded for a document rather than a webhook. */
const reworded = (refusal: string) => refusal.replace(/^url: /, "").replace(/webhooks go/, "documents are fetched")

/** GETs the document at `url` under the address rules; never throws. */
export const fetchClientDocument = async (
  url: string,
  settings: { readonly allowPrivate: boolean },
  resolver: Resolver
): Promise<Fetched> => {
  const failed = (error: string): Fetched => ({ ok: false, error })
  const shape = urlShapeFailure(url, { allowHttp: false, allowPrivate: settings.allowPrivate })
  if (shape !== undefined) return failed(reworded(shape))
  const target = new URL(url)
  const pin = await pinHost(target, { allowHttp: false, allowPrivate: settings.allowPrivate }, resolver)
  if (!pin.ok) return failed(pin.refused ? reworded(pin.error) : pin.error)
  const { lookup } = pin
  return new Promise<Fetched>((resolve) => {
    let settled = false
    const finish = (outcome: Fetched) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      req.destroy()
      resolve(outcome)
    }
    // the connection goes to the address checked above (the Host header and TLS name stay the URL's)
    const req = https.get(
      target,
      { headers: { accept: "application/json" }, agent: false, ...(lookup !== undefined ? { lookup } : {}) },
      (res) => {
        const status = res.statusCode ?? 0
        if (status >= 300 && status < 400) return finish(failed(`it answered ${status} (redirects are not followed)`))
        if (status !== 200) return finish(failed(`it answered ${status}`))
        const chunks: Array<Buffer> = []
        let size = 0
        res.on("data", (chunk: Buffer) => {
          size += chunk.length
          if (size > DOCUMENT_CAP) return finish(failed(`it is larger than ${DOCUMENT_CAP} bytes`))
          chunks.push(chunk)
        })
        res.on("end", () => {
          let document: unknown
          try {
            document = JSON.parse(Buffer.concat(chunks).toString("utf8"))
          } catch {
            return finish(failed("it is not JSON"))
          }
          finish({ ok: true, document, cacheMs: cacheMsOf(res.headers["cache-control"]) })
        })
        res.on("error", (e) => finish(failed(`the answer broke off (${e.message})`)))
      }
    )
    const timer = setTimeout(
      () => finish(failed(`no answer within ${DOCUMENT_TIMEOUT_MS / 1000} s`)),
      DOCUMENT_TIMEOUT_MS
    )
    req.on("error", (e: NodeJS.ErrnoException) => finish(failed(`could not fetch it: ${e.code ?? e.message}`)))
  })
}

/**
 * The registration a document makes, checked as an RFC 7591 registration is
 * (clientMetadata.ts), and more: its `client_id` is its own URL, it holds no secret, and its
 * client is public (`none`, the default): there is no secret to authenticate it with.
 */
export const documentRegistration = (url: string, document: unknown): RegistrationResult => {
  const bad = (error_description: string): RegistrationResult => ({
    ok: false,
    error: "invalid_client_metadata",
    error_description
  })
  if (document === null || typeof document !== "object" || Array.isArray(document))
    return bad("the metadata document must be a JSON object")
  const m = document as Record<string, unknown>
  if (m.client_id !== url) return bad(`client_id: the document's client_id must be its own URL, ${url}`)
  if ("client_secret" in m || "client_secret_expires_at" in m)
    return bad("a metadata document must not contain a client secret")
  const checked = validateRegistration({ ...m, token_endpoint_auth_method: m.token_endpoint_auth_method ?? "none" })
  if (checked.ok && checked.client.token_endpoint_auth_method !== "none")
    return bad("token_endpoint_auth_method: a metadata document's client is public here (none)")
  return checked
}

/**
 * A metadata document's client (OAuth.ts's `resolveClient`): its `oauth_clients` row while the
 * document's cache time lasts, else the document fetched again and its row written, shared by
 * every instance. The row's id is the URL, so codes and grants refer to it as to any client; a
 * registered client's row is never overwritten (ids of registered clients are not URLs anyway).
 */
export const makeDocumentClient = (
  sql: SqlClient.SqlClient,
  settings: { readonly allowPrivate: boolean },
  resolver: Resolver
) =>
  Effect.fnUntraced(function* (url: string) {
    const now = yield* sqlNow
    const [cached] = yield* sql<ClientRow & { fresh: boolean }>`
      SELECT id, client_name, redirect_uris, token_endpoint_auth_method, secret_digest, scope,
        document_expires_at > ${now}::timestamptz AS fresh
      FROM oauth_clients WHERE id = ${url} AND document_expires_at IS NOT NULL`.pipe(Effect.orDie)
    if (cached?.fresh === true) return cached as ClientRow
    const fetched = yield* Effect.promise(() => fetchClientDocument(url, settings, resolver))
    const unusable = (why: string) =>
      fail("invalid_client", `client_id ${url} names a client metadata document that cannot be used: ${why}`, 401)
    if (!fetched.ok) return yield* unusable(fetched.error)
    const checked = documentRegistration(url, fetched.document)
    if (!checked.ok) return yield* unusable(checked.error_description)
    const c = checked.client
    const [row] = yield* sql<ClientRow>`
      INSERT INTO oauth_clients (id, client_name, redirect_uris, grant_types, response_types, token_endpoint_auth_method, application_type, scope, secret_digest, metadata, created_at, document_expires_at)
      VALUES (${url}, ${c.client_name ?? null}, ${c.redirect_uris as Array<string>}::text[], ${c.grant_types as Array<string>}::text[],
        ${c.response_types as Array<string>}::text[], 'none', ${c.application_type ?? null}, ${c.scope}, NULL,
        ${JSON.stringify(c.extra)}::jsonb, ${now}::timestamptz,
        ${now}::timestamptz + ${`${fetched.cacheMs} milliseconds`}::interval)
      ON CONFLICT (id) DO UPDATE SET client_name = EXCLUDED.client_name, redirect_uris = EXCLUDED.redirect_uris,
        grant_types = EXCLUDED.grant_types, response_types = EXCLUDED.response_types,
        application_type = EXCLUDED.application_type, scope = EXCLUDED.scope, metadata = EXCLUDED.metadata,
        document_expires_at = EXCLUDED.document_expires_at
      WHERE oauth_clients.document_expires_at IS NOT NULL
      RETURNING id, client_name, redirect_uris, token_endpoint_auth_method, secret_digest, scope`.pipe(Effect.orDie)
    return row
  })
