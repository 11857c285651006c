/**
 * One line per request (method, path without the query, status, duration, user id): JSON when
 * not on a terminal. Written directly rather than through Effect's request logger, which halves
 * throughput (stack-notes §3). Paths carry no secrets: credentials travel only in headers.
 */
import type { LogLevelName } from "@board/core"
import { Effect } from "effect"
import type { RequestMeta } from "./requestMeta.ts"

const rank: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface RequestLogger {
  readonly request: (meta: RequestMeta, method: string, path: string, status: number, ms: number) => void
  readonly error: (requestId: string, method: string, path: string, detail: string) => Effect.Effect<void>
}

export const makeRequestLogger = (options: {
  readonly level: LogLevelName
  readonly format: "json" | "pretty"
  readonly write?: (line: string) => void
}): RequestLogger => {
  const write = options.write ?? ((line: string) => process.stdout.write(line + "\n"))
  const infoOn = rank[options.level] <= rank.info
  return {
    request: (meta, method, path, status, ms) => {
      if (!infoOn) return
      const durationMs = Math.round(ms * 100) / 100
      write(options.format === "json"
        ? JSON.stringify({ time: new Date().toISOString(), level: "info", msg: "request", requestId: meta.id, method, path, status, durationMs, userId: meta.userId ?? null })
        : `${new Date().toISOString()} ${method} ${path} ${status} ${durationMs}ms${meta.userId ? ` user=${meta.userId}` : ""}`)
    },
    error: (requestId, method, path, detail) =>
      Effect.sync(() =>
        write(options.format === "json"
          ? JSON.stringify({ time: new Date().toISOString(), level: "error", msg: "request failed", requestId, method, path, cause: detail })
          : `${new Date().toISOString()} ERROR ${method} ${path} request=${requestId}\n${detail}`)
      )
  }
}
