/**
 * Per-request facts the outer layers need after the handler ran (who called, the request id).
 * Keyed by the underlying Node request, which stays the same object however the router
 * rewrites the Effect request.
 */
import type { HttpServerRequest } from "effect/http"
import * as crypto from "node:crypto"

export interface RequestMeta {
  readonly id: string
  userId: string | undefined
}

const metas = new WeakMap<object, RequestMeta>()

export const requestMeta = (request: HttpServerRequest.HttpServerRequest): RequestMeta => {
  const key = request.source as object
  let meta = metas.get(key)
  if (meta === undefined) {
    meta = { id: crypto.randomUUID(), userId: undefined }
    metas.set(key, meta)
  }
  return meta
}
