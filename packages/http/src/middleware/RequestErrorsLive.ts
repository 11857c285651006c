import { schemaMessage } from "@board/core"
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
 * A schema failure as the person reads it, `Invalid body: title: must be at most 500 characters`:
 * where it was, then the field and the rule, in the words every front end gives (`schemaMessage`).
 */
export const describeSchemaError = (kind: string, message: string): string => {
  const text = schemaMessage(message)
  if (/valid JSON/i.test(text)) return "Invalid body: malformed JSON"
  return `Invalid ${where[kind] ?? kind.toLowerCase()}: ${text}`
}

export const RequestErrorsLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (e) =>
  Effect.fail(new BadRequest({ error: describeSchemaError(e.kind, e.cause.message) }))
)
