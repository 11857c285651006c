/**
 * The listener is bound before the core starts (database, migrations), so that a start which
 * cannot listen (port in use, foreign HOST) fails before it changes anything. Between the bind
 * and the moment the routes are ready, every request is answered at once with 503
 * `{"error":"starting"}` and `Retry-After: 1`: a load balancer or a probe sees "not yet", and a
 * client is never held open across a long migration nor left without an answer (Node leaves a
 * request with no `request` listener unanswered).
 */
import { http } from "@board/core"
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"

const startingBody = JSON.stringify({ error: "starting" })

const answerStarting = (_request: IncomingMessage, response: ServerResponse): void => {
  response.writeHead(503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(startingBody),
    "retry-after": "1"
  })
  response.end(startingBody)
}

/** What a request the HTTP parser refused is answered: Node's statuses, with a body that says why. */
const refusal = (error: Error & { code?: string; reason?: string }, headerLimit: number): [number, string, string] => {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return [
        431,
        "Request Header Fields Too Large",
        `the request line and headers are larger than ${headerLimit / 1024} KB together: shorten the URL (its query) or the headers`
      ]
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "Payload Too Large", "the chunk extensions of the request body are too large"]
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request Timeout", "the request did not arrive in time: send it again"]
    default:
      // llhttp's reason names the fault ("Invalid method encountered", "Missing expected CR after header value")
      return [400, "Bad Request", `malformed HTTP request: ${error.reason ?? error.message}`]
  }
}

/**
 * Node answers a request its parser refuses (a 70,000-character URL, a malformed request line)
 * itself, with a status and an empty body; every other error of the API is `{"error": …}`. This
 * answers the same statuses in that shape. As in Node's own handler, nothing is written when the
 * peer is gone or a response on this connection has already begun (its bytes would corrupt it).
 */
const answerClientError =
  (headerLimit: number) => (error: Error & { code?: string; reason?: string }, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy()
      return
    }
    const [status, text, message] = refusal(error, headerLimit)
    const body = JSON.stringify({ error: message })
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
    )
    // a peer that never reads nor closes does not keep the socket open
    setTimeout(() => socket.destroy(), 5_000).unref()
  }

/**
 * Answers a request in Node's own request event, before the application sees it, and says so;
 * false leaves the request to the application. Runs for every request: it must decide cheaply.
 */
export type FastPath = (request: IncomingMessage, response: ServerResponse) => boolean

/**
 * A Node server that answers 503 "starting" until the application's request handler is attached.
 * From then until the server starts closing, `fastPath` sees each request first.
 */
export const createStartingServer = (options: ServerOptions, onClose?: () => void, fastPath?: FastPath): Server => {
  const server = http.createServer(options, answerStarting)
  let attached = false
  let closing = false
  if (fastPath !== undefined) {
    // Node calls its request listeners through emit: answered here, the request reaches none of them
    const emit = server.emit
    server.emit = function (this: Server, event: string | symbol, ...args: Array<unknown>): boolean {
      if (
        event === "request" &&
        attached &&
        !closing &&
        fastPath(args[0] as IncomingMessage, args[1] as ServerResponse)
      )
        return true
      return emit.apply(this, [event, ...args] as Parameters<typeof emit>)
    } as typeof server.emit
  }
  server.on("clientError", answerClientError(options.maxHeaderSize ?? http.maxHeaderSize))
  // On close, Node ends the connections idle at that moment, but one whose request is still in
  // flight stays open after its answer until the keep-alive timeout: a SIGTERM waited ~5 s for
  // nothing. While closing, answers say `Connection: close` and connections that became idle
  // are let go every 50 ms. Nothing of this runs per request before the close: it is the hot path.
  const close = server.close.bind(server)
  server.close = ((callback?: (error?: Error) => void) => {
    // long-lived responses (event streams) end now rather than hold the close open
    onClose?.()
    // every answer says `Connection: close` from now on: the fast path steps aside for the router's
    closing = true
    // before the application's handler, which may answer synchronously (headers then sent)
    server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
      if (!response.headersSent) response.setHeader("connection", "close")
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
      attached = true
    }
  }
  server.on("newListener", onListener)
  return server
}
