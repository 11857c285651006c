/**
 * jsonSql.ts: the JSON text a schema's SQL writes equals JSON.stringify of the schema's encoding,
 * byte for byte, for every kind of field it derives from a column (and their nulls), with
 * strings that need escaping and timestamps with microseconds; keys in the schema's order.
 */
import { PGlite } from "@electric-sql/pglite"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { jsonObject, storedObject } from "./jsonSql.ts"

const Level = Schema.Literals(["low", "high"])
const Thing = Schema.Struct({
  id: Schema.String.annotate({ format: "uuid" }),
  name: Schema.String,
  note: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  at: Schema.String.annotate({ format: "date-time" }),
  dueAt: Schema.NullOr(Schema.String.annotate({ format: "date-time" })),
  count: Schema.Int,
  maybeCount: Schema.NullOr(Schema.Int),
  done: Schema.Boolean,
  maybeDone: Schema.NullOr(Schema.Boolean),
  level: Level,
  maybeLevel: Schema.NullOr(Level)
})

describe("a schema's JSON written by SQL", () => {
  let db: PGlite
  beforeAll(async () => {
    db = await PGlite.create()
    await db.exec(`CREATE TABLE t (id uuid, name text, note text, at timestamptz, due_at timestamptz, count int,
      maybe_count int, done boolean, maybe_done boolean, level text, maybe_level text)`)
    await db.query(
      `INSERT INTO t VALUES
      ('0b0e5bb4-5c4b-4c53-9a7c-1f6a3a0c0001', $1, $2, '2024-02-29T23:59:59.999999Z', '2031-01-01T00:00:00.0005+05:30',
        -7, 2147483647, true, false, 'low', 'high'),
      ('0b0e5bb4-5c4b-4c53-9a7c-1f6a3a0c0002', 'plain', NULL, '2026-03-04T05:06:07Z', NULL, 0, NULL, false, NULL, 'high', NULL)`,
      ['quotes " \\ newline\n tab\t \u0001 \u001f ünï 😀 \u2028 </script>', ""]
    )
  })
  afterAll(() => db?.close())

  it("equals JSON.stringify of the schema's encoding, keys in the schema's order", async () => {
    // computed fields given out of order: the schema decides the order
    const sql = jsonObject(Thing, "t", { tags: `'["a","b"]'`, count: "(t.count * 2)::text" })
    const { rows } = await db.query<{ j: string; r: any }>(`SELECT ${sql} AS j, to_json(t) AS r FROM t ORDER BY id`)
    expect(rows).toHaveLength(2)
    for (const { j, r } of rows) {
      const iso = (v: string | null) => (v === null ? null : new Date(v).toISOString())
      const expected = Schema.encodeSync(Thing)({
        id: r.id,
        name: r.name,
        note: r.note,
        tags: ["a", "b"],
        at: iso(r.at)!,
        dueAt: iso(r.due_at),
        count: r.count * 2,
        maybeCount: r.maybe_count,
        done: r.done,
        maybeDone: r.maybe_done,
        level: r.level,
        maybeLevel: r.maybe_level
      })
      expect(j).toBe(JSON.stringify(expected))
    }
    expect(rows[0]!.j).toContain('"at":"2024-02-29T23:59:59.999Z"')
    expect(rows[0]!.j).toContain('"dueAt":"2030-12-31T18:30:00.000Z"')
  })

  it("keeps the same text in stored parts with the holes filled at read time", async () => {
    // holes first, in the middle, side by side and last: every kind of run between them
    for (const holes of [
      ["id", "tags", "count", "maybeLevel"],
      ["tags"],
      ["tags", "at", "dueAt"],
      ["tags", "note", "done"]
    ] as const) {
      const shape = storedObject(Thing, holes as ReadonlyArray<"tags">)
      const filled: Record<string, string> = {
        id: `'"hole-id"'`,
        tags: `'["a"]'`,
        count: "(t.count + 1)::text",
        maybeLevel: `'"low"'`,
        at: `'"then"'`,
        dueAt: "'null'",
        note: `'"n"'`,
        done: "'true'"
      }
      const parts = shape.parts("t")
      expect(parts).toHaveLength(shape.count)
      const stored = `SELECT t.id, ${parts.map((p, i) => `${p} AS p${i + 1}`).join(", ")} FROM t`
      const whole = jsonObject(Thing, "t", Object.fromEntries(holes.map((h) => [h, filled[h]!])) as { tags: string })
      const { rows } = await db.query<{ a: string; b: string }>(
        `SELECT ${shape.assemble((i) => `s.p${i}`, filled as Record<"tags", string>)} AS a, ${whole} AS b
         FROM (${stored}) s JOIN t ON t.id = s.id ORDER BY t.id`
      )
      expect(rows).toHaveLength(2)
      for (const { a, b } of rows) expect(a).toBe(b)
    }
  })

  it("refuses a field it cannot derive from a column without its SQL", () => {
    // TypeScript refuses an array (or object) field left out; so does the builder at run time
    // @ts-expect-error `tags` has no SQL
    expect(() => jsonObject(Thing, "t", {})).toThrow(/tags: its schema type is not one a column gives/)
    // and a stored shape whose holes leave it out
    // @ts-expect-error `tags` is not among the holes
    expect(() => storedObject(Thing, ["count"])).toThrow(/tags: its schema type is not one a column gives/)
    // a fraction: PostgreSQL and JavaScript write some differently, so it is never derived
    expect(() => jsonObject(Schema.Struct({ ratio: Schema.Number }), "t", {})).toThrow(/ratio/)
  })
})
