import { HttpApiMiddleware } from "effect/http-api"
import { BadRequest } from "../errors.ts"

/** Turns schema decode failures (path, query, headers, body) into 400 `{error}` naming the field. */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("board/http/RequestErrors", {
  error: BadRequest
}) {}
