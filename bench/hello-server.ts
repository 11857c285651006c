/**
 * The baseline: a bare node:http server answering {"status":"ok"}, run as its own process
 * (like the real server) so both are measured the same way. Prints its port on stdout.
 */
import * as http from "node:http"

const body = JSON.stringify({ status: "ok" })
const server = http.createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
})
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(`listening ${typeof address === "object" && address !== null ? address.port : address}\n`)
})
const stop = () => server.close(() => process.exit(0))
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
