/**
 * Inputs are decoded once, at the edge, with the schemas of `domain/inputs.ts`: the HTTP contract
 * decodes a request with them, and every other front end (MCP tools, the natural-language
 * commands) decodes what it was given with `decodeInput`, which answers the same message as the
 * HTTP path's 400 (less its `Invalid body: ` prefix). The core's services take the decoded types,
 * so they hold no hand checks of their own.
 */
import { Effect, Schema } from "effect"
import { InvalidInput } from "./errors.ts"

/**
 * A schema failure's text, field first: Effect's message ends with `at ["field"]`, which becomes
 * `field: message` (`["tags"][0]["name"]` → `tags[0].name`). `field` names a bare value's field.
 */
export const schemaMessage = (message: string, field?: string): string => {
  const lines = message.split("\n")
  const at = /^\s*at ((?:\[[^\]]*\])+)$/.exec(lines.at(-1) ?? "")
  const flat = (ls: ReadonlyArray<string>) => ls.join(" ").replace(/\s+/g, " ").trim()
  if (at === null) return field === undefined ? flat(lines) : `${field}: ${flat(lines)}`
  const segments = [...at[1]!.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)
  const path = segments
    .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : `${i === 0 ? "" : "."}${seg.replace(/^"|"$/g, "")}`))
    .join("")
  return `${field === undefined ? "" : `${field}.`}${path}: ${flat(lines.slice(0, -1))}`
}

// JSON has no undefined: a key a front end set to undefined (an argument left out) is absent
const absentUndefined = (input: unknown): unknown =>
  typeof input === "object" && input !== null && !Array.isArray(input)
    ? Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))
    : input

/**
 * Decodes `input` with `schema` as the HTTP contract would, failing with `InvalidInput` and the
 * contract's message. `field` names the value when the schema is a bare field (a label's name).
 */
export const decodeInput =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, field?: string) =>
  (input: unknown): Effect.Effect<S["Type"], InvalidInput> =>
    Schema.decodeUnknownEffect(schema)(absentUndefined(input)).pipe(
      Effect.mapError((e) => new InvalidInput({ message: schemaMessage(e.message, field) }))
    )
