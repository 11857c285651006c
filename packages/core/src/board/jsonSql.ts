/**
 * A resource's REST shape written by SQL, from its schema: one description per shape.
 *
 * `jsonObject(Card, "c", computed)` is the SQL expression of card `c`'s JSON text, with the
 * schema's keys in the schema's order. A field whose value is a plain JSON value (a string, an
 * id, a timestamp, an integer, a boolean, a literal, or one of those or null) is by default the
 * column of the same name in snake_case (`dueAt` is `c.due_at`), written as its schema type
 * says; `computed` gives the SQL of the others (an array, an object, a count), and TypeScript
 * refuses a call that leaves one of those out. So a new column-backed field is its schema line
 * and its migration: every statement that writes the shape picks it up.
 *
 * The text must equal JSON.stringify of the schema's encoding byte for byte (boardJson.ts says
 * why): no whitespace, strings escaped as JSON.stringify escapes them (to_json does), timestamps
 * as Date.prototype.toISOString writes them. Hence concat and to_json rather than
 * json_build_object, which puts spaces after colons and commas and costs several times as much.
 */
import type { Schema, SchemaAST } from "effect"

/** An SQL expression whose value is the text of one JSON value. */
export type SqlJson = string

/**
 * A timestamptz as Date.prototype.toISOString writes it: UTC, milliseconds cut (not rounded),
 * as the driver cuts microseconds when it makes a Date.
 */
export const isoSql = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** A text value as a JSON string (to_json escapes it), or null. */
export const stringJson = (column: string): SqlJson => `COALESCE(to_json(${column})::text, 'null')`

/** A uuid (lowercase hex and hyphens: nothing to escape) as a JSON string, or null. */
export const uuidJson = (column: string): SqlJson => `COALESCE('"' || ${column} || '"', 'null')`

/** What comes before the `i`th field's value in an object's text: `{"key":` or `,"key":`. */
const keyText = (key: string, i: number): string => `${i === 0 ? "{" : ","}"${key}":`

/** `{"key":value,…}` from [key, SQL expression of the value's JSON text] pairs. */
export const objectJson = (fields: ReadonlyArray<readonly [string, SqlJson]>): SqlJson =>
  `concat(${fields.map(([key, value], i) => `'${keyText(key, i)}', ${value}`).join(", ")}, '}')`

type Plain = string | number | boolean | null

/**
 * The SQL of a struct's fields: required for each field that is not a plain JSON value (no
 * column can hold it as it is), optional for the others (default: their column).
 */
export type ComputedFields<F extends Schema.Struct.Fields> = {
  readonly [K in keyof F as F[K]["Type"] extends Plain ? never : K]: SqlJson
} & { readonly [K in keyof F]?: SqlJson }

/** The keys of a struct's fields that no column can hold as they are (their SQL must be given). */
export type NeedsSql<F extends Schema.Struct.Fields> = {
  readonly [K in keyof F]: F[K]["Type"] extends Plain ? never : K
}[keyof F]

/** `dueAt` → `due_at`. */
const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

const isIntCheck = (check: SchemaAST.Check<never>): boolean =>
  check._tag === "FilterGroup"
    ? check.checks.some(isIntCheck)
    : (check.annotations as { representation?: { id?: string } } | undefined)?.representation?.id ===
      "effect/schema/isInt"

/**
 * The JSON text of `column` as `ast` encodes it, or undefined when the type is not one a column
 * gives as it is. Strings (ids and timestamps by their `format`), integers (not other numbers:
 * PostgreSQL and JavaScript write some fractions differently), booleans, string literals.
 */
const plainJson = (ast: SchemaAST.AST, column: string): { json: SqlJson; nullSafe: boolean } | undefined => {
  switch (ast._tag) {
    case "String": {
      const format = (ast.annotations as { format?: string } | undefined)?.format
      if (format === "uuid") return { json: uuidJson(column), nullSafe: true }
      if (format === "date-time") return { json: `'"' || ${isoSql(column)} || '"'`, nullSafe: false }
      return { json: stringJson(column), nullSafe: true }
    }
    case "Literal":
      return typeof ast.literal === "string" ? { json: stringJson(column), nullSafe: true } : undefined
    case "Union":
      return ast.types.every((t) => t._tag === "Literal" && typeof t.literal === "string")
        ? { json: stringJson(column), nullSafe: true }
        : undefined
    case "Number":
      return ast.checks?.some(isIntCheck) ? { json: `${column}::text`, nullSafe: false } : undefined
    case "Boolean":
      return { json: `CASE ${column} WHEN true THEN 'true' WHEN false THEN 'false' END`, nullSafe: false }
    default:
      return undefined
  }
}

/** A field's column as JSON text, by its schema type (nullable when the type is `X | null`). */
const columnJson = (name: string, ast: SchemaAST.AST, column: string): SqlJson => {
  const nonNull = ast._tag === "Union" ? ast.types.filter((t) => t._tag !== "Null") : [ast]
  const nullable = nonNull.length < (ast._tag === "Union" ? ast.types.length : 1)
  const value =
    nonNull.length === 1
      ? plainJson(nonNull[0]!, column)
      : nonNull.every((t) => t._tag === "Literal" && typeof t.literal === "string")
        ? { json: stringJson(column), nullSafe: true }
        : undefined
  if (value === undefined)
    throw new Error(`${name}: its schema type is not one a column gives as it is; give its SQL in the computed fields`)
  return nullable && !value.nullSafe ? `COALESCE(${value.json}, 'null')` : value.json
}

/**
 * The JSON text of a row (alias `alias`) in `schema`'s shape: the schema's keys in its order,
 * each the SQL `computed` gives or else its column's. Built once, when a statement is.
 */
export const jsonObject = <F extends Schema.Struct.Fields>(
  schema: Schema.Struct<F>,
  alias: string,
  computed: ComputedFields<F>
): SqlJson => {
  const given = computed as Readonly<Record<string, SqlJson | undefined>>
  const identifier = (schema.ast.annotations as { identifier?: string } | undefined)?.identifier ?? "struct"
  return objectJson(
    Object.entries(schema.fields).map(([key, field]): readonly [string, SqlJson] => [
      key,
      given[key] ?? columnJson(`${identifier}.${key}`, field.ast, `${alias}.${snakeCase(key)}`)
    ])
  )
}

/** A piece of an object's JSON split at its holes: SQL over the row, a constant, or a hole's key. */
type Piece =
  | { readonly kind: "stored"; readonly sql: SqlJson }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "hole"; readonly key: string }

/**
 * A shape's JSON kept in its row, between its holes: the fields whose value changes without the
 * row (a card's position, labels, claim…) are holes, filled at read time; the text between two
 * holes that holds a column's value is one stored part, written when the row is (cardView.ts's
 * `board_card_json` trigger). `parts(alias)` is each stored part's SQL over a row; `assemble`
 * is the object's JSON from the stored parts (`partColumn(i)` names the i-th, 1-based) and the
 * holes' SQL. A run between holes with no column in it is a constant and is not stored.
 */
export const storedObject = <F extends Schema.Struct.Fields, H extends keyof F & string>(
  schema: Schema.Struct<F>,
  holes: ReadonlyArray<H>,
  // TypeScript refuses a call whose holes leave out a field no column can hold (an array, an object)
  ..._everyFieldWithoutAColumnIsAHole: [NeedsSql<F>] extends [H] ? [] : [never]
) => {
  const identifier = (schema.ast.annotations as { identifier?: string } | undefined)?.identifier ?? "struct"
  const layout = (alias: string): Array<Piece> => {
    const pieces: Array<Piece> = []
    let run: Array<SqlJson> = []
    let constant = ""
    let hasColumn = false
    const close = () => {
      if (hasColumn) pieces.push({ kind: "stored", sql: `concat(${run.join(", ")})` })
      else if (constant !== "") pieces.push({ kind: "text", text: constant })
      run = []
      constant = ""
      hasColumn = false
    }
    Object.entries(schema.fields).forEach(([key, field], i) => {
      const prefix = keyText(key, i)
      run.push(`'${prefix}'`)
      constant += prefix
      if ((holes as ReadonlyArray<string>).includes(key)) {
        close()
        pieces.push({ kind: "hole", key })
      } else {
        run.push(columnJson(`${identifier}.${key}`, field.ast, `${alias}.${snakeCase(key)}`))
        hasColumn = true
      }
    })
    run.push("'}'")
    constant += "}"
    close()
    return pieces
  }
  const stored = (alias: string) => layout(alias).flatMap((p) => (p.kind === "stored" ? [p.sql] : []))
  return {
    /** The SQL of each stored part over row `alias`, in order. */
    parts: stored,
    /** How many parts are stored. */
    count: stored("r").length,
    /** The JSON text: the stored parts (`partColumn(i)`, 1-based) with the holes' SQL between. */
    assemble: (partColumn: (i: number) => string, filled: Readonly<Record<H, SqlJson>>): SqlJson => {
      let i = 0
      const args = layout("r").map((p) =>
        p.kind === "stored" ? partColumn(++i) : p.kind === "text" ? `'${p.text}'` : filled[p.key as H]
      )
      return `concat(${args.join(", ")})`
    }
  }
}
