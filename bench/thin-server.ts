/**
 * The floor of the API's card writes and reads (issue 35): the thinnest service anyone could
 * hand-write that does the same durable work. Bare `node:http` and `pg` (node-postgres, a pool of
 * 20) and nothing else: the API key compared in memory, no framework, no validation beyond JSON
 * parsing, no access rule.
 *
 *   POST /cards       {projectId, columnId, title, description?} → 201 and the card row as JSON;
 *                     ONE statement inserts the card row and its event row (data: the card's
 *                     JSON) in one CTE, so the card and its event commit together
 *   GET /cards/{id}   → 200 and the row by primary key as JSON, 404 when there is none
 *   GET /             → 200 once the tables exist (the bench's readiness probe; no key)
 *
 * Its own tables, `${THIN_PREFIX}cards` and `${THIN_PREFIX}events`, are created at start (with
 * THIN_SEED_ROWS card rows to read, then VACUUM ANALYZE) and dropped on SIGTERM or SIGINT.
 * Env: DATABASE_URL, THIN_API_KEY, THIN_PREFIX (default bench_thin_), THIN_SEED_ROWS (default 0),
 * HOST, PORT. Run as a child process by bench/run.ts, like hello-server.ts; prints its port.
 */
import * as http from "node:http"
import pg from "pg"

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback
  if (value === undefined || value === "") throw new Error(`thin-server: ${name} is required`)
  return value
}
const apiKey = env("THIN_API_KEY")
const prefix = env("THIN_PREFIX", "bench_thin_")
if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`thin-server: THIN_PREFIX must be a plain identifier`)
const seedRows = Number(env("THIN_SEED_ROWS", "0"))
const cards = `${prefix}cards`
const events = `${prefix}events`

const pool = new pg.Pool({ connectionString: env("DATABASE_URL"), max: 20 })

const drop = async () => {
  await pool.query(`DROP TABLE IF EXISTS ${events}`)
  await pool.query(`DROP TABLE IF EXISTS ${cards}`)
}

const columns = "id, project_id, column_id, title, description, created_at"
/** Named: node-postgres prepares each once per connection, as a real service's driver would. */
const createCard = {
  name: "thin-create-card",
  text: `WITH card AS (
    INSERT INTO ${cards} (project_id, column_id, title, description) VALUES ($1, $2, $3, $4)
    RETURNING ${columns}
  ), event AS (
    INSERT INTO ${events} (project_id, card_id, type, data)
    SELECT project_id, id, 'card.created', to_jsonb(card) FROM card
  )
  SELECT ${columns} FROM card`
}
const readCard = { name: "thin-read-card", text: `SELECT ${columns} FROM ${cards} WHERE id = $1` }

const send = (res: http.ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}
const fail = (res: http.ServerResponse, status: number, error: string) => send(res, status, JSON.stringify({ error }))

const readBody = (req: http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
  const url = req.url ?? "/"
  if (req.method === "GET" && url === "/") return send(res, 200, `{"status":"ok"}`)
  if (req.headers["x-api-key"] !== apiKey) return fail(res, 401, "unauthorized")
  if (req.method === "POST" && url === "/cards") {
    let body: any
    try {
      body = JSON.parse(await readBody(req))
    } catch {
      return fail(res, 400, "invalid JSON")
    }
    const { rows } = await pool.query({
      ...createCard,
      values: [body?.projectId, body?.columnId, body?.title, body?.description ?? null]
    })
    return send(res, 201, JSON.stringify(rows[0]))
  }
  if (req.method === "GET" && url.startsWith("/cards/")) {
    const { rows } = await pool.query({ ...readCard, values: [url.slice("/cards/".length)] })
    return rows.length === 0 ? fail(res, 404, "not found") : send(res, 200, JSON.stringify(rows[0]))
  }
  return fail(res, 404, "not found")
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err: { code?: string; message?: string }) => {
    // invalid input PostgreSQL refused (a malformed uuid, a missing title): the client's fault
    const client = typeof err.code === "string" && (err.code.startsWith("22") || err.code.startsWith("23"))
    if (!res.headersSent) fail(res, client ? 400 : 500, err.message ?? "error")
  })
})

await drop()
await pool.query(`CREATE TABLE ${cards} (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(), project_id uuid NOT NULL, column_id uuid NOT NULL,
  title text NOT NULL, description text, created_at timestamptz NOT NULL DEFAULT now())`)
await pool.query(`CREATE INDEX ${cards}_column ON ${cards} (column_id)`)
await pool.query(`CREATE INDEX ${cards}_project ON ${cards} (project_id)`)
await pool.query(`CREATE TABLE ${events} (
  id bigserial PRIMARY KEY, project_id uuid NOT NULL, card_id uuid NOT NULL, type text NOT NULL, data jsonb NOT NULL)`)
await pool.query(`CREATE INDEX ${events}_project ON ${events} (project_id, id)`)
await pool.query(`CREATE INDEX ${events}_card ON ${events} (card_id, id)`)
if (seedRows > 0) {
  // rows to read, card-like, in one project over 10 columns
  await pool.query(
    `INSERT INTO ${cards} (project_id, column_id, title, description)
     SELECT $1::uuid, ('00000000-0000-4000-8000-' || lpad((i % 10)::text, 12, '0'))::uuid, 'Card ' || i || ' fix login timeout',
       'Reported by ' || md5(i::text) || ' after the rollout; steps to reproduce are in the linked thread.'
     FROM generate_series(1, $2::int) AS i`,
    [crypto.randomUUID(), seedRows]
  )
  await pool.query(`VACUUM ANALYZE ${cards}`)
}

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address()
  process.stdout.write(`listening ${typeof address === "object" && address !== null ? address.port : address}\n`)
})
let stopping = false
const stop = () => {
  if (stopping) return
  stopping = true
  server.close()
  server.closeAllConnections()
  drop()
    .catch((err) => process.stderr.write(`thin-server: dropping its tables failed: ${err}\n`))
    .finally(() => pool.end().finally(() => process.exit(0)))
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
