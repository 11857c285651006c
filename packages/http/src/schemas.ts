/** Field schemas shared by the endpoint groups; limits come from the core. */
import { limits, linkTypes, priorities } from "@board/core/contract"
import { Schema, SchemaTransformation } from "effect"

export const Uuid = Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" }))

// Patterns carry the `u` flag: Effect puts only Unicode-mode patterns into the OpenAPI document,
// and a check the document does not state is a valid-looking request the server refuses.

// PostgreSQL text cannot hold NUL: refuse it at the door with a 400, not a 500 from the database
const noNul = Schema.isPattern(/^[^\u0000]*$/u, { message: "must not contain NUL (\\u0000) characters" })

/**
 * Text limits count characters as Unicode code points, as JSON Schema's maxLength does (and
 * PostgreSQL's char_length): 500 emoji are 500 characters, not the 1000 UTF-16 units of `.length`.
 */
const maxChars = (max: number) => Schema.isMaxCodePoints(max, { message: `must be at most ${max} characters` })

export const NonBlank = (max: number) =>
  Schema.String.check(maxChars(max), Schema.isPattern(/\S/u, { message: "must not be blank" }), noNul)

export const MaxString = (max: number) => Schema.String.check(maxChars(max), noNul)

/** An email address as the core checks it (the document says `format: email`, a stricter subset). */
export const Email = MaxString(254).annotate({ format: "email" })

export const Name = NonBlank(limits.name)

// Response fields: annotations only (the document states the format; nothing is checked on the way out)
export const Timestamp = Schema.String.annotate({ format: "date-time" })
export const Id = Schema.String.annotate({ format: "uuid" })

export const Workspace = Schema.Struct({
  id: Id,
  name: Schema.String,
  role: Schema.Literals(["owner", "member"]),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Project = Schema.Struct({
  id: Id,
  workspaceId: Id,
  name: Schema.String,
  refPrefix: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Column = Schema.Struct({
  id: Id,
  projectId: Id,
  name: Schema.String,
  position: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const WorkspaceMember = Schema.Struct({
  id: Id,
  userId: Id,
  email: Schema.String,
  fullName: Schema.String,
  role: Schema.Literals(["owner", "member"]),
  joinedAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const AuthSession = Schema.Struct({
  session: Schema.Struct({
    access_token: Schema.String,
    token_type: Schema.Literal("bearer"),
    expires_in: Schema.Int,
    expires_at: Timestamp
  }),
  user: Schema.Struct({ id: Id, email: Schema.String, full_name: Schema.String })
})

export const Priority = Schema.Literals(priorities)
export const LinkType = Schema.Literals(linkTypes)
export const Position = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a whole number from 0" }))

export const Label = Schema.Struct({
  id: Id,
  projectId: Id,
  name: Schema.String,
  color: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Subtask = Schema.Struct({
  id: Id,
  cardId: Id,
  title: Schema.String,
  completed: Schema.Boolean,
  position: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Card = Schema.Struct({
  id: Id,
  projectId: Id,
  columnId: Id,
  position: Schema.Int,
  ref: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  priority: Priority,
  labels: Schema.Array(Label),
  subtasks: Schema.Array(Subtask),
  source: Schema.String,
  intakeTokenId: Schema.NullOr(Id),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const CardLink = Schema.Struct({
  id: Id,
  sourceId: Id,
  targetId: Id,
  linkType: LinkType,
  direction: Schema.Literals(["outgoing", "incoming"]),
  card: Schema.Struct({ id: Id, ref: Schema.String, title: Schema.String }),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Board = Schema.Struct({
  project: Project,
  columns: Schema.Array(Column),
  cards: Schema.Array(Card),
  labels: Schema.Array(Label)
})

export const Relevance = Schema.Literals(["none", "low", "medium", "high"])

export const Evidence = Schema.Struct({
  signal: Schema.Literals(["url_match", "same_host", "shared_terms"]),
  detail: Schema.String,
  cards: Schema.optionalKey(Schema.Array(Schema.String)),
  terms: Schema.optionalKey(Schema.Array(Schema.String))
})

export const ProjectLink = Schema.Struct({
  id: Id,
  projectId: Id,
  url: Schema.String,
  normalizedUrl: Schema.String,
  title: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  relevance: Schema.NullOr(Relevance),
  score: Schema.NullOr(Schema.Number),
  evidence: Schema.NullOr(Schema.Array(Evidence)),
  evaluation_source: Schema.NullOr(Schema.Literals(["heuristic", "human"])),
  reviewedBy: Schema.NullOr(Id),
  reviewedAt: Schema.NullOr(Timestamp),
  reviewReason: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
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
