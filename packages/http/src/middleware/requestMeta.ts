/**
 * Per-request facts the outer layers need after the handler ran (who called, the request id).
 * Keyed by the underlying Node request, which stays the same object however the router
 * rewrites the Effect request.
 */
import type { HttpServerRequest } from "effect/http"
import * as crypto from "node:crypto"

export interface RequestMeta {
  /** The client's `X-Request-Id` when sane, else a fresh one; made on first use. */
  readonly id: string
  userId: string | undefined
}

/**
 * What an incoming `X-Request-Id` may be to be kept: short, and only characters that are safe
 * in a log line, a header and a URL (a proxy's UUID, a trace id, `req-42:retry.1`).
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The request's id: the client's `X-Request-Id` when sane, else a fresh UUID. */
export const requestIdFrom = (incoming: string | string[] | undefined): string =>
  typeof incoming === "string" && SANE_REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()

class Meta implements RequestMeta {
  userId: string | undefined = undefined
  #id: string | undefined
  readonly #incoming: string | string[] | undefined
  constructor(incoming: string | string[] | undefined) {
    this.#incoming = incoming
  }
  get id(): string {
    this.#id ??= requestIdFrom(this.#incoming)
    return this.#id
  }
}

const metas = new WeakMap<object, RequestMeta>()

export const requestMeta = (request: HttpServerRequest.HttpServerRequest): RequestMeta => {
  const key = request.source as object
  let meta = metas.get(key)
  if (meta === undefined) {
    meta = new Meta(request.headers["x-request-id"])
    metas.set(key, meta)
  }
  return meta
}
