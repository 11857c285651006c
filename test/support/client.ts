/** A small fetch wrapper for tests: real HTTP, status, headers and the parsed body. */
export interface Reply<T = any> {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly body: T
}

export interface CallOptions {
  readonly body?: unknown
  readonly raw?: string
  readonly headers?: Record<string, string>
}

export const call = async <T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {}
): Promise<Reply<T>> => {
  const headers: Record<string, string> = { ...options.headers }
  let body: string | undefined
  if (options.raw !== undefined) body = options.raw
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers["content-type"] ??= "application/json"
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: "manual" })
  // an event stream never ends: its status and headers are the answer (test/events-stream.test.ts reads streams)
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    await res.body?.cancel()
    return { status: res.status, headers: res.headers, text: "", body: undefined as T }
  }
  const text = await res.text()
  let parsed: unknown
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.status, headers: res.headers, text, body: parsed as T }
}

export const key = (apiKey: string) => ({ "x-api-key": apiKey })
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** The password of every account the suites sign up (the secrets check looks for it). */
export const SUITE_PASSWORD = "correct horse battery"

let counter = 0
export const uniqueEmail = (label = "user") =>
  `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}@example.com`

export interface Account {
  readonly email: string
  readonly userId: string
  readonly session: string
  readonly apiKey: string
  readonly workspaceId: string
  readonly projectId: string
  readonly columns: ReadonlyArray<{ id: string; name: string }>
}

/** SPEC.md's bootstrap sequence: signup, workspace, kanban project, API key. */
export const bootstrap = async (baseUrl: string, label = "user", projectName = "Website"): Promise<Account> => {
  const email = uniqueEmail(label)
  const signup = await call(baseUrl, "POST", "/v1/auth/signup", {
    body: { email, password: SUITE_PASSWORD, full_name: label }
  })
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.text}`)
  const session = signup.body.session.access_token as string
  const ws = await call(baseUrl, "POST", "/v1/workspaces", {
    body: { name: `${label}'s workspace` },
    headers: bearer(session)
  })
  const project = await call(baseUrl, "POST", "/v1/projects", {
    body: { workspaceId: ws.body.workspace.id, name: projectName, template: "kanban" },
    headers: bearer(session)
  })
  const apiKey = await call(baseUrl, "POST", "/v1/api-keys", { body: { name: "tests" }, headers: bearer(session) })
  return {
    email,
    userId: signup.body.user.id,
    session,
    apiKey: apiKey.body.rawKey,
    workspaceId: ws.body.workspace.id,
    projectId: project.body.project.id,
    columns: project.body.columns
  }
}
