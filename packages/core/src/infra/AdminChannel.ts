/**
 * The embedded database's owner runs other processes' work for them. PGlite has one session and
 * only the server may use it (Database.ts), so `board migrate` and `board desktop publish` run
 * beside a server send their operation here, over a unix socket in DATA_DIR readable by its
 * owner only (the lock file names it), and the server runs it on its own connection, queued
 * between its transactions like any request.
 *
 * The protocol is one JSON request line per connection, answered by JSON lines: zero or more
 * `{"progress": …}` and one final `{"ok": true, "value": …}` or `{"ok": false, "tag", "message"}`.
 */
import { Context, Effect, Exit, Layer, Schema, Cause } from "effect"
import * as fs from "node:fs"
import * as net from "node:net"
import type { PasswordResetLink } from "../auth/PasswordResets.ts"
import type { PublishedRelease, PublishProgress } from "../desktop/publish.ts"
import { adminSocketPath } from "./dataDirSockets.ts"

export const AdminRequest = Schema.Union([
  Schema.Struct({ op: Schema.Literal("migrate") }),
  /** Dump the database to `file` (an absolute path the server may write). */
  Schema.Struct({ op: Schema.Literal("backup"), file: Schema.String }),
  /** A password reset link for the account with `email` (auth/PasswordResets.ts), printed instead of mailed. */
  Schema.Struct({ op: Schema.Literal("reset-password"), email: Schema.String }),
  Schema.Struct({
    op: Schema.Literal("publish"),
    platform: Schema.String,
    version: Schema.String,
    notes: Schema.String,
    files: Schema.Array(Schema.String),
    force: Schema.Boolean,
    /** Where the command's own settings would store the files (operatorTarget.describeFiles). */
    store: Schema.String
  })
])
export type AdminRequest = typeof AdminRequest.Type

/** What each operation answers. */
export interface AdminAnswers {
  readonly migrate: ReadonlyArray<readonly [number, string]>
  /** Bytes written. */
  readonly backup: number
  readonly "reset-password": PasswordResetLink
  /** The release, and where the server stored its files. */
  readonly publish: { readonly release: PublishedRelease; readonly files: string }
}

/** A failure the owner reported: the tag of the domain error (InvalidInput, Conflict…) and its message. */
export class AdminFailure extends Error {
  readonly tag: string
  constructor(tag: string, message: string) {
    super(message)
    this.tag = tag
  }
}

/**
 * The operations, as the owner runs them. `progress` streams publish progress to the caller.
 * Provided by the server's composition, which has the services they need.
 */
export class AdminOperations extends Context.Service<
  AdminOperations,
  {
    readonly migrate: () => Effect.Effect<AdminAnswers["migrate"], unknown>
    readonly backup: (file: string) => Effect.Effect<AdminAnswers["backup"], unknown>
    readonly resetPassword: (email: string) => Effect.Effect<AdminAnswers["reset-password"], unknown>
    readonly publish: (
      input: Extract<AdminRequest, { op: "publish" }>,
      progress: (p: PublishProgress) => void
    ) => Effect.Effect<AdminAnswers["publish"], unknown>
  }
>()("board/core/AdminOperations") {}

const decodeRequest = Schema.decodeUnknownExit(Schema.fromJsonString(AdminRequest))

const failureLine = (e: unknown): string => {
  const tag = typeof e === "object" && e !== null && "_tag" in e ? String((e as { _tag: unknown })._tag) : "Error"
  const message =
    e instanceof Error || (typeof e === "object" && e !== null && "message" in e)
      ? String((e as { message: unknown }).message)
      : String(e)
  return `${JSON.stringify({ ok: false, tag, message })}\n`
}

/** One connection: read the request line, run it, answer, close. */
const serve = (socket: net.Socket, run: (request: AdminRequest, write: (line: string) => void) => Promise<unknown>) => {
  let buffer = ""
  socket.setEncoding("utf8")
  socket.on("error", () => {})
  // a client that connects and never sends its request must not hold the channel (or a stop)
  socket.setTimeout(10_000, () => socket.destroy())
  socket.on("data", (chunk: string) => {
    buffer += chunk
    const end = buffer.indexOf("\n")
    if (end === -1) {
      if (buffer.length > 64 * 1024) socket.end(failureLine(new Error("request too long")))
      return
    }
    socket.removeAllListeners("data")
    socket.setTimeout(0)
    const decoded = decodeRequest(buffer.slice(0, end))
    if (Exit.isFailure(decoded)) {
      socket.end(failureLine(new Error(`not an admin request: ${Cause.pretty(decoded.cause).split("\n")[0]}`)))
      return
    }
    const write = (line: string) => {
      if (socket.writable) socket.write(line)
    }
    run(decoded.value, write).then(
      (value) => socket.end(`${JSON.stringify({ ok: true, value })}\n`),
      (e) => socket.end(failureLine(e))
    )
  })
}

/**
 * Listens on the admin socket while the scope is open. The socket file is created with mode
 * 0600: the file system decides who may run operator commands, as it does for DATA_DIR itself.
 */
export const layerAdminChannel = (dataDir: string) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const operations = yield* AdminOperations
      const context = yield* Effect.context<never>()
      const runPromiseExit = Effect.runPromiseExitWith(context)
      const run = (request: AdminRequest, write: (line: string) => void): Promise<unknown> => {
        const operation: Effect.Effect<unknown, unknown> =
          request.op === "migrate"
            ? operations.migrate()
            : request.op === "backup"
              ? operations.backup(request.file)
              : request.op === "reset-password"
                ? operations.resetPassword(request.email)
                : operations.publish(request, (progress) => write(`${JSON.stringify({ progress })}\n`))
        return runPromiseExit(operation).then((exit) =>
          Exit.isSuccess(exit) ? exit.value : Promise.reject(Cause.squash(exit.cause))
        )
      }
      const file = adminSocketPath(dataDir)
      const open = new Set<net.Socket>()
      yield* Effect.acquireRelease(
        Effect.callback<net.Server, Error>((resume) => {
          // the lock held by this process makes any socket file left here a dead one
          fs.rmSync(file, { force: true })
          const server = net.createServer((socket) => {
            open.add(socket)
            socket.once("close", () => open.delete(socket))
            serve(socket, run)
          })
          server.once("error", (e) => resume(Effect.fail(e)))
          server.listen(file, () => {
            // the owner only (DATA_DIR itself is 0700 as well)
            fs.chmodSync(file, 0o600)
            resume(Effect.succeed(server))
          })
        }),
        (server) =>
          Effect.callback<void>((resume) => {
            server.close(() => resume(Effect.void))
            // an operation still running answers nothing more: its client says the server stopped
            for (const socket of open) socket.destroy()
            fs.rmSync(file, { force: true })
          })
      )
    })
  )

/**
 * Sends one operation to the owner of the data directory and waits for its answer. A server
 * that holds the lock but is still starting (migrating) has no admin socket yet: the call waits
 * for it up to `waitMs`. Fails with `AdminFailure` when the owner reports one.
 */
export const callAdmin = async <R extends AdminRequest>(
  socketPath: string,
  request: R,
  onProgress?: (progress: PublishProgress) => void,
  waitMs = 30_000
): Promise<AdminAnswers[R["op"]]> => {
  const deadline = Date.now() + waitMs
  for (;;) {
    try {
      return await callOnce(socketPath, request, onProgress)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if ((code !== "ENOENT" && code !== "ECONNREFUSED") || Date.now() > deadline) throw e
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}

const callOnce = <R extends AdminRequest>(
  socketPath: string,
  request: R,
  onProgress?: (progress: PublishProgress) => void
): Promise<AdminAnswers[R["op"]]> =>
  new Promise((resolve, reject) => {
    const socket = net.connect({ path: socketPath })
    let buffer = ""
    let settled = false
    const settle = (f: () => void) => {
      if (settled) return
      settled = true
      f()
    }
    socket.setEncoding("utf8")
    socket.on("connect", () => socket.write(`${JSON.stringify(request)}\n`))
    socket.on("data", (chunk: string) => {
      buffer += chunk
      for (let end = buffer.indexOf("\n"); end !== -1; end = buffer.indexOf("\n")) {
        let line:
          | { progress: PublishProgress }
          | { ok: true; value: AdminAnswers[R["op"]] }
          | { ok: false; tag: string; message: string }
        try {
          line = JSON.parse(buffer.slice(0, end))
        } catch {
          socket.destroy()
          return settle(() => reject(new Error("the server's admin channel answered something that is not JSON")))
        }
        buffer = buffer.slice(end + 1)
        if ("progress" in line) onProgress?.(line.progress)
        else if (line.ok) settle(() => resolve(line.value))
        else settle(() => reject(new AdminFailure(line.tag, line.message)))
      }
    })
    socket.on("error", (e) => settle(() => reject(e)))
    socket.on("close", () =>
      settle(() => reject(new Error("the server closed the admin channel without answering (did it stop?)")))
    )
  })
