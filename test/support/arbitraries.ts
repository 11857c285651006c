/**
 * JSON Schema (as the OpenAPI document states it) → fast-check arbitraries: values the document
 * calls valid, and mutations of them it calls invalid. Strings honour minLength/maxLength (in code
 * points, as JSON Schema counts), pattern, format and enum, and are drawn from all of Unicode;
 * integers stay within their bounds and hit them; optional properties come and go, unknown extra
 * properties ride along. Values the document cannot make meaningful (the id of a real card, the
 * email of an existing account) come from `pools`, by property or parameter name.
 */
import fc from "fast-check"
import type { JsonSchema } from "./openapi.ts"

/** A value filled in per run: the id of a resource made for that run, or of the shared fixture. */
export class Ref {
  readonly name: string
  constructor(name: string) {
    this.name = name
  }
}
export const ref = (name: string) => fc.constant(new Ref(name))
export const refs = (...names: ReadonlyArray<string>) => fc.constantFrom(...names.map((n) => new Ref(n)))

export const resolveRefs = (value: unknown, ids: Readonly<Record<string, string>>): unknown => {
  if (value instanceof Ref) {
    const id = ids[value.name]
    if (id === undefined) throw new Error(`no id named ${value.name} in this run`)
    return id
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, ids))
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, ids)]))
  }
  return value
}

export type Pools = Readonly<Record<string, fc.Arbitrary<unknown>>>

/** One code point per unit, so that lengths are code points: ASCII, any plane, and a few troublemakers. */
const codePoint: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme-composite", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "😀",
      "𝔘",
      "ñ",
      "Ω",
      "\u202e",
      "\u200b",
      "\ufeff",
      "\u00a0",
      " ",
      "\t",
      "\n",
      "'",
      '"',
      "\\",
      "%",
      "<",
      "\u0000"
    )
  }
)

/** Header values must be visible ASCII (fetch refuses the rest), and HTTP trims their ends. */
const headerChar: fc.Arbitrary<string> = fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 })

const text = (min: number, max: number, unit: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.string({ unit, minLength: min, maxLength: Math.max(min, Math.min(max, min + 40)) }) },
    { weight: 1, arbitrary: fc.string({ unit, minLength: min, maxLength: min }) },
    { weight: 1, arbitrary: fc.string({ unit, minLength: max, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit, minLength: min, maxLength: max, size: "max" }) }
  )

const codePoints = (s: string) => [...s].length

/** `^[^…]*$` excludes characters and an unanchored pattern asks for one somewhere: both are filters. */
const isFilterPattern = (p: string) => !p.startsWith("^") || /^\^\[\^[^\]]*\]\*\$$/.test(p)

const patternsOf = (s: JsonSchema): Array<string> => [
  ...(s.pattern !== undefined ? [s.pattern] : []),
  ...(s.allOf ?? []).flatMap(patternsOf)
]
const boundOf = (s: JsonSchema, key: "minLength" | "maxLength"): number | undefined => {
  const all = [s[key], ...(s.allOf ?? []).map((x) => x[key])].filter((x): x is number => x !== undefined)
  if (all.length === 0) return undefined
  return key === "minLength" ? Math.max(...all) : Math.min(...all)
}

const farFuture = Date.UTC(2099, 0, 1)

export interface ArbitraryOptions {
  readonly pools?: Pools
  /** Header parameters: visible ASCII only. */
  readonly header?: boolean
  /** Add unknown properties to objects now and then (the document does not close them). */
  readonly extras?: boolean
}

const stringArbitrary = (s: JsonSchema, o: ArbitraryOptions): fc.Arbitrary<string> => {
  const min = boundOf(s, "minLength") ?? 0
  const max = boundOf(s, "maxLength") ?? 300
  const patterns = patternsOf(s).map((p) => new RegExp(p, "u"))
  const fits = (v: string) => codePoints(v) >= min && codePoints(v) <= max && patterns.every((p) => p.test(v))
  let base: fc.Arbitrary<string>
  const format = [s, ...(s.allOf ?? [])].map((x) => x.format).find((f) => f !== undefined)
  switch (format) {
    case "uuid":
      throw new Error("a uuid must come from a pool of real ids (pass pools)")
    case "uri":
      base = fc.webUrl({ withQueryParameters: true, withFragments: true }).filter((u) => /^https?:\/\/[^/?#]+/.test(u))
      break
    case "email":
      base = fc.emailAddress()
      break
    case "date-time":
      base = fc.integer({ min: Date.now() + 3_600_000, max: farFuture }).map((t) => new Date(t).toISOString())
      break
    default: {
      const strict = patternsOf(s).filter((p) => !isFilterPattern(p))
      base =
        strict.length > 0
          ? fc.stringMatching(new RegExp(strict[0]!, "u"))
          : text(min, max, o.header ? headerChar : codePoint)
    }
  }
  return (o.header ? base.map((v) => v.trim()) : base).filter(fits)
}

/** An arbitrary of values `schema` accepts (refs into components must already be resolved). */
export const arbitraryOf = (s: JsonSchema, o: ArbitraryOptions = {}): fc.Arbitrary<unknown> => {
  if (s.enum !== undefined) return fc.constantFrom(...s.enum)
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.anyOf !== undefined) return fc.oneof(...s.anyOf.map((x) => arbitraryOf(x, o)))
  if (s.oneOf !== undefined) return fc.oneof(...s.oneOf.map((x) => arbitraryOf(x, o)))
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case "string":
      return stringArbitrary(s, o)
    case "integer": {
      const min = s.minimum ?? -1_000_000
      const max = s.maximum ?? 1_000_000
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, min + 50) }) },
        { weight: 1, arbitrary: fc.constantFrom(min, max) },
        { weight: 1, arbitrary: fc.maxSafeInteger().filter((n) => n >= min && n <= max) }
      )
    }
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum ?? -1e9, max: s.maximum ?? 1e9 })
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array": {
      const item = arbitraryOf(s.items ?? {}, { ...o, pools: {} })
      const min = s.minItems ?? 0
      const max = s.maxItems ?? 5
      return fc.oneof(
        { weight: 4, arbitrary: fc.array(item, { minLength: min, maxLength: Math.min(max, min + 3) }) },
        { weight: 1, arbitrary: fc.array(item, { minLength: max, maxLength: max }) }
      )
    }
    case "object":
      return objectArbitrary(s, o)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

const objectArbitrary = (s: JsonSchema, o: ArbitraryOptions): fc.Arbitrary<Record<string, unknown>> => {
  const pools = o.pools ?? {}
  const properties = s.properties ?? {}
  const model: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, schema] of Object.entries(properties))
    model[name] = pools[name] ?? arbitraryOf(schema, { ...o, pools: {} })
  const required = s.required ?? []
  const record = fc.record(model, { requiredKeys: [...required] }) as fc.Arbitrary<Record<string, unknown>>
  const dependent = Object.entries(s.dependentRequired ?? {})
  const closed = record.filter((v) => dependent.every(([k, needs]) => !(k in v) || needs.every((n) => n in v)))
  if (o.extras !== true) return closed
  const extra = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 8 }).map((k) => `zz_${k}`),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 2 }
  )
  return fc.tuple(closed, fc.option(extra, { freq: 3 })).map(([v, x]) => (x === null ? v : { ...x, ...v }))
}

/**
 * Values `schema` refuses, for one field: wrong types, lengths past the bounds, bad enums and
 * formats, NUL and blank text. Candidates are kept only when `rejects` (the document's own
 * validator) refuses them, so a mutation is invalid by the document, not by this list.
 */
export const invalidValuesFor = (s: JsonSchema, rejects: (v: unknown) => boolean): Array<unknown> => {
  const all = [s, ...(s.anyOf ?? []), ...(s.allOf ?? [])]
  const out: Array<unknown> = [
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 53,
    "x",
    "",
    "   ",
    "\u0000",
    "a\u0000b",
    "nope",
    [],
    {},
    ["x"],
    { a: 1 }
  ]
  for (const x of all) {
    if (x.maxLength !== undefined) out.push("a".repeat(x.maxLength + 1), "😀".repeat(x.maxLength + 1))
    if (x.minLength !== undefined && x.minLength > 0) out.push("a".repeat(x.minLength - 1))
    if (x.maxItems !== undefined) out.push(Array.from({ length: x.maxItems + 1 }, (_, i) => `t${i}`))
    if (x.items?.maxLength !== undefined) out.push(["b".repeat(x.items.maxLength + 1)])
    if (x.items !== undefined) out.push([null], [42])
    if (x.minimum !== undefined) out.push(x.minimum - 1)
    if (x.maximum !== undefined && x.maximum < Number.MAX_SAFE_INTEGER) out.push(x.maximum + 1)
    if (x.type === "integer") out.push(0.5, "1")
    const format = [x, ...(x.allOf ?? [])].map((y) => y.format).find((f) => f !== undefined)
    if (format === "uuid") {
      out.push(
        "not-a-uuid",
        "00000000-0000-4000-8000-00000000000g",
        "00000000000040008000000000000000",
        "{00000000-0000-4000-8000-000000000000}",
        "00000000-0000-4000-8000-0000000000001"
      )
    }
    if (format === "uri") out.push("not a url", "ftp://example.com/x", "javascript:alert(1)", "/relative/path")
    if (format === "email") out.push("no-at-sign", "a@b", "@example.com")
    if (format === "date-time") out.push("tomorrow", "2027-13-45T99:99:99Z", "2027-01-01")
    if (x.pattern !== undefined) out.push("#12345", "#gggggg", "UPPER", "a b", "../x")
    if (x.enum !== undefined)
      out.push(...x.enum.filter((e): e is string => typeof e === "string").map((e) => e.toUpperCase()), "unknown_value")
  }
  return out.filter(rejects)
}
