/**
 * The write tables: the writes on PostgreSQL at N connections and at 1 against the thin create
 * and pgbench's INSERT, and the same writes on the embedded database against PostgreSQL.
 */
import { cpuPerRequest, dagger, fmtMiB, fmtMs, fmtNon2xx, fmtRps, fmtUs, type Row, writeIds } from "./report.ts"

/** The N- and 1-connection rows of write scenario `id` (`prefix` picks the embedded database's rows). */
const writePair = (rows: ReadonlyArray<Row>, id: string, prefix = "") => ({
  many: rows.find((r) => r.id === `${prefix}${id}`),
  one: rows.find((r) => r.id === `${prefix}${id}-1`)
})
const rpsCell = (row: Row | undefined) =>
  row === undefined ? "not measured" : `${fmtRps(row.result.rps)}${dagger(row)}`
const scaleUpCell = (many: Row | undefined, one: Row | undefined) =>
  many === undefined || one === undefined || one.result.rps === 0
    ? "–"
    : `×${(many.result.rps / one.result.rps).toFixed(1)}`
const usCell = (row: Row | undefined, who: "server" | "postgres") =>
  row === undefined ? "–" : fmtUs(cpuPerRequest(row, who))
const msCell = (row: Row | undefined, p: "p50" | "p99") => (row === undefined ? "–" : fmtMs(row.result[p]))

/**
 * The writes on PostgreSQL: each at N connections and at 1, how far concurrency lifts it, and
 * how close each comes to the thin create (that row next, for its own CPU per create), then
 * pgbench's bare INSERT when it ran: PostgreSQL alone, no HTTP, no event row.
 */
export const writesTable = (rows: ReadonlyArray<Row>, connections: number): string => {
  const thin = rows.find((r) => r.id === "thin-create")
  const ofThin = (row: Row | undefined) =>
    row === undefined || thin === undefined || thin.result.rps === 0
      ? "–"
      : (row.result.rps / thin.result.rps).toFixed(3)
  const n = `${connections} conns`
  const lines = [
    `| scenario | req/s, ${n} | req/s, 1 conn | scale-up (${connections} ÷ 1) | ÷ thin create, ${n} | ÷ thin create, 1 conn | p50 ms, 1 conn | server µs/req, ${n} | PostgreSQL µs/req, ${n} | server µs/req, 1 conn | PostgreSQL µs/req, 1 conn |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  for (const id of writeIds) {
    const { many, one } = writePair(rows, id)
    lines.push(
      `| ${many?.label ?? one?.label ?? id} | ${rpsCell(many)} | ${rpsCell(one)} | ${scaleUpCell(many, one)} | ${ofThin(many)} | ${ofThin(one)} | ${msCell(one, "p50")} | ${usCell(many, "server")} | ${usCell(many, "postgres")} | ${usCell(one, "server")} | ${usCell(one, "postgres")} |`
    )
  }
  if (thin !== undefined) {
    lines.push(
      `| ${thin.label} | ${rpsCell(thin)} | – | – | 1.000 | – | – | ${usCell(thin, "server")} | ${usCell(thin, "postgres")} | – | – |`
    )
  }
  const insert = rows.find((r) => r.id === "floor-insert")
  if (insert !== undefined) {
    lines.push(
      `| ${insert.label} | ${rpsCell(insert)} | – | – | ${ofThin(insert)} | – | – | – | ${usCell(insert, "postgres")} | – | – |`
    )
  }
  return lines.join("\n")
}

/**
 * The writes on the embedded database (PGlite inside the server process, so the server's CPU
 * includes the database's), with the same requests on PostgreSQL for comparison.
 */
export const embeddedTable = (rows: ReadonlyArray<Row>, connections: number): string => {
  const n = `${connections} conns`
  const lines = [
    `| scenario | req/s, ${n} | req/s, 1 conn | scale-up (${connections} ÷ 1) | ÷ PostgreSQL, ${n} | ÷ PostgreSQL, 1 conn | p50 ms, ${n} | p99 ms, ${n} | p50 ms, 1 conn | server µs/req, ${n} | server µs/req, 1 conn | non-2xx | server RSS MiB |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  ]
  const ofPostgres = (row: Row | undefined, pg: Row | undefined) =>
    row === undefined || pg === undefined || pg.result.rps === 0 ? "–" : (row.result.rps / pg.result.rps).toFixed(2)
  for (const id of writeIds) {
    const { many, one } = writePair(rows, id, "embedded-")
    const pg = writePair(rows, id)
    const measured = [many, one].filter((r): r is Row => r !== undefined)
    const non2xx =
      measured.length === 0
        ? "–"
        : measured.every((r) => r.result.non2xx + r.result.errors === 0)
          ? "0"
          : measured.map((r) => fmtNon2xx(r.result)).join(" / ")
    lines.push(
      `| ${many?.label ?? one?.label ?? id} | ${rpsCell(many)} | ${rpsCell(one)} | ${scaleUpCell(many, one)} | ${ofPostgres(many, pg.many)} | ${ofPostgres(one, pg.one)} | ${msCell(many, "p50")} | ${msCell(many, "p99")} | ${msCell(one, "p50")} | ${usCell(many, "server")} | ${usCell(one, "server")} | ${non2xx} | ${fmtMiB((many ?? one)?.rss)} |`
    )
  }
  return lines.join("\n")
}
