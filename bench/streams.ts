/**
 * The event streams' run (issue 18, bench/events.ts): a second `board serve` on the same database
 * holds the streams while cards are created on the first, for the latency of their frames and the
 * memory of many open streams; stopped after.
 */
import type { BenchDatabase } from "./db.ts"
import { type LatencyResult, measureStreamLatency, measureStreamMemory, type StreamMemoryResult } from "./events.ts"
import { log, mib } from "./log.ts"
import { eventStreamIds, STREAMS_FOR_LATENCY, STREAMS_FOR_MEMORY, selected, smokeRun } from "./options.ts"
import { readRss, stopChild } from "./processes.ts"
import type { SeededAccount } from "./seed.ts"
import { startBoardServer } from "./servers.ts"

/** Stream latency and memory when selected, on a second server beside the one at `origin`. */
export const runStreams = async (o: {
  readonly database: BenchDatabase
  readonly dataDir: string
  readonly origin: string
  readonly seeded: SeededAccount
}): Promise<{ streamLatency: LatencyResult | undefined; streamMemory: StreamMemoryResult | undefined }> => {
  const { database, dataDir, origin, seeded } = o
  let streamLatency: LatencyResult | undefined
  let streamMemory: StreamMemoryResult | undefined
  if (eventStreamIds.some(selected)) {
    const reader = await startBoardServer(
      "second board server",
      { DATABASE_URL: database.url, DATA_DIR: dataDir },
      60_000
    )
    const streamTarget = {
      apiKey: seeded.apiKey,
      projectId: seeded.createProject.id,
      columnId: seeded.createProject.columnId
    }
    if (selected("events-latency")) {
      log(`measuring stream latency: ${STREAMS_FOR_LATENCY} streams on the second server, cards created on the first`)
      streamLatency = await measureStreamLatency({
        ...streamTarget,
        writer: origin,
        reader: reader.origin,
        streams: STREAMS_FOR_LATENCY,
        events: smokeRun ? 20 : 200,
        intervalMs: 20
      })
      log(
        `  p50 ${streamLatency.p50.toFixed(1)} ms, p99 ${streamLatency.p99.toFixed(1)} ms, max ${streamLatency.max.toFixed(1)} ms; missing ${streamLatency.missing}, duplicates ${streamLatency.duplicates}, out of order ${streamLatency.outOfOrder}`
      )
    }
    if (selected("events-memory")) {
      log(`measuring ${STREAMS_FOR_MEMORY} open streams on the second server`)
      streamMemory = await measureStreamMemory({
        ...streamTarget,
        origin: reader.origin,
        readRss: () => readRss(reader.child.pid),
        streams: STREAMS_FOR_MEMORY,
        settleMs: smokeRun ? { before: 100, after: 300 } : undefined
      })
      log(
        `  RSS ${mib(streamMemory.rssBefore)} → ${mib(streamMemory.rssAfter)} MiB; the probe event reached ${streamMemory.reached} streams`
      )
    }
    if (reader.child.hasExited()) throw new Error(`the second board server exited:\n${reader.child.output()}`)
    await stopChild(reader.child)
  }
  return { streamLatency, streamMemory }
}
