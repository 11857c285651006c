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
  const last = lines.at(-1) ?? ""
  const at = /^\s*at (\[.*\])$/.exec(last)
  let text = lines.join(" ").replace(/\s+/g, " ").trim()
  if (at !== null) {
    let path: Array<unknown> = []
    try {
      path = JSON.parse(at[1]!) as Array<unknown>
    } catch {
      path = []
    }
    const field = path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("")
    text = `${field}: ${lines.slice(0, -1).join(" ").replace(/\s+/g, " ").trim()}`
  }
  if (/valid JSON/i.test(text)) return "Invalid body: malformed JSON"
  return `Invalid ${where[kind] ?? kind.toLowerCase()}: ${text}`
}

export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (e) =>
  Effect.fail(new BadRequest({ error: describeSchemaError(e.kind, e.cause.message) })))
