/**
 * PostgreSQL clients (`psql -h DATA_DIR`, `pg_dump`) look for a socket named `.s.PGSQL.5432` in
 * the directory they are given. The embedded database has no such socket any more (its one
 * session belongs to the server), so that name answers every client with a PostgreSQL error
 * they print as it is, saying what to do instead, rather than a bare "no such file".
 */
import * as fs from "node:fs"
import * as net from "node:net"

const SSL_REQUEST = 80877103
const GSS_REQUEST = 80877104

/** An ErrorResponse message: severity FATAL, SQLSTATE 08004 (the server rejected the connection). */
const errorResponse = (message: string): Buffer => {
  const field = (code: string, value: string) =>
    Buffer.concat([Buffer.from(code), Buffer.from(value), Buffer.from([0])])
  const body = Buffer.concat([
    field("S", "FATAL"),
    field("V", "FATAL"),
    field("C", "08004"),
    field("M", message),
    Buffer.from([0])
  ])
  const head = Buffer.alloc(5)
  head.write("E", 0)
  head.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([head, body])
}

/** Listens on `file` until the returned function closes it. */
export const refuseOutsideClients = async (file: string, message: string): Promise<() => void> => {
  fs.rmSync(file, { force: true })
  const refusal = errorResponse(message)
  const server = net.createServer((socket) => {
    socket.on("error", () => {})
    let buffer = Buffer.alloc(0)
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      while (buffer.length >= 8) {
        const length = buffer.readInt32BE(0)
        const code = buffer.readInt32BE(4)
        // encryption requests come first: say no, and the client sends its startup message
        if (length === 8 && (code === SSL_REQUEST || code === GSS_REQUEST)) {
          socket.write("N")
          buffer = buffer.subarray(8)
          continue
        }
        socket.end(refusal)
        return
      }
    })
    socket.setTimeout(5_000, () => socket.destroy())
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(file, () => resolve())
  })
  server.unref()
  return () => {
    server.close()
    fs.rmSync(file, { force: true })
  }
}
