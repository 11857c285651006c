/**
 * The event benchmarks (issue 18), run against two servers on the same PostgreSQL database:
 *
 * - stream latency: N open streams on server B, cards created on server A at a steady pace; for
 *   every frame, the time from the create's request being sent (so an upper bound of "committed
 *   → frame") to the frame's arrival on B; every stream must see every event exactly once;
 * - memory: M open streams on one server, its RSS before and after they connected (and one event
 *   reaching all of them).
 *
 * The write cost of the events themselves is measured in run.ts as paired write scenarios
 * (events stored, and events dropped by a BEFORE INSERT trigger that returns NULL).
 */
import * as http from "node:http"
import { setTimeout as sleep } from "node:timers/promises"

export interface StreamClient {
  /** Event ids seen, in order. */
  readonly ids: Array<string>
  /** Arrival time (performance.now()) of each event by the card id in its data.object. */
  readonly arrivals: Map<string, number>
  readonly connected: Promise<void>
  readonly close: () => void
}

/** An SSE client over node:http (one socket each, no pooling): enough parsing for `id:` and `data:`. */
export const openStream = (origin: string, path: string, apiKey: string): StreamClient => {
  const ids: Array<string> = []
  const arrivals = new Map<string, number>()
  let request: http.ClientRequest | undefined
  const connected = new Promise<void>((resolve, reject) => {
    request = http.get(
      `${origin}${path}`,
      { headers: { "x-api-key": apiKey, accept: "text/event-stream" }, agent: false },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`GET ${path} answered ${res.statusCode}`))
          res.resume()
          return
        }
        resolve()
        res.setEncoding("utf8")
        let buffer = ""
        res.on("data", (chunk: string) => {
          const at = performance.now()
          buffer += chunk
          for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
            const frame = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            let id: string | undefined
            let data: string | undefined
            for (const line of frame.split("\n")) {
              if (line.startsWith("id:")) id = line.slice(3).trim()
              else if (line.startsWith("data:")) data = line.slice(5).trim()
            }
            if (id === undefined || data === undefined) continue
            ids.push(id)
            const cardId = (JSON.parse(data) as { data?: { object?: { id?: string } } }).data?.object?.id
            if (cardId !== undefined && !arrivals.has(cardId)) arrivals.set(cardId, at)
          }
        })
        res.on("error", () => {})
      }
    )
    request.on("error", reject)
  })
  return { ids, arrivals, connected, close: () => request?.destroy() }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

export interface LatencyResult {
  readonly streams: number
  readonly events: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  /** Frames missing or seen twice, over all streams (must be 0). */
  readonly missing: number
  readonly duplicates: number
  readonly outOfOrder: number
}

/**
 * `streams` streams of `projectId` on `reader`, `events` cards created on `writer` one at a time
 * every `intervalMs`; latency = frame arrival − the create's send time.
 */
export const measureStreamLatency = async (o: {
  readonly writer: string
  readonly reader: string
  readonly apiKey: string
  readonly projectId: string
  readonly columnId: string
  readonly streams: number
  readonly events: number
  readonly intervalMs: number
}): Promise<LatencyResult> => {
  const path = `/api/v1/projects/${o.projectId}/events/stream`
  const clients = Array.from({ length: o.streams }, () => openStream(o.reader, path, o.apiKey))
  try {
    await Promise.all(clients.map((c) => c.connected))
    await sleep(500)
    const sent = new Map<string, number>()
    for (let i = 0; i < o.events; i++) {
      const started = performance.now()
      const res = await fetch(`${o.writer}/api/v1/cards`, {
        method: "POST",
        headers: { "x-api-key": o.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ projectId: o.projectId, columnId: o.columnId, title: `Streamed ${i}` })
      })
      const card = (await res.json()) as { id: string }
      if (res.status !== 201) throw new Error(`POST /v1/cards answered ${res.status}`)
      sent.set(card.id, started)
      const wait = o.intervalMs - (performance.now() - started)
      if (wait > 0) await sleep(wait)
    }
    // every stream has every event, or 5 s passed
    const deadline = performance.now() + 5_000
    while (performance.now() < deadline && clients.some((c) => [...sent.keys()].some((id) => !c.arrivals.has(id))))
      await sleep(50)
    const latencies: Array<number> = []
    let missing = 0
    let duplicates = 0
    let outOfOrder = 0
    for (const c of clients) {
      for (const [id, at] of sent) {
        const arrived = c.arrivals.get(id)
        if (arrived === undefined) missing++
        else latencies.push(arrived - at)
      }
      duplicates += c.ids.length - new Set(c.ids).size
      for (let i = 1; i < c.ids.length; i++) if (c.ids[i]! <= c.ids[i - 1]!) outOfOrder++
    }
    latencies.sort((a, b) => a - b)
    return {
      streams: o.streams,
      events: o.events,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies[latencies.length - 1] ?? Number.NaN,
      missing,
      duplicates,
      outOfOrder
    }
  } finally {
    for (const c of clients) c.close()
  }
}

export interface StreamMemoryResult {
  readonly streams: number
  readonly rssBefore: number
  readonly rssAfter: number
  /** Streams that received the probe event within 10 s. */
  readonly reached: number
  readonly connectSeconds: number
}

/** `streams` open streams on `origin` (process `pid`): RSS before and after, and one event reaching them all. */
export const measureStreamMemory = async (o: {
  readonly origin: string
  readonly readRss: () => number | undefined
  readonly apiKey: string
  readonly projectId: string
  readonly columnId: string
  readonly streams: number
  /** The pauses before the first RSS reading and after the streams connected (1 s and 3 s). */
  readonly settleMs?: { readonly before: number; readonly after: number }
}): Promise<StreamMemoryResult> => {
  const settle = o.settleMs ?? { before: 1_000, after: 3_000 }
  const path = `/api/v1/projects/${o.projectId}/events/stream`
  if (typeof global.gc === "function") global.gc()
  await sleep(settle.before)
  const rssBefore = o.readRss() ?? Number.NaN
  const started = performance.now()
  const clients: Array<StreamClient> = []
  try {
    // in batches, so the listen backlog never overflows
    for (let i = 0; i < o.streams; i += 100) {
      const batch = Array.from({ length: Math.min(100, o.streams - i) }, () => openStream(o.origin, path, o.apiKey))
      clients.push(...batch)
      await Promise.all(batch.map((c) => c.connected))
    }
    const connectSeconds = (performance.now() - started) / 1000
    await sleep(settle.after)
    const rssAfter = o.readRss() ?? Number.NaN
    const res = await fetch(`${o.origin}/api/v1/cards`, {
      method: "POST",
      headers: { "x-api-key": o.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ projectId: o.projectId, columnId: o.columnId, title: "Probe for every stream" })
    })
    const card = (await res.json()) as { id: string }
    const deadline = performance.now() + 10_000
    while (performance.now() < deadline && clients.some((c) => !c.arrivals.has(card.id))) await sleep(100)
    return {
      streams: o.streams,
      rssBefore,
      rssAfter,
      reached: clients.filter((c) => c.arrivals.has(card.id)).length,
      connectSeconds
    }
  } finally {
    for (const c of clients) c.close()
  }
}

/** Drops event rows at insert (the statements still build them): the "events off" side of the write-cost pairs. */
export const EVENTS_OFF_SQL = [
  "CREATE OR REPLACE FUNCTION bench_drop_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$",
  "CREATE TRIGGER bench_drop_event BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION bench_drop_event()"
]
export const EVENTS_ON_SQL = ["DROP TRIGGER IF EXISTS bench_drop_event ON events"]

/** The "Events" section of the report: the write-cost pairs, stream latency and memory, with their targets. */
export const eventsSection = (o: {
  readonly pairs: ReadonlyArray<{ label: string; on?: { rps: number }; off?: { rps: number } }>
  readonly latency: LatencyResult | undefined
  readonly memory: StreamMemoryResult | undefined
}): string => {
  const lines = ["| target | figure | met? |", "| --- | --- | --- |"]
  const verdict = (ok: boolean) => (ok ? "met" : "**MISS**")
  for (const p of o.pairs) {
    if (p.on === undefined || p.off === undefined) continue
    const ratio = p.on.rps / p.off.rps
    lines.push(
      `| ${p.label}: with events ≥ 0.85 of the same writes with the event rows dropped | ${ratio.toFixed(3)} (${Math.round(p.on.rps).toLocaleString("en-US")} vs ${Math.round(p.off.rps).toLocaleString("en-US")} req/s) | ${verdict(ratio >= 0.85)} |`
    )
  }
  if (o.latency !== undefined) {
    const l = o.latency
    const exact = l.missing === 0 && l.duplicates === 0 && l.outOfOrder === 0
    lines.push(
      `| event committed → SSE frame on another instance, ${l.streams} streams, p99 ≤ 250 ms | p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms over ${l.events} events × ${l.streams} streams; missing ${l.missing}, duplicates ${l.duplicates}, out of order ${l.outOfOrder} | ${verdict(l.p99 <= 250 && exact)} |`
    )
  }
  if (o.memory !== undefined) {
    const m = o.memory
    const growth = (m.rssAfter - m.rssBefore) / 1048576
    lines.push(
      `| ${m.streams.toLocaleString("en-US")} open streams on one server: RSS growth ≤ 100 MiB | ${growth.toFixed(1)} MiB (${(m.rssBefore / 1048576).toFixed(0)} → ${(m.rssAfter / 1048576).toFixed(0)} MiB; connected in ${m.connectSeconds.toFixed(1)} s; one event reached ${m.reached} of them) | ${verdict(growth <= 100 && m.reached === m.streams)} |`
    )
  }
  return lines.length === 2 ? "Not measured in this run (see BENCH_ONLY)." : lines.join("\n")
}
