/**
 * The OpenAPI 3.1 document of the whole API, generated from the contract, with the credential
 * schemes each endpoint accepts (rendered for people by ApiReference.ts at /api/v1/docs).
 */
import { OpenApi } from "effect/http-api"
import { Api } from "./Api.ts"
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
