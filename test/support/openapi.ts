/**
 * The server's own OpenAPI document as a test oracle: its operations, JSON Schema validators for
 * every request and response schema in it (ajv, draft 2020-12, `$ref`s into `components`
 * resolved), and the table of statuses SPEC.md allows each operation (issue 9, part 1).
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import type { ValidateFunction } from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import { call } from "./client.ts"

export interface JsonSchema {
  readonly type?: string | ReadonlyArray<string>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly dependentRequired?: Readonly<Record<string, ReadonlyArray<string>>>
  readonly additionalProperties?: boolean | JsonSchema
  readonly items?: JsonSchema
  readonly minItems?: number
  readonly maxItems?: number
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly format?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly const?: unknown
  readonly minimum?: number
  readonly maximum?: number
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly oneOf?: ReadonlyArray<JsonSchema>
  readonly allOf?: ReadonlyArray<JsonSchema>
  readonly $ref?: string
  readonly description?: string
}

export interface Parameter {
  readonly name: string
  readonly in: "path" | "query" | "header"
  readonly required?: boolean
  readonly schema: JsonSchema
}

export interface Operation {
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: {
    readonly required?: boolean
    readonly content: Record<string, { readonly schema: JsonSchema }>
  }
  readonly responses: Record<string, { readonly content?: Record<string, { readonly schema: JsonSchema }> }>
  readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
}

export interface Document {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, JsonSchema> }
}

export interface DocOperation {
  /** `METHOD /path`, the path as in the document (`/v1/cards/{id}`). */
  readonly key: string
  readonly method: string
  readonly path: string
  readonly op: Operation
}

export const loadDocument = async (baseUrl: string): Promise<Document> => {
  const r = await call(baseUrl, "GET", "/v1/openapi.json")
  if (r.status !== 200) throw new Error(`GET /v1/openapi.json answered ${r.status}`)
  return r.body as Document
}

export const operationsOf = (doc: Document): Array<DocOperation> =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      op
    }))
  )

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020
) => Ajv2020

const DOC_ID = "https://board.test/openapi.json"

/** The document's schemas as one JSON Schema resource: components under `$defs`. */
const rebase = (schema: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`))

export interface Validators {
  /** Validates `value` against a schema of the document (a request or response schema, or part of one). */
  readonly validate: (schema: JsonSchema, value: unknown) => { ok: boolean; errors: string }
  /** The schema of `status`'s JSON body for an operation, undefined when the document gives none. */
  readonly responseSchema: (op: Operation, status: number) => JsonSchema | undefined
}

export const makeValidators = (doc: Document): Validators => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, validateFormats: true })
  addFormats(ajv)
  // OpenAPI's own annotation keyword, harmless to validation
  ajv.addKeyword({ keyword: "example" })
  ajv.addSchema({ $id: DOC_ID, $defs: rebase(doc.components.schemas as JsonSchema) as Record<string, unknown> })
  const compiled = new Map<string, ValidateFunction>()
  const validate = (schema: JsonSchema, value: unknown) => {
    const source = JSON.stringify(rebase(schema))
    let fn = compiled.get(source)
    if (fn === undefined) {
      fn = ajv.compile(JSON.parse(source))
      compiled.set(source, fn)
    }
    const ok = fn(value) as boolean
    return { ok, errors: ok ? "" : ajv.errorsText(fn.errors, { separator: "; " }) }
  }
  const responseSchema = (op: Operation, status: number) =>
    op.responses[String(status)]?.content?.["application/json"]?.schema
  return { validate, responseSchema }
}

/**
 * The statuses each operation may answer: SPEC.md's Endpoints tables as written (CONTRACT.md's
 * for the endpoints beyond SPEC.md, README.md's for the success statuses SPEC.md leaves open),
 * plus what SPEC.md's Errors and Limits sections give every operation of a kind:
 *   - 400 (malformed request or missing required field) on every operation that takes input;
 *   - 401 (no or invalid credential) and 429 (rate limit, "all credentialed endpoints") on every
 *     credentialed operation, and 429 on signup and login (per-client limit);
 *   - 403 (a valid credential that does not reach this: an OAuth grant not covering the workspace)
 *     on every credentialed operation but intake, whose every refusal is one 401;
 *   - 404 (no such resource, or the credential cannot see it) on every operation that names a
 *     resource by id, in its path or its body.
 * and two README.md choices: 409 for deleting a column that still holds cards, 409 for a label
 * name already used in the project.
 */
const SPEC_STATUSES: Readonly<Record<string, ReadonlyArray<number>>> = {
  "GET /v1": [200],
  "GET /v1/health": [200],
  "POST /v1/intake": [201, 400, 401, 429],
  "GET /v1/workspaces": [200, 401, 429],
  "GET /v1/workspaces/{id}/projects": [200, 401, 403, 404, 429],
  "GET /v1/workspaces/{id}/members": [200, 401, 403, 404, 429],
  "GET /v1/board/{projectId}": [200, 401, 403, 404, 429],
  "POST /v1/cards": [201, 400, 401, 403, 404, 429],
  "GET /v1/cards/{id}": [200, 401, 403, 404, 429],
  "PATCH /v1/cards/{id}": [200, 400, 401, 403, 404, 429],
  "DELETE /v1/cards/{id}": [204, 401, 403, 404, 429],
  "POST /v1/cards/{id}/move": [200, 400, 401, 403, 404, 429],
  "POST /v1/cards/{id}/archive": [200, 401, 403, 404, 409, 429],
  "POST /v1/cards/{id}/restore": [200, 401, 403, 404, 409, 429],
  // CONTRACT.md "From card to shipped change" (issue 31)
  "POST /v1/projects/{id}/repositories": [201, 400, 401, 403, 404, 409, 429],
  "GET /v1/projects/{id}/repositories": [200, 401, 403, 404, 429],
  "DELETE /v1/repositories/{id}": [204, 401, 403, 404, 409, 429],
  "GET /v1/cards/{id}/pull-requests": [200, 401, 403, 404, 429],
  "POST /v1/projects/{id}/deployments": [201, 400, 401, 403, 404, 409, 429],
  // the forge's signature is its credential (no key, so no 403): docs/forges.md
  "POST /v1/forge-hooks/{repositoryId}": [202, 400, 401, 404, 413, 429],
  "GET /v1/search": [200, 400, 401, 429],
  "POST /v1/columns": [201, 400, 401, 403],
  "PATCH /v1/columns/{id}": [200, 401, 404],
  "DELETE /v1/columns/{id}": [204, 401, 404, /* README */ 409],
  "POST /v1/labels": [201, 400, 401, /* README */ 409],
  "POST /v1/cards/{id}/labels": [200, 400, 401, 404],
  "DELETE /v1/cards/{id}/labels/{labelId}": [204, 401, 404],
  "POST /v1/subtasks": [201, 400, 401],
  "POST /v1/subtasks/{id}/toggle": [200, 401, 404],
  "DELETE /v1/subtasks/{id}": [204, 401, 404],
  "GET /v1/cards/{id}/links": [200, 401, 404],
  "POST /v1/cards/{id}/links": [201, 400, 401, 404],
  "DELETE /v1/links/{id}": [204, 401, 404],
  "GET /v1/projects/{projectId}/links": [200, 400, 401, 404],
  "POST /v1/projects/{projectId}/links": [200, 201, 400, 401, 404],
  "PATCH /v1/projects/{projectId}/links/{linkId}": [200, 400, 401, 404],
  "DELETE /v1/projects/{projectId}/links/{linkId}": [200, 401, 404],
  "POST /v1/projects/{projectId}/links/{linkId}/evaluate": [200, 401, 404],
  "GET /v1/cards/{id}/prompt": [200, 401, 404],
  // CONTRACT.md, "Events, history, live stream and webhooks"
  "GET /v1/projects/{projectId}/events": [200, 400, 401, 403, 404, 429],
  "GET /v1/cards/{id}/history": [200, 400, 401, 403, 404, 429],
  "GET /v1/projects/{projectId}/events/stream": [200, 400, 401, 403, 404, 429],
  "POST /v1/nlu": [200, 400, 401, 429],
  "GET /v1/desktop/releases/latest": [200, 401, 404, 429],
  "GET /v1/desktop/download": [200, 302, 401, 404, 429],
  "GET /v1/desktop/updates/{platform}/latest-mac.yml": [302, 401, 404, 429],
  "GET /v1/desktop/updates/{platform}/{version}/{artifact}": [302, 401, 404, 429],
  // SPEC.md gives these bodies but no success status: 201 is README.md's
  // 404 and 403: an invitation that does not work, or names another email (CONTRACT.md "Teams")
  "POST /v1/auth/signup": [201, 403, 404, 409, 429],
  "POST /v1/workspaces": [201],
  "POST /v1/projects": [201],
  "POST /v1/api-keys": [201],
  // CONTRACT.md's endpoints beyond SPEC.md
  "POST /v1/auth/login": [200, 401, 429],
  "POST /v1/intake-tokens": [201],
  "GET /v1/projects/{projectId}/intake-tokens": [200],
  "DELETE /v1/intake-tokens/{id}": [204],
  "POST /v1/workspaces/{id}/members": [201, 404, 409],
  "PATCH /v1/workspaces/{id}/members/{userId}": [200, 404, 409],
  "DELETE /v1/workspaces/{id}/members/{userId}": [204, 404, 409],
  // CONTRACT.md "Teams": workspaces and projects (issue 30); 403 names the role a caller lacks
  "PATCH /v1/workspaces/{id}": [200, 403, 404],
  "DELETE /v1/workspaces/{id}": [204, 403, 404],
  "GET /v1/projects/{id}": [200, 403, 404],
  "PATCH /v1/projects/{id}": [200, 403, 404],
  "DELETE /v1/projects/{id}": [204, 403, 404],
  "POST /v1/webhooks": [201, 404],
  "GET /v1/webhooks": [200, 404],
  "GET /v1/webhooks/{id}": [200, 404],
  "PATCH /v1/webhooks/{id}": [200, 404],
  "DELETE /v1/webhooks/{id}": [204, 404],
  "GET /v1/webhooks/{id}/deliveries": [200, 404],
  "POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry": [202, 404],
  "POST /v1/webhooks/{id}/ping": [202, 404],
  // README.md: the user's OAuth grants
  "GET /v1/oauth/grants": [200],
  "DELETE /v1/oauth/grants/{id}": [204, 404],
  // README.md: who a credential acts for
  "GET /v1/me": [200, 404],
  // README.md, docs/web.md: the web app's sign out (400 for any other credential)
  "POST /v1/auth/logout": [204, 400],
  "GET /v1/auth/providers": [200, 429],
  // README.md: the user's API keys
  "GET /v1/api-keys": [200],
  "DELETE /v1/api-keys/{id}": [204, 404],
  // CONTRACT.md: comments on cards (issue 19); only the author edits or deletes (else 403)
  "POST /v1/cards/{id}/comments": [201, 400, 401, 403, 404, 429],
  "GET /v1/cards/{id}/comments": [200, 400, 401, 403, 404, 429],
  "PATCH /v1/comments/{id}": [200, 400, 401, 403, 404, 429],
  "DELETE /v1/comments/{id}": [204, 401, 403, 404, 429],
  // CONTRACT.md's claims, agent sessions and work queue (issue 19)
  "POST /v1/cards/{id}/claim": [200, 201, 404, 409],
  "POST /v1/projects/{projectId}/claim-next": [201, 204, 404],
  "POST /v1/agent-sessions/{id}/heartbeat": [200, 404, 409],
  "POST /v1/agent-sessions/{id}/activities": [201, 404, 409],
  "POST /v1/agent-sessions/{id}/release": [200, 404, 409],
  "GET /v1/agent-sessions/{id}": [200, 404],
  "GET /v1/cards/{id}/agent-sessions": [200, 404],
  "GET /v1/projects/{projectId}/agent-sessions": [200, 404],
  // CONTRACT.md's agents as members (issue 30; listing and deleting go beyond it)
  "POST /v1/workspaces/{id}/agents": [201, 403, 404],
  "GET /v1/workspaces/{id}/agents": [200, 404],
  "DELETE /v1/agents/{id}": [204, 403, 404],
  "POST /v1/agents/{id}/api-keys": [201, 403, 404],
  "GET /v1/agents/{id}/api-keys": [200, 403, 404],
  "DELETE /v1/agents/{id}/api-keys/{keyId}": [204, 403, 404],
  // CONTRACT.md "Teams": invitations (`GET /v1/invitations/{id}` takes the token) and password reset
  "POST /v1/workspaces/{id}/invitations": [201, 403, 404],
  "GET /v1/workspaces/{id}/invitations": [200, 403, 404],
  "DELETE /v1/invitations/{id}": [204, 403, 404],
  "GET /v1/invitations/{id}": [200, 404, 429],
  "POST /v1/invitations/{token}/accept": [200, 403, 404, 409],
  "POST /v1/auth/password-reset": [202, 429],
  "POST /v1/auth/password-reset/confirm": [200, 404, 429]
}

const PUBLIC = new Set([
  "GET /v1",
  "GET /v1/health",
  "POST /v1/auth/signup",
  "POST /v1/auth/login",
  "GET /v1/auth/providers",
  "POST /v1/auth/password-reset",
  "POST /v1/auth/password-reset/confirm",
  "GET /v1/invitations/{id}"
])

const namesResource = (op: Operation): boolean => {
  const uuid = (s: JsonSchema | undefined) => s?.format === "uuid"
  if ((op.parameters ?? []).some((p) => p.in === "path" && uuid(p.schema))) return true
  const body = op.requestBody?.content["application/json"]?.schema
  return Object.values(body?.properties ?? {}).some(uuid)
}

/** The statuses `operation` may answer (see SPEC_STATUSES); throws for an operation the table lacks. */
export const allowedStatuses = (o: DocOperation): ReadonlySet<number> => {
  const spec = SPEC_STATUSES[o.key]
  if (spec === undefined) throw new Error(`no status table row for ${o.key}: add SPEC.md's statuses for it`)
  const allowed = new Set(spec)
  const takesInput = (o.op.parameters ?? []).length > 0 || o.op.requestBody !== undefined
  if (takesInput) allowed.add(400)
  if (!PUBLIC.has(o.key)) {
    allowed.add(401)
    allowed.add(429)
    if (o.key !== "POST /v1/intake") allowed.add(403)
  }
  if (o.key === "POST /v1/auth/signup" || o.key === "POST /v1/auth/login") allowed.add(429)
  if (namesResource(o.op)) allowed.add(404)
  return allowed
}

export const tabledOperations = (): ReadonlyArray<string> => Object.keys(SPEC_STATUSES)
