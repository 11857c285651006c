/** A minimal JSON client for seeding through the real API. */

export interface Credentials {
  readonly bearer?: string
  readonly apiKey?: string
}

export class ApiError extends Error {}

export const makeApi = (baseUrl: string) => {
  const call = async <T>(
    method: string,
    path: string,
    options: { body?: unknown; auth?: Credentials; expect?: ReadonlyArray<number> } = {}
  ): Promise<T> => {
    const headers: Record<string, string> = { accept: "application/json" }
    if (options.body !== undefined) headers["content-type"] = "application/json"
    if (options.auth?.bearer !== undefined) headers.authorization = `Bearer ${options.auth.bearer}`
    if (options.auth?.apiKey !== undefined) headers["x-api-key"] = options.auth.apiKey
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(30_000)
    })
    const text = await res.text()
    const expect = options.expect ?? [200, 201]
    if (!expect.includes(res.status)) {
      throw new ApiError(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`)
    }
    return (text === "" ? undefined : JSON.parse(text)) as T
  }
  return { call }
}

export type Api = ReturnType<typeof makeApi>
