/**
 * An HTTP relay in front of several test servers that sends each request to the next one in
 * turn (no sticky routing, whatever the connection): what a plain load balancer does at its
 * worst for a client that keeps one connection. It records which server answered each request.
 */
import * as http from "node:http"
import type * as net from "node:net"

export interface RoundRobin {
  /** The relay's origin, `http://127.0.0.1:PORT`. */
  readonly origin: string
  /** For each request relayed, in order: its method, path, and the index of the server that answered. */
  readonly served: Array<{ readonly method: string; readonly path: string; readonly to: number }>
  readonly close: () => Promise<void>
}

export const roundRobin = async (targets: ReadonlyArray<string>): Promise<RoundRobin> => {
  const served: RoundRobin["served"] = []
  let next = 0
  const server = http.createServer((req, res) => {
    const to = next++ % targets.length
    const target = new URL(targets[to]!)
    served.push({ method: req.method ?? "GET", path: req.url ?? "/", to })
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent: false
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      }
    )
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    res.on("close", () => upstream.destroy())
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
