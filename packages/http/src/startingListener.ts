/**
 * The listener is bound before the core starts (database, migrations), so that a start which
 * cannot listen (port in use, foreign HOST) fails before it changes anything. Between the bind
 * and the moment the routes are ready, every request is answered at once with 503
 * `{"error":"starting"}` and `Retry-After: 1`: a load balancer or a probe sees "not yet", and a
 * client is never held open across a long migration nor left without an answer (Node leaves a
 * request with no `request` listener unanswered).
 */
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http"

const startingBody = JSON.stringify({ error: "starting" })

const answerStarting = (_request: IncomingMessage, response: ServerResponse): void => {
  response.writeHead(503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(startingBody),
    "retry-after": "1"
  })
  response.end(startingBody)
}

/** A Node server that answers 503 "starting" until the application's request handler is attached. */
export const createStartingServer = (options: ServerOptions, onClose?: () => void): Server => {
  const server = createServer(options, answerStarting)
  // On close, Node ends the connections idle at that moment, but one whose request is still in
  // flight stays open after its answer until the keep-alive timeout: a SIGTERM waited ~5 s for
  // nothing. While closing, answers say `Connection: close` and connections that became idle
  // are let go every 50 ms. Nothing of this runs per request before the close: it is the hot path.
  const close = server.close.bind(server)
  server.close = ((callback?: (error?: Error) => void) => {
    // long-lived responses (event streams) end now rather than hold the close open
    onClose?.()
    server.on("request", (_request: IncomingMessage, response: ServerResponse) => {
      response.setHeader("connection", "close")
    })
    close(callback)
    server.closeIdleConnections()
    const sweep = setInterval(() => server.closeIdleConnections(), 50)
    sweep.unref()
    server.once("close", () => clearInterval(sweep))
    return server
  }) as typeof server.close
  const onListener = (event: string | symbol, listener: unknown) => {
    // the application's handler replaces this one as it is attached: no request is answered twice
    if (event === "request" && listener !== answerStarting) {
      server.off("request", answerStarting)
      server.off("newListener", onListener)
    }
  }
  server.on("newListener", onListener)
  return server
}
