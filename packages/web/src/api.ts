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

export const api = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (body !== undefined) headers["content-type"] = "application/json"
  if (method !== "GET" && method !== "HEAD") {
    const token = csrfToken()
    if (token !== undefined) headers["x-csrf-token"] = token
  }
  const res = await fetch(`/api${path}`, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  if (res.status === 401) onUnauthorized()
  if (!res.ok) {
    const text = await res.text()
    let message = `HTTP ${res.status}`
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message
    } catch {}
    throw new ApiError(res.status, message)
  }
  if (res.status === 204) return undefined as T
  return (await res.json()) as T
}
