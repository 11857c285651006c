/**
 * The OpenAPI 3.1 document of the whole API, generated from the contract, with the credential
 * schemes each endpoint accepts (rendered for people by ApiReference.ts at /api/v1/docs).
 */
import { OpenApi } from "effect/http-api"
import { Api } from "./Api.ts"
import { componentExamples, errorExamples, fieldExamples } from "./openApiExamples.ts"
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
  // a union of one value (a single project template) is that value: `anyOf` of one schema says
  // nothing more, and linters flag it
  const anyOf = record.anyOf
  if (Array.isArray(anyOf) && anyOf.length === 1) {
    delete record.anyOf
    Object.assign(record, anyOf[0])
  }
  Object.values(record).forEach(dropClosedObjects)
}

type Json = Record<string, unknown>
type Operation = { security?: unknown; operationId?: string; summary?: string; [k: string]: unknown }
type MediaType = { schema?: Json; example?: unknown }

/**
 * Every failure body is `{error: string}`, whatever the status; Effect names one component per
 * error class (`BadRequestEncoded`, …). The document has the one `Error` a client types its
 * failures with; each response's description tells the statuses apart.
 */
const errorComponents = [
  "BadRequestEncoded",
  "UnauthorizedEncoded",
  "ForbiddenEncoded",
  "NotFoundEncoded",
  "ConflictEncoded",
  "TooManyRequestsEncoded"
]
const ERROR_SCHEMA = {
  type: "object",
  description: "Every failure's body, whatever the status: a message a person can act on.",
  properties: { error: { type: "string", description: "What went wrong and, where it helps, what to send instead." } },
  required: ["error"]
}
const mergeErrorComponents = (node: unknown): void => {
  if (Array.isArray(node)) {
    for (const item of node) mergeErrorComponents(item)
    return
  }
  if (node === null || typeof node !== "object") return
  const record = node as Json
  const ref = record.$ref
  if (typeof ref === "string" && errorComponents.some((name) => ref === `#/components/schemas/${name}`)) {
    record.$ref = "#/components/schemas/Error"
  }
  Object.values(record).forEach(mergeErrorComponents)
}

const FIXED_UUID = "7e8f9a0b-1c2d-4e3f-9a4b-5c6d7e8f9a0b"
const FIXED_TIME = "2026-03-02T09:30:00.000Z"

/**
 * An example value for a schema of the document: the named resource's own example for a `$ref`,
 * a field's example by its name, otherwise one built from the schema (first enum value, first
 * non-null branch, the smallest allowed number, …).
 */
const exampleOf = (schema: Json | undefined, components: Record<string, Json>, field?: string, depth = 0): unknown => {
  if (schema === undefined || depth > 12) return undefined
  const ref = schema.$ref
  if (typeof ref === "string") {
    const name = ref.replace("#/components/schemas/", "")
    return componentExamples[name] ?? exampleOf(components[name], components, field, depth + 1)
  }
  if (schema.examples !== undefined && Array.isArray(schema.examples)) return schema.examples[0]
  if ("const" in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  const branches = (schema.anyOf ?? schema.oneOf) as Array<Json> | undefined
  if (branches !== undefined) {
    const chosen = branches.find((b) => b.type !== "null") ?? branches[0]
    return exampleOf(chosen, components, field, depth + 1)
  }
  if (field !== undefined && field in fieldExamples) return fieldExamples[field]
  switch (schema.type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Json>
      return Object.fromEntries(
        Object.entries(properties).map(([key, value]) => [key, exampleOf(value, components, key, depth + 1)])
      )
    }
    case "array":
      return [exampleOf(schema.items as Json | undefined, components, field, depth + 1)]
    case "integer":
    case "number": {
      const min = typeof schema.minimum === "number" ? schema.minimum : 0
      const max = typeof schema.maximum === "number" ? schema.maximum : Number.MAX_SAFE_INTEGER
      return Math.min(Math.max(min, 1), max)
    }
    case "boolean":
      return true
    case "string":
      if (schema.format === "uuid") return FIXED_UUID
      if (schema.format === "date-time") return FIXED_TIME
      if (schema.format === "email") return "ada@example.org"
      if (schema.format === "uri") return "https://example.org/"
      return "text"
    default:
      return undefined
  }
}

/**
 * Gives every JSON request and response an example (unless the endpoint wrote its own), so
 * documentation tools show a body for each, and names the resources' own examples.
 */
const addExamples = (spec: {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Json> }
}) => {
  const components = spec.components.schemas
  for (const [name, example] of Object.entries(componentExamples)) {
    const component = components[name]
    if (component !== undefined) component.examples = [example]
  }
  for (const ops of Object.values(spec.paths)) {
    for (const op of Object.values(ops)) {
      const body = (op.requestBody as { content?: Record<string, MediaType> } | undefined)?.content?.[
        "application/json"
      ]
      if (body !== undefined && body.example === undefined) body.example = exampleOf(body.schema, components)
      for (const [status, response] of Object.entries(
        (op.responses ?? {}) as Record<string, { content?: Record<string, MediaType> }>
      )) {
        const media = response.content?.["application/json"]
        if (media === undefined || media.example !== undefined) continue
        media.example = errorExamples[status] ?? exampleOf(media.schema, components)
      }
    }
  }
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } }
})

/**
 * `POST /v1/forge-hooks/{repositoryId}` (forge/ForgeHookRoutes.ts) is a route outside the
 * contract: its body is the forge's own webhook request, read as bytes so the signature is
 * checked on the raw body before anything is parsed. Written here by hand, in the forge's tag.
 */
const addForgeHook = (paths: Record<string, Record<string, Operation>>) => {
  const tags = paths["/v1/projects/{id}/repositories"]?.post?.tags
  const header = (name: string, description: string) => ({
    name,
    in: "header",
    required: false,
    description,
    schema: { type: "string" }
  })
  paths["/v1/forge-hooks/{repositoryId}"] = {
    post: {
      ...(tags === undefined ? {} : { tags }),
      operationId: "forge.receiveDelivery",
      summary: "A forge's webhook delivery (GitHub, GitLab, Gitea, Forgejo)",
      description:
        "Where a connected repository's forge sends its webhook (`webhookUrl`). No API key: the forge's signature over the raw body is the credential, checked in constant time before the body is parsed or anything is stored (GitHub `X-Hub-Signature-256: sha256=<hex HMAC-SHA256>`, GitLab `X-Gitlab-Token: <secret>`, Gitea `X-Gitea-Signature` and Forgejo `X-Forgejo-Signature: <hex HMAC-SHA256>`). The event header names the event; the delivery header's id de-duplicates (a delivery seen before is answered 202 and changes nothing). Events the service does not read are answered 202 and ignored. At most 1 MiB. docs/forges.md says which events to tick.",
      security: [],
      parameters: [
        {
          name: "repositoryId",
          in: "path",
          required: true,
          description: "The connected repository's id (from `POST /v1/projects/{id}/repositories`).",
          schema: { type: "string", format: "uuid" }
        },
        header("X-Hub-Signature-256", "GitHub: `sha256=` and the hex HMAC-SHA256 of the raw body with the secret."),
        header(
          "X-GitHub-Event",
          "GitHub: the event (`pull_request`, `pull_request_review`, `check_suite`, `check_run`, `status`, `push`, `deployment_status`)."
        ),
        header("X-GitHub-Delivery", "GitHub: the delivery's id."),
        header("X-Gitlab-Token", "GitLab: the secret itself."),
        header("X-Gitlab-Event", "GitLab: the event (`Merge Request Hook`, `Pipeline Hook`, `Push Hook`)."),
        header("X-Gitlab-Event-UUID", "GitLab: the delivery's id."),
        header("X-Gitea-Signature", "Gitea: the hex HMAC-SHA256 of the raw body."),
        header("X-Gitea-Event", "Gitea: the event."),
        header("X-Gitea-Delivery", "Gitea: the delivery's id."),
        header("X-Forgejo-Signature", "Forgejo: the hex HMAC-SHA256 of the raw body."),
        header("X-Forgejo-Event", "Forgejo: the event."),
        header("X-Forgejo-Delivery", "Forgejo: the delivery's id.")
      ],
      requestBody: {
        required: true,
        description: "The forge's own webhook payload, as it sends it; unknown fields are ignored.",
        content: {
          "application/json": { schema: { type: "object", description: "The forge's payload." } }
        }
      },
      responses: {
        "202": {
          description: "Applied, a delivery seen before, or an event the service does not read: nothing to retry.",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { ok: { type: "boolean", const: true } },
                required: ["ok"]
              },
              example: { ok: true }
            }
          }
        },
        "400": errorResponse(
          "Malformed JSON, no event header, or a payload for another repository than the connection's."
        ),
        "401": errorResponse("A missing or wrong signature: nothing was recorded."),
        "404": errorResponse("No repository connection has this id."),
        "413": errorResponse("The body is over 1 MiB.")
      }
    }
  }
}

export const makeOpenApiDocument = (
  publicUrl: string,
  extraSecurity: Record<string, Array<Record<string, Array<string>>>> = {}
) => {
  const spec = OpenApi.fromApi(Api) as unknown as {
    paths: Record<string, Record<string, Operation>>
    components: { schemas: Record<string, Json>; securitySchemes: Record<string, unknown> }
    servers?: Array<{ url: string; description?: string }>
    info: Json & { version: string }
  }
  spec.info.version = "1.0"
  spec.info.contact = { name: "Board Service", url: publicUrl }
  // the service is not open source: its API is offered under its operator's terms
  spec.info.license = { name: "Proprietary", identifier: "LicenseRef-Proprietary" }
  spec.components.securitySchemes = { ...schemes }
  spec.servers = [{ url: `${publicUrl}/api`, description: "This service" }]
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
  // the server URL ends in /api: paths are relative to it
  for (const [path, ops] of Object.entries(spec.paths)) paths[path.replace(/^\/api/, "")] = ops
  spec.paths = paths
  addForgeHook(spec.paths)
  mergeErrorComponents(spec.paths)
  for (const name of errorComponents) delete spec.components.schemas[name]
  spec.components.schemas.Error = ERROR_SCHEMA
  dropClosedObjects(spec)
  addExamples(spec)
  return spec
}
