/**
 * Issue 29: the web app is typed from the API's own OpenAPI document. Its types
 * (packages/web/src/lib/api-types.ts) are checked in; this fails when they no longer match the
 * document the server builds, which is what a new or changed endpoint does until
 * `pnpm api:types` is run.
 */
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { webApiTypes, webApiTypesFile } from "../scripts/web-api-types.ts"

describe("the web app's API types", () => {
  it("are what scripts/web-api-types.ts generates from today's OpenAPI document (else: pnpm api:types)", async () => {
    const generated = await webApiTypes()
    // the document's own names: the resources, the web app's credential, the board's cursor
    expect(generated).toMatch(/^ {4}Card: \{$/m)
    expect(generated).toMatch(/credential: "apiKey" \| "oauth" \| "session" \| "intake" \| "browser"/)
    expect(generated).toMatch(/eventCursor: string/)
    const current = fs.readFileSync(webApiTypesFile, "utf8")
    // not toBe: a diff of 7,000 lines says less than the command that fixes it
    expect(current === generated, "packages/web/src/lib/api-types.ts is stale: run `pnpm api:types`").toBe(true)
  })
})
