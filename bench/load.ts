/**
 * One measured load run with autocannon: fixed connections for a fixed duration, latencies
 * recorded per response (sub-millisecond, all statuses), non-2xx counted and sampled.
 */
import autocannon from "autocannon"

export interface LoadRequest {
  readonly method?: "GET" | "POST" | "PATCH" | "DELETE"
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string
  /** Called for every request sent; returns the request to send (e.g. a fresh body). */
  readonly setupRequest?: (request: autocannon.Request) => autocannon.Request
}

export interface LoadSpec {
  /** Origin of the process under test, e.g. http://127.0.0.1:1234 */
  readonly origin: string
  readonly connections: number
  readonly durationSeconds: number
  /** Builds the request sequence; called once per run so counters start fresh. */
  readonly requests: () => ReadonlyArray<LoadRequest>
  /** Per-connection requests (e.g. each connection owns one card); overrides `requests`. */
  readonly perConnection?: (connectionIndex: number) => ReadonlyArray<LoadRequest>
}

export interface LoadResult {
  readonly responses: number
  readonly elapsedSeconds: number
  readonly rps: number
  readonly p50: number
  readonly p90: number
  readonly p99: number
  readonly max: number
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  readonly statusCodes: Record<string, number>
  /** Up to five distinct non-2xx responses: request line, status and the start of the body. */
  readonly samples: ReadonlyArray<string>
}

/** One measured load of any kind: autocannon over HTTP, or pgbench (or a driver loop) against PostgreSQL. */
export interface Driven {
  readonly result: LoadResult
  /** CPU seconds of a load-generating child process (pgbench), which this process's own CPU figure misses. */
  readonly childCpuSeconds?: number
}
export type Drive = (durationSeconds: number) => Promise<Driven>

let active: autocannon.Instance | undefined

/** Stops a running load (cleanup on failure or signal). */
export const stopActiveLoad = () => {
  try {
    active?.stop()
  } catch {
    // already stopped
  }
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

/** p50, p90, p99 and max of latencies in milliseconds (NaN when there are none). */
export const latencyFigures = (latencies: ReadonlyArray<number>): Pick<LoadResult, "p50" | "p90" | "p99" | "max"> => {
  const sorted = Float64Array.from(latencies).sort()
  return {
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length > 0 ? sorted[sorted.length - 1]! : NaN
  }
}

export const runLoad = async (spec: LoadSpec): Promise<LoadResult> => {
  const samples: Array<string> = []
  const seen = new Set<string>()
  const withSampling = (reqs: ReadonlyArray<LoadRequest>): Array<autocannon.Request> =>
    reqs.map((r) => {
      let lastLine = `${r.method ?? "GET"} ${r.path}`
      const setup = (request: autocannon.Request) => {
        const out = r.setupRequest ? r.setupRequest(request) : request
        lastLine = `${out.method ?? "GET"} ${out.path ?? r.path}${typeof out.body === "string" ? ` ${out.body.slice(0, 200)}` : ""}`
        return out
      }
      return {
        method: r.method ?? "GET",
        path: r.path,
        headers: r.headers ?? {},
        ...(r.body !== undefined ? { body: r.body } : {}),
        ...(r.setupRequest !== undefined ? { setupRequest: setup } : {}),
        onResponse: (status: number, body: string) => {
          if (status >= 200 && status < 300) return
          const key = `${status} ${body.slice(0, 120)}`
          if (seen.has(key) || samples.length >= 5) return
          seen.add(key)
          samples.push(`${lastLine} -> ${status} ${body.slice(0, 400)}`)
        }
      } as autocannon.Request
    })

  const latencies: Array<number> = []
  let connectionIndex = 0
  const perConnection = spec.perConnection
  const options: autocannon.Options = {
    url: spec.origin,
    connections: spec.connections,
    duration: spec.durationSeconds,
    // autocannon notices the end of the duration only at its sampling tick (1 s by default): a
    // run shorter than a second (the smoke run's) ticks faster, or it would last a whole second
    ...(spec.durationSeconds < 1 ? { sampleInt: 50 } : {}),
    timeout: 10,
    requests: withSampling(spec.requests()),
    ...(perConnection !== undefined
      ? {
          setupClient: (client: autocannon.Client) => client.setRequests(withSampling(perConnection(connectionIndex++)))
        }
      : {})
  }
  const started = performance.now()
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err, res) => (err ? reject(err) : resolve(res)))
    active = instance
    ;(instance as unknown as NodeJS.EventEmitter).on(
      "response",
      (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
        latencies.push(responseTime)
      }
    )
    // a hard bound in case a connection hangs past the duration
    const guard = setTimeout(() => instance.stop(), (spec.durationSeconds + 30) * 1000)
    guard.unref()
  }).finally(() => {
    active = undefined
  })
  const elapsedSeconds = result.duration > 0 ? result.duration : (performance.now() - started) / 1000
  const statusCodes: Record<string, number> = {}
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat?.count ?? 0
  return {
    responses: latencies.length,
    elapsedSeconds,
    rps: latencies.length / elapsedSeconds,
    ...latencyFigures(latencies),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    samples
  }
}
