/**
 * The app's one way to the server: the same /api/v1 endpoints every client uses, with the
 * browser's session cookie (sent by the browser, HttpOnly) and, on every state-changing
 * request, the CSRF token the server put in a readable cookie, echoed in `X-CSRF-Token`.
 */

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
 * A request to the API. Every failure becomes an ApiError whose message a person can act on:
 * the server's own `{error}` when it sent one, else what the status means; a network failure
 * (status 0) or a request that took longer than 30 s says so.
 */
export const api = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (body !== undefined) headers["content-type"] = "application/json"
  if (method !== "GET" && method !== "HEAD") {
    const token = csrfToken()
    if (token !== undefined) headers["x-csrf-token"] = token
  }
  let res: Response
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS)
    })
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
  if (res.status === 204) return undefined as T
  try {
    return (await res.json()) as T
  } catch {
    throw new ApiError(res.status, "The server's answer could not be read (cut off or not JSON): try again.")
  }
}
