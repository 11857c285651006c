/**
 * The rules on text fields, each written once. The input schemas (`inputs.ts`) are built from
 * them, and every front end decodes with those (which also give the OpenAPI document its
 * maxLength and pattern). `textFailure` runs the same checks as a test, for the one service not
 * yet taking decoded inputs (webhooks).
 */
import { Schema, type SchemaAST } from "effect"
import { charCount, limits } from "./limits.ts"

/** One rule: the schema check and, for the core, the same check as a test, with its message. */
export interface TextRule {
  readonly check: SchemaAST.Filter<string>
  readonly passes: (value: string) => boolean
  readonly message: string
}

const rule = (message: string, make: (annotations: { message: string }) => SchemaAST.Filter<string>): TextRule => {
  const check = make({ message })
  return { check, passes: Schema.is(Schema.String.check(check)), message }
}

// Patterns carry the `u` flag: Effect puts only Unicode-mode patterns into the OpenAPI document,
// and a check the document does not state is a valid-looking request the server refuses.

/** PostgreSQL text cannot hold NUL: refused at the door with a 400, not a 500 from the database. */
export const noNul = rule("must not contain NUL (\\u0000) characters", (a) => Schema.isPattern(/^[^\u0000]*$/u, a))

export const notBlank = rule("must not be blank", (a) => Schema.isPattern(/\S/u, a))

/**
 * Text limits count characters as Unicode code points, as JSON Schema's maxLength does (and
 * PostgreSQL's char_length): 500 emoji are 500 characters, not the 1000 UTF-16 units of `.length`.
 */
export const maxChars = (max: number): TextRule =>
  rule(`must be at most ${max} characters`, (a) => Schema.isMaxCodePoints(max, a))

/** Text of at most `max` characters that is not blank. */
export const NonBlank = (max: number) => Schema.String.check(maxChars(max).check, notBlank.check, noNul.check)

/** Text of at most `max` characters, possibly empty. */
export const MaxString = (max: number) => Schema.String.check(maxChars(max).check, noNul.check)

export const Title = NonBlank(limits.cardTitle)
export const Description = MaxString(limits.cardDescription)
export const Name = NonBlank(limits.name)

/** An email address as the core checks it (the document says `format: email`, a stricter subset). */
export const Email = MaxString(254).annotate({ format: "email" })

/** A 0-based place in a list (a card in its column, a column on its board). */
export const Position = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a whole number from 0" }))

/** An ISO 8601 date-time with its offset, as clients send one (`dueAt`); the core's check is `isDateTime`. */
const DATE_TIME = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/u
export const dateTimeMessage = "must be an ISO 8601 date-time with an offset, such as 2026-05-01T17:00:00Z"
/** Whether `s` is a date-time as DATE_TIME writes it and names a real instant (no February 30th). */
export const isDateTime = (s: string): boolean => {
  if (!DATE_TIME.test(s)) return false
  const at = Date.parse(s)
  if (!Number.isFinite(at)) return false
  // Date.parse rolls 2026-02-30 over to March; the date part must survive the round trip
  const [y, m, d] = s.slice(0, 10).split("-").map(Number) as [number, number, number]
  const day = new Date(0)
  day.setUTCFullYear(y, m - 1, d)
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d
}
export const DateTimeInput = Schema.String.check(
  Schema.isPattern(DATE_TIME, { message: dateTimeMessage }),
  Schema.makeFilter((s: string) => isDateTime(s) || dateTimeMessage)
).annotate({ format: "date-time" })

/** A comment's body: Markdown kept as text, 1 to 10,000 characters. */
export const CommentBody = NonBlank(limits.commentBody)

/** An ISO 8601 instant in a response (annotated, not checked: the server wrote it). */
export const Timestamp = Schema.String.annotate({ format: "date-time" })

// the core's length rules, made once per limit
const lengthRules = new Map<number, TextRule>()
const lengthRule = (max: number): TextRule => {
  const found = lengthRules.get(max)
  if (found !== undefined) return found
  const made = maxChars(max)
  lengthRules.set(max, made)
  return made
}

/** How the core checks a text field. */
export interface TextLimit {
  readonly max: number
  /** Blank text is refused. */
  readonly nonBlank: boolean
  /** The message says how long the text was. */
  readonly counted?: boolean
}

/**
 * The first rule `value` breaks, as the core answers it (`field: message`), checked in the order
 * that names the most basic fault first: NUL, then blank, then length.
 */
export const textFailure = (value: string, field: string, limit: TextLimit): string | undefined => {
  if (!noNul.passes(value)) return `${field}: ${noNul.message}`
  if (limit.nonBlank && !notBlank.passes(value)) return `${field}: ${notBlank.message}`
  const length = lengthRule(limit.max)
  if (!length.passes(value)) {
    return `${field}: ${length.message}${limit.counted === true ? ` (got ${charCount(value)})` : ""}`
  }
  return undefined
}
