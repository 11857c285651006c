/**
 * What the endpoint groups share beyond the domain's vocabulary: the resources, ids, enums and
 * field rules are the core's (`@board/core/contract`, `core/src/domain/`); here are only the
 * HTTP-specific shapes (the session answer, integers in a query string, OpenAPI fixes).
 */
import { Id, Timestamp } from "@board/core/contract"
import { Schema, SchemaTransformation } from "effect"
import { OpenApi } from "effect/http-api"

export const AuthSession = Schema.Struct({
  session: Schema.Struct({
    access_token: Schema.String,
    token_type: Schema.Literal("bearer"),
    expires_in: Schema.Int,
    expires_at: Timestamp
  }),
  user: Schema.Struct({ id: Id, email: Schema.String, full_name: Schema.String })
}).annotate({
  identifier: "AuthSession",
  description: "A session token (for the account bootstrap calls) and its user."
})

export interface IntRange {
  readonly minimum: number
  /** Default: the largest safe integer (beyond it a number is no longer exact, nor a PostgreSQL bigint). */
  readonly maximum?: number
}

const bounded = (r: IntRange) => ({ minimum: r.minimum, maximum: r.maximum ?? Number.MAX_SAFE_INTEGER })

/** A whole number in a query string: digits only (no sign, exponent, fraction or spaces), within its range. */
export const QueryInt = (range: IntRange) => {
  const { minimum, maximum } = bounded(range)
  const message =
    range.maximum === undefined
      ? `must be a whole number from ${minimum}`
      : `must be a whole number from ${minimum} to ${maximum}`
  return Schema.String.check(Schema.isPattern(/^[0-9]+$/u, { message })).pipe(
    Schema.decodeTo(
      Schema.Number.check(Schema.isBetween({ minimum, maximum }, { message })),
      SchemaTransformation.numberFromString
    )
  )
}

/** The OpenAPI schema of a QueryInt parameter. */
export const integerSchema = (range: IntRange) => ({ type: "integer", ...bounded(range) })

type OpenApiOperation = {
  parameters?: Array<{ name: string; in: string; schema?: Record<string, unknown> }>
  [k: string]: unknown
}

/**
 * OpenAPI transform of an endpoint: states what its parameters accept where Effect's encoded
 * schema cannot (a query string that is an integer; a path or query value the handler answers
 * with SPEC's 404 rather than refusing as malformed). `replace` swaps the schema, `merge` adds to it.
 */
export const documentParameters =
  (changes: {
    readonly replace?: Readonly<Record<string, Record<string, unknown>>>
    readonly merge?: Readonly<Record<string, Record<string, unknown>>>
  }) =>
  (op: Record<string, unknown>): Record<string, unknown> => ({
    ...op,
    parameters: ((op as OpenApiOperation).parameters ?? []).map((p) => {
      const replaced = changes.replace?.[p.name]
      const merged = changes.merge?.[p.name]
      if (replaced !== undefined) return { ...p, schema: replaced }
      if (merged !== undefined) return { ...p, schema: { ...p.schema, ...merged } }
      return p
    })
  })

/** An operation's summary (its title in documentation tools) and description, for `annotateMerge`. */
export const doc = (summary: string, description: string) => OpenApi.annotations({ summary, description })
