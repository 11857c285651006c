/**
 * The SQL client: PostgreSQL at DATABASE_URL, or embedded PGlite in DATA_DIR reached through
 * the same driver over a unix socket (one dialect, one set of migrations). The embedded
 * database belongs to one process; other commands reach it through the owner's socket.
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import type { AppConfigValues } from "../Config.ts"
import { acquireDataDirLock, readLiveLock } from "./DataDirLock.ts"

// pglite-socket multiplexes every connection onto ONE backend session and interleaves their
// messages: two pooled connections running transactions at once desynchronise the protocol
// and see each other's uncommitted state. One connection gives true one-session semantics:
// transactions queue for it, as they would for PGlite's single backend anyway.
const EMBEDDED_CONNECTIONS = 1

const socketPathFor = (dataDir: string): string => {
  if (dataDir === "memory:") {
    return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "board-mem-")), ".s.PGSQL.5432")
  }
  const candidate = path.join(path.resolve(dataDir), ".s.PGSQL.5432")
  // unix socket paths are limited to about 107 bytes
  if (Buffer.byteLength(candidate) <= 100) return candidate
  const hash = crypto.createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16)
  return path.join(os.tmpdir(), `board-${hash}.sock`)
}

/** Starts PGlite and its socket server, owning DATA_DIR until the scope closes. */
export const startEmbedded = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        // loaded only here: a server on PostgreSQL never pays PGlite's memory or start-up
        const [{ PGlite }, { pg_trgm }, { PGLiteSocketServer }] = await Promise.all([
          import("@electric-sql/pglite"),
          import("@electric-sql/pglite/contrib/pg_trgm"),
          import("@electric-sql/pglite-socket")
        ])
        const socket = socketPathFor(dataDir)
        const releaseLock = dataDir === "memory:" ? () => {} : acquireDataDirLock(dataDir, socket)
        try {
          fs.rmSync(socket, { force: true })
          const db =
            dataDir === "memory:"
              ? await PGlite.create({ extensions: { pg_trgm } })
              : await PGlite.create(path.join(path.resolve(dataDir), "pgdata"), { extensions: { pg_trgm } })
          const server = new PGLiteSocketServer({ db, path: socket, maxConnections: EMBEDDED_CONNECTIONS + 4 })
          await server.start()
          return { socket, db, server, releaseLock }
        } catch (e) {
          releaseLock()
          throw e
        }
      },
      catch: (cause) => (cause instanceof Error ? cause : new Error(String(cause)))
    }),
    ({ db, releaseLock, server, socket }) =>
      Effect.promise(async () => {
        await server.stop().catch(() => {})
        await db.close().catch(() => {})
        fs.rmSync(socket, { force: true })
        if (socket.includes(`${path.sep}board-mem-`)) fs.rmSync(path.dirname(socket), { recursive: true, force: true })
        releaseLock()
      })
  )

const clientOverSocket = (socket: string) =>
  PgClient.make({ path: socket, username: "postgres", database: "postgres", maxConnections: EMBEDDED_CONNECTIONS })

/**
 * The client for hot single-statement reads made outside any transaction (a card, a board, a
 * search page). On PostgreSQL it is its own small pool that pipelines statements from many
 * requests into one socket write (sql-pg's `multiplex`): one write and one wake-up of the
 * backend for many reads, where the main pool pays a round trip each. Writes and transactions
 * stay on the main pool, where pipelining would queue autocommits behind one WAL flush each.
 * On the embedded database it is the one session, like everything else.
 */
export class ReadSql extends Context.Service<ReadSql, SqlClient.SqlClient>()("board/core/ReadSql") {}

/** Connections of the read pool; each carries up to 32 pipelined statements. */
const READ_CONNECTIONS = 4

/**
 * A TCP connection to PostgreSQL whose writes within one turn of the event loop leave as one
 * write. sql-pg's multiplexing coalesces the statements queued in one microtask, but each
 * request arrives in its own callback, so without this every pipelined read was still a write
 * (a system call and a wake-up of the backend) of its own. Corked at the first write of a turn,
 * uncorked once the turn's I/O callbacks have run (setImmediate): statements from every request
 * read in that turn go together, for one turn of latency.
 */
const coalescingSocket = (host: string, port: number) => (): net.Socket => {
  const socket = net.connect({ host, port, noDelay: true })
  const write = socket.write.bind(socket) as (...args: Array<unknown>) => boolean
  let corked = false
  const uncork = () => {
    corked = false
    socket.uncork()
  }
  socket.write = ((...args: Array<unknown>) => {
    if (!corked) {
      corked = true
      socket.cork()
      setImmediate(uncork)
    }
    return write(...args)
  }) as typeof socket.write
  return socket
}

/** The read pool's connection: coalescing for a TCP URL; sql-pg's own for a unix socket. */
const readStream = (databaseUrl: string): { stream: () => net.Socket } | Record<string, never> => {
  const url = new URL(databaseUrl)
  if (url.hostname === "" || url.searchParams.has("host")) return {}
  return { stream: coalescingSocket(url.hostname.replace(/^\[|\]$/g, ""), url.port === "" ? 5432 : Number(url.port)) }
}

const readsFromMain = Layer.effect(ReadSql, Effect.service(SqlClient.SqlClient))

/** The server's database: it owns the embedded one when DATABASE_URL is unset. */
export const layerOwner = (config: AppConfigValues) => {
  if (config.databaseUrl === undefined) {
    const embedded = PgClient.layerFrom(
      Effect.flatMap(startEmbedded(config.dataDir), ({ socket }) => clientOverSocket(socket))
    )
    return Layer.provideMerge(readsFromMain, embedded)
  }
  const url = Redacted.make(config.databaseUrl)
  const reads = Layer.effect(
    ReadSql,
    PgClient.make({ url, maxConnections: READ_CONNECTIONS, multiplex: true, ...readStream(config.databaseUrl) })
  ).pipe(Layer.provide(Reactivity.layer))
  return Layer.merge(PgClient.layerFrom(PgClient.make({ url, maxConnections: 20 })), reads)
}

/**
 * For operator commands run beside a server (`board migrate`, `board desktop publish`):
 * through the running server's socket when one owns DATA_DIR, otherwise as the owner.
 */
export const layerShared = (config: AppConfigValues) => {
  if (config.databaseUrl === undefined && config.dataDir !== "memory:") {
    const owner = readLiveLock(config.dataDir)
    if (owner !== undefined)
      return Layer.provideMerge(readsFromMain, PgClient.layerFrom(clientOverSocket(owner.socket)))
  }
  return layerOwner(config)
}
