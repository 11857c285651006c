/**
 * One line per request (method, path without the query, status, duration, user id): JSON when
 * not on a terminal. Written directly rather than through Effect's request logger, which halves
 * throughput (stack-notes §3). Credentials travel only in headers, but a client may paste one
 * into a path by mistake: anything shaped like a token or a JWT is masked before it is written.
 */
import type { LogLevelName } from "@board/core"
import { Effect } from "effect"
import type { RequestMeta } from "./requestMeta.ts"

const SECRET_SHAPES = /svc_[0-9A-Za-z_]{20,}|eyJ[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+\.[0-9A-Za-z_-]+/g
export const maskSecrets = (text: string): string =>
  text.replace(SECRET_SHAPES, (m) => `${m.slice(0, m.startsWith("svc_") ? 4 : 3)}…[masked]`)

const rank: Record<LogLevelName, number> = { debug: 10, info: 20, warn: 30, error: 40 }

export interface RequestLogger {
  /** False when the level leaves request lines off: callers then skip the clock and the meta. */
  readonly enabled: boolean
  readonly request: (meta: RequestMeta, method: string, path: string, status: number, ms: number) => void
  readonly error: (requestId: string, method: string, path: string, detail: string) => Effect.Effect<void>
}

export const makeRequestLogger = (options: {
  readonly level: LogLevelName
  readonly format: "json" | "pretty"
  readonly write?: (line: string) => void
}): RequestLogger => {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`))
  const infoOn = rank[options.level] <= rank.info
  return {
    enabled: infoOn,
    request: (meta, method, rawPath, status, ms) => {
      if (!infoOn) return
      const path = rawPath.includes("svc_") || rawPath.includes("eyJ") ? maskSecrets(rawPath) : rawPath
      const durationMs = Math.round(ms * 100) / 100
      write(
        options.format === "json"
          ? JSON.stringify({
              time: new Date().toISOString(),
              level: "info",
              msg: "request",
              requestId: meta.id,
              method,
              path,
              status,
              durationMs,
              userId: meta.userId ?? null
            })
          : `${new Date().toISOString()} ${method} ${path} ${status} ${durationMs}ms${meta.userId ? ` user=${meta.userId}` : ""}`
      )
    },
    error: (requestId, method, rawPath, rawDetail) =>
      Effect.sync(() => {
        const path = maskSecrets(rawPath)
        const detail = maskSecrets(rawDetail)
        write(
          options.format === "json"
            ? JSON.stringify({
                time: new Date().toISOString(),
                level: "error",
                msg: "request failed",
                requestId,
                method,
                path,
                cause: detail
              })
            : `${new Date().toISOString()} ERROR ${method} ${path} request=${requestId}\n${detail}`
        )
      })
  }
}
