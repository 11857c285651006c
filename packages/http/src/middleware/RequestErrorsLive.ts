import { Effect } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "../errors.ts"
import { RequestErrors } from "./RequestErrors.ts"

const where: Record<string, string> = {
  Params: "path",
  Query: "query",
  Headers: "header",
  Body: "body",
  Payload: "body"
}

/**
 * Schema messages end with `at ["field"]`; put the field first so the person reads
 * `Invalid body: title: must be at most 500 characters`.
 */
export const describeSchemaError = (kind: string, message: string): string => {
  const lines = message.split("\n")
  const at = /^\s*at ((?:\[[^\]]*\])+)$/.exec(lines.at(-1) ?? "")
  let text = lines.join(" ").replace(/\s+/g, " ").trim()
  if (at !== null) {
    // `["tags"][0]["name"]` → `tags[0].name`
    const segments = [...at[1]!.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]!)
    const field = segments
      .map((seg, i) => (/^\d+$/.test(seg) ? `[${seg}]` : `${i === 0 ? "" : "."}${seg.replace(/^"|"$/g, "")}`))
      .join("")
    text = `${field}: ${lines.slice(0, -1).join(" ").replace(/\s+/g, " ").trim()}`
  }
  if (/valid JSON/i.test(text)) return "Invalid body: malformed JSON"
  return `Invalid ${where[kind] ?? kind.toLowerCase()}: ${text}`
}

export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (e) =>
  Effect.fail(new BadRequest({ error: describeSchemaError(e.kind, e.cause.message) }))
)
