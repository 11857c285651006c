/**
 * Per-request facts the outer layers need after the handler ran (who called, the request id).
 * Keyed by the underlying Node request, which stays the same object however the router
 * rewrites the Effect request.
 */
import type { HttpServerRequest } from "effect/http"
import * as crypto from "node:crypto"

export interface RequestMeta {
  /** Made on first use: most responses never need one (only log lines and 500s do). */
  readonly id: string
  userId: string | undefined
}

class Meta implements RequestMeta {
  userId: string | undefined = undefined
  #id: string | undefined
  get id(): string {
    this.#id ??= crypto.randomUUID()
    return this.#id
  }
}

const metas = new WeakMap<object, RequestMeta>()

export const requestMeta = (request: HttpServerRequest.HttpServerRequest): RequestMeta => {
  const key = request.source as object
  let meta = metas.get(key)
  if (meta === undefined) {
    meta = new Meta()
    metas.set(key, meta)
  }
  return meta
}
