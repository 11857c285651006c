import { describe, expect, it } from "vitest"
import { describeSchemaError } from "./RequestErrorsLive.ts"

describe("describeSchemaError", () => {
  it.each([
    ["Payload", 'Expected string\n  at ["title"]', "Invalid body: title: Expected string"],
    [
      "Payload",
      'must be at most 50 characters\n  at ["tags"][0]',
      "Invalid body: tags[0]: must be at most 50 characters"
    ],
    ["Payload", 'Expected string\n  at ["a"]["b"]', "Invalid body: a.b: Expected string"],
    ["Params", 'expected a UUID\n  at ["id"]', "Invalid path: id: expected a UUID"],
    ["Query", 'Missing key\n  at ["q"]', "Invalid query: q: Missing key"],
    ["Payload", "Expected a valid JSON body", "Invalid body: malformed JSON"]
  ])("%s %j", (kind, message, expected) => {
    expect(describeSchemaError(kind, message)).toBe(expected)
  })
})
