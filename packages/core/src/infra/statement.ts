/**
 * Statements with named parameters, their rows decoded by a schema (Effect's SqlSchema).
 *
 * The long one-statement writes are built once, as text, by functions that splice SQL
 * fragments; their parameters used to be positional `$n` slots that every caller had to pass
 * in order. `statement` builds the text from a function of named slots instead: each name
 * becomes the next `$n` the first time the text uses it, and the caller passes `{name: value}`,
 * checked by TypeScript (a name the text does not use is never sent: PostgreSQL could not type it).
 */
import { Effect, Schema } from "effect"
import { type SqlClient, type SqlError, SqlSchema } from "effect/sql"

/** Statement text with its parameters' names, in slot order. */
export interface Statement<P> {
  readonly text: string
  readonly names: ReadonlyArray<keyof P & string>
}

/** The statement `build` writes, given each parameter's slot (`$n`) by name. */
export const statement = <P extends object>(
  build: (slot: { readonly [K in keyof P]-?: string }) => string
): Statement<P> => {
  const names: Array<string> = []
  const slots = new Proxy(
    {},
    {
      get: (_, name) => {
        if (typeof name !== "string") throw new Error("statement: a parameter is named by a string")
        let i = names.indexOf(name)
        if (i < 0) i = names.push(name) - 1
        return `$${i + 1}`
      }
    }
  ) as { readonly [K in keyof P]-?: string }
  return { text: build(slots), names: names as Array<keyof P & string> }
}

/** The positional values of `values`, in the statement's slot order. */
export const paramsOf = <P>(s: Statement<P>, values: P): Array<unknown> => s.names.map((name) => values[name])

/** The parameters as they are: TypeScript has checked them, the database checks them again. */
const Params = <P>() => Schema.declare((u: unknown): u is P => typeof u === "object" && u !== null)

/**
 * Runs `s` with named values and decodes every row by `Result`. A row the schema refuses is a
 * defect (the statement and the schema disagree); a database error stays in the error channel.
 */
export const findAll = <P extends object, Res extends Schema.Top & { readonly DecodingServices: never }>(
  sql: SqlClient.SqlClient,
  s: Statement<P>,
  Result: Res
): ((values: P) => Effect.Effect<Array<Res["Type"]>, SqlError.SqlError>) => {
  const run = SqlSchema.findAll({
    Request: Params<P>(),
    Result,
    execute: (p) => sql.unsafe(s.text, paramsOf(s, p as P))
  })
  return (values) => run(values).pipe(Effect.catchTag("SchemaError", (e) => Effect.die(e)))
}

/**
 * `findAll` for a statement that always answers one row (an aggregate, a SELECT without FROM):
 * its row, decoded; no row is a defect.
 */
export const findOne = <P extends object, Res extends Schema.Top & { readonly DecodingServices: never }>(
  sql: SqlClient.SqlClient,
  s: Statement<P>,
  Result: Res
): ((values: P) => Effect.Effect<Res["Type"], SqlError.SqlError>) => {
  const run = SqlSchema.findOne({
    Request: Params<P>(),
    Result,
    execute: (p) => sql.unsafe(s.text, paramsOf(s, p as P))
  })
  return (values) =>
    run(values).pipe(Effect.catchTags({ SchemaError: (e) => Effect.die(e), NoSuchElementError: (e) => Effect.die(e) }))
}
