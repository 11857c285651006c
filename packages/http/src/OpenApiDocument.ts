/**
 * The OpenAPI 3.1 document of the whole API, generated from the contract, with the credential
 * schemes each endpoint accepts, and a plain HTML rendering of it for people.
 */
import { OpenApi } from "effect/http-api"
import { Api } from "./Api.ts"
import { escapeHtml } from "./html.ts"
import { AnyUserAuth, BootstrapAuth, IntakeAuth, UserAuth } from "./middleware/Authentication.ts"

const schemes = {
  apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "API key (prefix svc_)." },
  oauth: { type: "http", scheme: "bearer", description: "OAuth 2.1 access token (prefix svc_at_), scope mcp." },
  session: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Session token from signup or login; account bootstrap only."
  },
  intake: {
    type: "apiKey",
    in: "header",
    name: "X-Intake-Key",
    description: "Intake token (prefix svc_in_); POST /v1/intake only."
  }
} as const

const securityFor = (middlewares: ReadonlySet<unknown>): Array<Record<string, Array<string>>> | undefined => {
  if (middlewares.has(IntakeAuth)) return [{ intake: [] }]
  if (middlewares.has(UserAuth)) return [{ apiKey: [] }, { oauth: [] }]
  if (middlewares.has(BootstrapAuth)) return [{ session: [] }, { apiKey: [] }]
  if (middlewares.has(AnyUserAuth)) return [{ apiKey: [] }, { oauth: [] }, { session: [] }]
  return undefined
}

// Unknown body fields are ignored (Effect's decoding default), so the document must not claim
// `additionalProperties: false`: a client that sends an extra field is not refused.
const dropClosedObjects = (node: unknown): void => {
  if (Array.isArray(node)) {
    for (const item of node) dropClosedObjects(item)
    return
  }
  if (node === null || typeof node !== "object") return
  const record = node as Record<string, unknown>
  if (record.additionalProperties === false) delete record.additionalProperties
  Object.values(record).forEach(dropClosedObjects)
}

type Operation = { security?: unknown; operationId?: string; summary?: string; [k: string]: unknown }

export const makeOpenApiDocument = (
  publicUrl: string,
  extraSecurity: Record<string, Array<Record<string, Array<string>>>> = {}
) => {
  const spec = OpenApi.fromApi(Api) as unknown as {
    paths: Record<string, Record<string, Operation>>
    components: { securitySchemes: Record<string, unknown> }
    servers?: Array<{ url: string }>
    info: { version: string }
  }
  spec.info.version = "1.0"
  spec.components.securitySchemes = { ...schemes }
  spec.servers = [{ url: `${publicUrl}/api` }]
  const paths: Record<string, Record<string, Operation>> = {}
  for (const group of Object.values(Api.groups)) {
    for (const endpoint of Object.values(group.endpoints)) {
      const openApiPath = endpoint.path.replace(/:(\w+)/g, "{$1}")
      const op = spec.paths[openApiPath]?.[endpoint.method.toLowerCase()]
      if (op === undefined) continue
      const security = extraSecurity[`${endpoint.method} ${endpoint.path}`] ?? securityFor(endpoint.middlewares)
      op.security = security ?? []
    }
  }
  for (const [path, ops] of Object.entries(spec.paths)) {
    // the router's trailing wildcard is SPEC's `{file}` (a `<version>/<artifact>` path)
    const documented = path.replace(/^\/api/, "").replace(/\/\*$/, "/{file}")
    if (documented.endsWith("/{file}")) {
      for (const op of Object.values(ops)) {
        const params = (op.parameters ?? []) as Array<{ name: string; in: string }>
        if (!params.some((p) => p.name === "file")) {
          // SPEC.md: at most `<version>/<file>` deep, ending .yml, .zip, .blockmap or .dmg (anything else is 404)
          const schema = { type: "string", pattern: "^([^/]+/)?[^/]+\\.(yml|zip|blockmap|dmg)$" }
          op.parameters = [
            ...params,
            { name: "file", in: "path", required: true, schema, description: "latest-mac.yml, or <version>/<artifact>" }
          ]
        }
      }
    }
    paths[documented] = ops
  }
  spec.paths = paths
  dropClosedObjects(spec)
  return spec
}

/** A self-contained page (no scripts, no CDN) listing every operation. */
export const renderDocsPage = (spec: ReturnType<typeof makeOpenApiDocument>): string => {
  const rows: Array<string> = []
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const security =
        Array.isArray(op.security) && op.security.length > 0
          ? (op.security as Array<Record<string, unknown>>).map((s) => Object.keys(s).join("+")).join(" or ")
          : "none"
      const responses = Object.keys((op.responses ?? {}) as object).join(", ")
      const body = (op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.[
        "application/json"
      ]?.schema
      rows.push(`<section><h3><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h3>
<p>${escapeHtml(String(op.summary ?? op.description ?? op.operationId ?? ""))}</p>
<p><b>Credential:</b> ${escapeHtml(security)} · <b>Responses:</b> ${escapeHtml(responses)}</p>
${body ? `<details><summary>Request body schema</summary><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre></details>` : ""}</section>`)
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Board Service API</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code,pre{background:#f4f4f4;padding:.1rem .3rem}section{border-top:1px solid #ddd}</style>
</head><body><h1>Board Service API 1.0</h1>
<p>Base URL: <code>${escapeHtml(spec.servers?.[0]?.url ?? "")}</code>. Every failure body is <code>{"error": string}</code>.
Machine-readable: <a href="openapi.json">openapi.json</a>.</p>
${rows.join("\n")}</body></html>`
}
