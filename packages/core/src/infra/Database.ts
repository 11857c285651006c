/**
 * The SQL client: PostgreSQL at DATABASE_URL, or embedded PGlite in DATA_DIR reached through
 * the same driver over an in-process stream (one dialect, one set of migrations). The embedded
 * database belongs to one process; other commands hand their work to it (AdminChannel.ts).
 */
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import * as stream from "node:stream"
import type { Duplex } from "node:stream"
import type { AppConfigValues } from "../Config.ts"
import { acquireDataDirLock } from "./DataDirLock.ts"
import { adminSocketPath, postgresSocketPath } from "./dataDirSockets.ts"
import { hasDatabase, initdbApart } from "./embeddedInitdb.ts"
import { refuseOutsideClients } from "./outsideClients.ts"

// PGlite has ONE backend session. The server's SQL client reaches it through an in-process
// stream (no socket file), over one connection: transactions queue for it, as they would for the
// single backend anyway, and no other process can ever interleave its protocol messages with the
// server's (a second client on a shared socket desynchronised the session and could run its
// statements inside the server's transactions). Other processes reach the database through the
// server's admin channel (AdminChannel.ts), which runs their work on this same connection.
const EMBEDDED_CONNECTIONS = 1

/** PostgreSQL's CancelRequest: length 16, then the code 80877102, then a process id and key. */
const isCancelRequest = (chunk: Buffer): boolean =>
  chunk.length >= 8 && chunk.readInt32BE(0) === 16 && chunk.readInt32BE(4) === 80877102

/** What the embedded database's owner holds: PGlite and a connector for its SQL client. */
export interface Embedded {
  readonly db: import("@electric-sql/pglite").PGlite
  /** A new protocol connection to the one session, for sql-pg's `stream` option. */
  readonly connect: () => net.Socket
}

/**
 * A dump (PGlite's `dumpDataDir`) that a fresh in-memory database starts from instead of an empty
 * one. Unset in the program; the test suite sets it to a database migrated once per run
 * (test/support/templates.ts), because a fresh PGlite runs initdb, seconds of CPU per server.
 */
export const EmbeddedTemplate = Context.Reference<Blob | undefined>("board/core/EmbeddedTemplate", {
  defaultValue: () => undefined
})

/**
 * Starts PGlite, owning DATA_DIR until the scope closes. `serves` says whether this process
 * takes operator commands (the server does, over its admin channel): the lock file names the
 * admin socket only then, so a command never waits for a channel no one will open.
 */
export const startEmbedded = (dataDir: string, serves = false) =>
  Effect.acquireRelease(
    Effect.flatMap(Effect.service(EmbeddedTemplate), (template) =>
      Effect.tryPromise({
        try: async () => {
          // loaded only here: a server on PostgreSQL never pays PGlite's memory or start-up
          const [{ PGlite }, { pg_trgm }, { PGLiteSocketHandler, PGLiteSocketServer }] = await Promise.all([
            import("@electric-sql/pglite"),
            import("@electric-sql/pglite/contrib/pg_trgm"),
            import("@electric-sql/pglite-socket")
          ])
          const releaseLock =
            dataDir === "memory:" ? () => {} : acquireDataDirLock(dataDir, serves ? adminSocketPath(dataDir) : "")
          let stopRefusing = () => {}
          try {
            const startParams = embeddedStartParams(PGlite.defaultStartParams)
            const pgdata = path.join(path.resolve(dataDir), "pgdata")
            // a first start: initdb in a thread of its own, whose memory goes when it ends
            if (dataDir !== "memory:" && !hasDatabase(pgdata)) await initdbApart(pgdata, startParams)
            const db =
              dataDir === "memory:"
                ? await PGlite.create({
                    extensions: { pg_trgm },
                    startParams,
                    ...(template === undefined ? {} : { loadDataDir: template })
                  })
                : await PGlite.create(pgdata, { extensions: { pg_trgm }, startParams })
            // The socket server is never started: it is only the holder of pglite-socket's query
            // queue, which keeps a transaction's statements together on the one session.
            const queue = (new PGLiteSocketServer({ db, path: "unused" }) as unknown as { queryQueue: unknown })
              .queryQueue
            const handlers = new Set<InstanceType<typeof PGLiteSocketHandler>>()
            const connect = (): net.Socket => {
              const [client, server] = stream.duplexPair()
              // the handler and sql-pg treat their ends as sockets; these are the calls they make
              for (const end of [client, server] as Array<Duplex & { setNoDelay?: () => void }>) {
                end.setNoDelay = () => {}
              }
              const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true })
              handlers.add(handler)
              handler.addEventListener("close", () => handlers.delete(handler))
              handler.addEventListener("error", () => handlers.delete(handler))
              void handler.attach(server as unknown as net.Socket)
              // sql-pg cancels a statement whose fiber was interrupted on a side connection and
              // waits for the server to close it; pglite-socket ignores a CancelRequest and keeps
              // it open, so every interrupted statement held its interrupter 5 s (sql-pg's
              // timeout): a revoked event stream ended seconds late. PGlite cannot cancel a
              // statement (it runs on this thread), so the request is answered as PostgreSQL
              // answers one it is done with: the connection closes.
              server.once("data", (first: Buffer) => {
                if (isCancelRequest(first)) client.destroy()
              })
              // The handler detaches only on its socket's 'close', which a pair's server end never
              // sees when the client end goes (a retired connection, a cancel; it sees 'end' on
              // Node 24, nothing on older): each stayed attached until shutdown, and one that went
              // inside a transaction left PGlite's queue running only its statements, so every
              // later statement waited forever. So it is detached here once its client is gone
              // (detach rolls back the transaction its last statement left open) and once the
              // chunks it was sent are handled (the handler's 'data' event follows each): a cycle
              // already sent completes, as PostgreSQL runs what is in its buffer.
              let unhandled = 0
              let gone = false
              const detachIfDone = () => {
                if (!gone || unhandled > 0 || !handlers.delete(handler)) return
                void handler.detach(true).catch(() => {})
              }
              server.on("data", () => {
                unhandled++
              })
              handler.addEventListener("data", () => {
                unhandled--
                detachIfDone()
              })
              const clientGone = () => {
                gone = true
                detachIfDone()
              }
              server.once("end", clientGone)
              client.once("close", clientGone)
              client.once("finish", clientGone)
              return client as unknown as net.Socket
            }
            // closing: no message may reach PGlite once it is closed (its queue would throw)
            const detachAll = () => Promise.all([...handlers].map((h) => h.detach(true).catch(() => {})))
            if (dataDir !== "memory:") {
              stopRefusing = await refuseOutsideClients(
                postgresSocketPath(dataDir),
                `the embedded database in ${path.resolve(dataDir)} belongs to the board server (pid ${process.pid}) ` +
                  "and no other client may share its one session; back it up with `board backup FILE`"
              )
            }
            return {
              db,
              connect,
              detachAll,
              releaseLock: () => {
                stopRefusing()
                releaseLock()
              }
            }
          } catch (e) {
            stopRefusing()
            releaseLock()
            throw e
          }
        },
        catch: (cause) => (cause instanceof Error ? cause : new Error(String(cause)))
      })
    ),
    ({ db, detachAll, releaseLock }) =>
      Effect.promise(async () => {
        await detachAll()
        await db.close().catch(() => {})
        releaseLock()
      })
  )

/** The embedded database this process owns (absent on PostgreSQL). */
export class EmbeddedDatabase extends Context.Service<EmbeddedDatabase, Embedded>()("board/core/EmbeddedDatabase") {}

/**
 * Writes PGlite's own dump of its data directory (a gzip tarball) to `file`. It holds the one
 * connection while PGlite reads its files, so no transaction is open then, and checkpoints
 * first, so the dump needs no recovery when it is loaded: requests wait for that part (about a
 * second per few hundred MiB of database), not for the file's write. The dump is held in memory
 * once, as PGlite returns it.
 */
export const dumpEmbedded = (file: string) =>
  Effect.gen(function* () {
    const embedded = yield* EmbeddedDatabase
    const sql = yield* SqlClient.SqlClient
    const dump = yield* Effect.scoped(
      Effect.gen(function* () {
        const connection = yield* sql.reserve
        yield* connection.executeRaw("CHECKPOINT", [])
        return yield* Effect.promise(() => embedded.db.dumpDataDir("gzip"))
      })
    )
    return yield* Effect.promise(async () => {
      const bytes = new Uint8Array(await dump.arrayBuffer())
      await fs.promises.writeFile(file, bytes, { mode: 0o600 })
      return bytes.byteLength
    })
  })

/**
 * The embedded database's start parameters: PGlite's own, with a 32 MB buffer cache instead of
 * PostgreSQL's default 128 MB. The cache lives in the server's own memory (PGlite's WebAssembly
 * heap, which never shrinks), so it is most of an idle embedded server's RSS: opening a migrated
 * database took 354 MiB with 128 MB, 221 MiB with 32 MB (issue 35). Pages the cache drops are
 * read again through the operating system's page cache, not the disk, and the embedded database
 * is the small-team default (PostgreSQL is for large boards).
 */
export const EMBEDDED_SHARED_BUFFERS = "32MB"
const embeddedStartParams = (defaults: ReadonlyArray<string>): Array<string> => [
  ...defaults,
  "-c",
  `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`
]

/** Creates DATA_DIR's database from a dump written by `dumpEmbedded` (nothing may be there yet). */
export const restoreEmbedded = async (dataDir: string, dump: Buffer): Promise<void> => {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm")
  ])
  const db = await PGlite.create(path.join(path.resolve(dataDir), "pgdata"), {
    extensions: { pg_trgm },
    startParams: embeddedStartParams(PGlite.defaultStartParams),
    loadDataDir: new Blob([new Uint8Array(dump)])
  })
  await db.close()
}

const clientOf = (embedded: Embedded) =>
  PgClient.make({
    stream: embedded.connect,
    username: "postgres",
    database: "postgres",
    maxConnections: EMBEDDED_CONNECTIONS
  })

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

/** The embedded database in `dataDir`, owned by this process until the layer closes. */
export const layerEmbedded = (dataDir: string, serves = false) => {
  const started = Layer.effect(EmbeddedDatabase, startEmbedded(dataDir, serves))
  const client = PgClient.layerFrom(Effect.flatMap(Effect.service(EmbeddedDatabase), clientOf))
  return Layer.provideMerge(readsFromMain, client).pipe(Layer.provideMerge(started))
}

/** Whether the PostgreSQL database at `databaseUrl` already holds a board (its migrations table). */
export const postgresHoldsBoard = (databaseUrl: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const sql = yield* PgClient.make({ url: Redacted.make(databaseUrl), maxConnections: 1 })
      const rows = yield* sql<{ taken: boolean }>`SELECT to_regclass('board_migrations') IS NOT NULL AS taken`
      return rows[0]?.taken === true
    })
  ).pipe(Effect.provide(Reactivity.layer))

/**
 * The database for this configuration: PostgreSQL, or the embedded one, owned by this process.
 * `serves`: this is the server, which takes operator commands beside it (see `startEmbedded`).
 */
export const layerOwner = (config: AppConfigValues, serves = false) => {
  if (config.databaseUrl === undefined) return layerEmbedded(config.dataDir, serves)
  const url = Redacted.make(config.databaseUrl)
  const reads = Layer.effect(
    ReadSql,
    PgClient.make({ url, maxConnections: READ_CONNECTIONS, multiplex: true, ...readStream(config.databaseUrl) })
  ).pipe(Layer.provide(Reactivity.layer))
  return Layer.merge(PgClient.layerFrom(PgClient.make({ url, maxConnections: 20 })), reads)
}
