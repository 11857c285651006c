/**
 * Registers the board's tools with the MCP server. `McpServer.registerToolkit` would answer
 * every result as its JSON text; here each tool answers compact text for the model plus the
 * structured object, so the tools are added one by one from the same `Tool` definitions (name,
 * description, JSON Schema of the parameters, hint annotations).
 *
 * Outcomes of a call:
 * - arguments that do not match the schema: a tool error naming the fields;
 * - a domain error (not found, invalid input, not granted, conflict...): a tool error with the
 *   domain's message, so the model can correct itself;
 * - a defect: logged, and a tool error that says so without its details;
 * - interruption (the client cancelled): propagated.
 */
import { Cause, Context, Effect, Schema } from "effect"
import { McpSchema, McpServer, Tool, type Toolkit } from "effect/ai"
import type { Reply } from "./handlers.ts"
import type { McpPrincipal } from "./McpAuth.ts"

type Handlers<Tools extends Record<string, Tool.Any>> = {
  readonly [K in keyof Tools]: (
    params: Tool.Parameters<Tools[K]>
  ) => Effect.Effect<Reply, { readonly message: string }, McpPrincipal>
}

const textResult = (text: string, isError: boolean, structuredContent?: unknown) =>
  new McpSchema.CallToolResult({
    content: [{ type: "text", text }],
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError ? { isError: true } : {})
  })

/** The decoder's report on one line per problem: `Expected string at ["title"]`. */
const describeSchemaError = (error: Schema.SchemaError): string =>
  error.message
    .split("\n")
    .reduce<Array<string>>((lines, line) => {
      const at = /^\s+at (.*)$/.exec(line)
      if (at !== null && lines.length > 0) lines[lines.length - 1] += ` at ${at[1]}`
      else if (line.trim() !== "") lines.push(line.trim())
      return lines
    }, [])
    .join("; ")

/** Makes JSON-safe plain data of a structured result (dates, readonly arrays, class instances). */
const toJson = (data: unknown): unknown => JSON.parse(JSON.stringify(data))

/**
 * The tool's JSON Schema without `additionalProperties: true`, which is JSON Schema's default
 * anyway: tools/list is read into every agent's context, so it stays small (under 16 KB).
 */
const withoutDefaults = (schema: unknown): unknown => {
  if (typeof schema !== "object" || schema === null) return schema
  const { additionalProperties, ...rest } = schema as Record<string, unknown>
  return additionalProperties === true ? rest : schema
}

export const registerTools = <Tools extends Record<string, Tool.Any>>(
  toolkit: Toolkit.Toolkit<Tools>,
  handlers: Handlers<Tools>
): Effect.Effect<void, never, McpServer.McpServer | McpServer.McpRequest.From<"Requires", McpPrincipal>> =>
  Effect.gen(function* () {
    const server = yield* McpServer.McpServer
    for (const tool of Object.values(toolkit.tools) as ReadonlyArray<Tool.Any>) {
      const handler = handlers[tool.name as keyof Tools] as (
        params: unknown
      ) => Effect.Effect<Reply, { readonly message: string }, McpPrincipal>
      const inputSchema = yield* Schema.decodeUnknownEffect(McpSchema.ToolJson)(
        withoutDefaults(Tool.getJsonSchema(tool))
      ).pipe(Effect.orDie)
      const decode = Schema.decodeUnknownEffect(tool.parametersSchema as Schema.Codec<unknown, unknown>)
      const name = tool.name
      yield* server.addTool({
        tool: new McpSchema.Tool({
          name,
          description: Tool.getDescription(tool),
          inputSchema,
          annotations: {
            readOnlyHint: Context.get(tool.annotations, Tool.Readonly),
            destructiveHint: Context.get(tool.annotations, Tool.Destructive),
            idempotentHint: Context.get(tool.annotations, Tool.Idempotent),
            openWorldHint: Context.get(tool.annotations, Tool.OpenWorld)
          }
        }),
        annotations: tool.annotations,
        handle: (payload: unknown) =>
          decode(payload ?? {}, { errors: "all", onExcessProperty: "ignore" }).pipe(
            Effect.matchEffect({
              onFailure: (error) =>
                Effect.succeed(textResult(`invalid arguments for ${name}: ${describeSchemaError(error)}`, true)),
              onSuccess: (params) =>
                handler(params).pipe(
                  Effect.map((reply) => textResult(reply.text, false, toJson(reply.data))),
                  Effect.catch((error) => Effect.succeed(textResult(error.message, true)))
                )
            }),
            Effect.catchCause((cause) =>
              Cause.hasInterrupts(cause)
                ? Effect.failCause(cause)
                : Effect.logError(`MCP tool ${name} failed`, cause).pipe(
                    Effect.as(textResult(`${name} failed with an internal error; it has been logged`, true))
                  )
            )
            // the handler reads McpPrincipal, a request-level service that the route middleware
            // (McpAuth) provides; the signature's McpRequest marker carries that requirement
            // biome-ignore lint/suspicious/noExplicitAny: the SDK's callback type cannot name the request-level service the route provides
          ) as any
      })
    }
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's callback type cannot name the request-level service the route provides
  }) as any
