/**
 * migrations/schema.sql is the schema the migrations make (issue 29): regenerated here from a
 * fresh database and compared, so a migration that lands without `pnpm schema:dump` fails; and
 * the file, run on an empty database, makes that same schema, so it is SQL one can read and run.
 */
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { currentSchema, schemaFile, schemaMadeBy } from "../scripts/schema.ts"

describe("migrations/schema.sql", () => {
  it("is the schema after every migration (else: npx -y pnpm@10 schema:dump)", async () => {
    const checkedIn = fs.existsSync(schemaFile) ? fs.readFileSync(schemaFile, "utf8") : ""
    const fresh = await currentSchema()
    expect(checkedIn, "migrations/schema.sql is stale: run `npx -y pnpm@10 schema:dump` and commit it").toBe(fresh)
    expect(await schemaMadeBy(checkedIn)).toBe(fresh)
  })
})
