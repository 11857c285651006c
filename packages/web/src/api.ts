/**
 * The app's one way to the server: the same /api/v1 endpoints every client uses, typed from the
 * API's own OpenAPI document (lib/api-types.ts, generated: `pnpm api:types`) through
 * openapi-fetch, so a path, a parameter, a body or an answer the server does not have is a type
 * error here. The browser sends the session cookie (HttpOnly); on every state-changing request
 * the CSRF token the server put in a readable cookie is echoed in `X-CSRF-Token`.
 *
 * `api.GET("/v1/cards/{id}", { params: { path: { id } } })` resolves to the answer's body
 * (undefined for a 204) or rejects with an ApiError whose message a person can act on.
 */
import createClient, { type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit } from "openapi-fetch"
import type { paths } from "./lib/api-types.ts"

export class ApiError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

const CSRF_COOKIES = ["__Host-board_csrf", "board_csrf"]

export const csrfToken = (): string | undefined => {
  for (const part of document.cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=")
    if (name !== undefined && CSRF_COOKIES.includes(name)) return decodeURIComponent(rest.join("="))
  }
  return undefined
}

/** Called when the server answers 401: the app shows the sign-in page. */
let onUnauthorized: () => void = () => {}
export const setUnauthorizedHandler = (f: () => void) => {
  onUnauthorized = f
}

/** How long a request may take before the page gives up on it and says so. */
const TIMEOUT_MS = 30_000

/** What a person can do about a status the server gave no message for (a proxy's 502, say). */
const statusText = (status: number): string => {
  if (status === 429) return "Too many requests just now: wait a minute and try again."
  if (status === 503) return "The server is starting or unavailable (HTTP 503): try again in a moment."
  if (status >= 500) return `The server had a problem (HTTP ${status}): try again in a moment.`
  return `The server refused the request (HTTP ${status}).`
}

/**
 * Every request openapi-fetch makes goes through here, so every failure becomes an ApiError: the
 * server's own `{error}` when it sent one, else what the status means; a network failure (status
 * 0) or a request that took longer than 30 s says so. openapi-fetch only ever sees a success.
 */
const send = async (request: Request): Promise<Response> => {
  if (request.method !== "GET" && request.method !== "HEAD") {
    const token = csrfToken()
    if (token !== undefined) request.headers.set("x-csrf-token", token)
  }
  let res: Response
  try {
    res = await fetch(request, { signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch (e) {
    throw new ApiError(
      0,
      e instanceof DOMException && e.name === "TimeoutError"
        ? `The server did not answer within ${TIMEOUT_MS / 1000} seconds: check your connection and try again.`
        : "Could not reach the server: check your connection (or that the server is running) and try again."
    )
  }
  if (res.status === 401) onUnauthorized()
  if (!res.ok) {
    let message: string | undefined
    try {
      const error = (JSON.parse(await res.text()) as { error?: unknown }).error
      if (typeof error === "string" && error.trim() !== "") message = error
    } catch {}
    throw new ApiError(res.status, message ?? statusText(res.status))
  }
  return res
}

// each call passes its own fetch (through `send`), which keeps the status of its answer
const client = createClient<paths>({
  baseUrl: "/api",
  credentials: "same-origin",
  headers: { accept: "application/json" }
})

type Method = "get" | "post" | "patch" | "delete"
type PathOf<M extends Method> = ClientPathsWithMethod<typeof client, M>
/** A success's body; a 204's (no content) is undefined. */
type Data<R> = R extends { data: infer D; error?: never } ? ([D] extends [never] ? undefined : D) : never
type Call<M extends Method> = <P extends PathOf<M>, I extends MaybeOptionalInit<paths[P], M>>(
  path: P,
  ...init: undefined extends I ? [init?: I] : [init: I]
) => Promise<Answer<paths[P][M], I>>
type Answer<Op, I> =
  Op extends Record<string | number, unknown> ? Data<FetchResponse<Op, I, `${string}/${string}`>> : never

const call =
  (method: "GET" | "POST" | "PATCH" | "DELETE") =>
  async (path: string, init?: object): Promise<unknown> => {
    let status = 0
    const fetch = async (request: Request) => {
      const res = await send(request)
      status = res.status
      return res
    }
    try {
      const request = client[method] as (p: string, i?: object) => Promise<{ data?: unknown }>
      return (await request(path, { ...init, fetch })).data
    } catch (e) {
      if (e instanceof ApiError) throw e
      // a success whose body is cut off or not JSON
      throw new ApiError(status, "The server's answer could not be read (cut off or not JSON): try again.")
    }
  }

export const api = {
  GET: call("GET") as Call<"get">,
  POST: call("POST") as Call<"post">,
  PATCH: call("PATCH") as Call<"patch">,
  DELETE: call("DELETE") as Call<"delete">
}
