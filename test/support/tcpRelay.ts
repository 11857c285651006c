/** A TCP relay on its own port in front of a test server: another origin, or a server that goes away. */
import * as net from "node:net"

/** A TCP relay to the server that the test can take down (cut connections, answer 503) and up. */
export const tcpRelay = async (target: number) => {
  const sockets = new Set<net.Socket>()
  let isDown = false
  const server = net.createServer((client) => {
    sockets.add(client)
    client.on("close", () => sockets.delete(client))
    if (isDown) {
      client.end("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
      return
    }
    const upstream = net.connect(target, "127.0.0.1")
    sockets.add(client).add(upstream)
    const forget = () => {
      sockets.delete(client)
      sockets.delete(upstream)
      client.destroy()
      upstream.destroy()
    }
    client.on("close", forget).on("error", forget)
    upstream.on("close", forget).on("error", forget)
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as net.AddressInfo).port,
    /** From now on every connection is answered 503 (open ones are cut, so none is reused). */
    down: () => {
      isDown = true
      for (const s of sockets) s.destroy()
    },
    up: () => {
      isDown = false
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      })
  }
}
