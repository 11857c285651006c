/**
 * Issue 18, the live stream: SSE frames, keep-alive, replay from a cursor, kill and reconnect
 * under a steady write load (every event exactly once, in order), two instances on one
 * PostgreSQL, the slow consumer, and the CLI's `board events` / `board card history`.
 */
import { EventFeed } from "@board/core"
import { Effect } from "effect"
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialectBackends as backends, postgresUrl } from "./support/backends.ts"
import { type Account, bootstrap, call, key } from "./support/client.ts"
import { runBoard, tempConfigHome } from "./support/cli.ts"
import { waitFor } from "./support/poll.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { spawnBoard } from "./support/spawn.ts"

interface Frame {
  readonly id?: string
  readonly event?: string
  readonly data?: string
  readonly retry?: string
  readonly comment?: string
}

/** An open stream: its frames as they arrive (comments included), and a way to cut it. */
const open = async (url: string, headers: Record<string, string>) => {
  const abort = new AbortController()
  const response = await fetch(url, { headers, signal: abort.signal })
  const frames: Array<Frame> = []
  let raw = ""
  let ended = false
  const waiters = new Set<() => void>()
  const pump = (async () => {
    const decoder = new TextDecoder()
    let buffer = ""
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true })
        raw += text
        buffer += text
        let end = buffer.indexOf("\n\n")
        while (end >= 0) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const frame: Record<string, string> = {}
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) frame.comment = line.slice(1).trim()
            else {
              const colon = line.indexOf(":")
              frame[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, "")
            }
          }
          frames.push(frame)
          end = buffer.indexOf("\n\n")
        }
        for (const w of waiters) w()
      }
    } catch {
      // aborted
    }
    ended = true
    for (const w of waiters) w()
  })()
  const until = async (test: () => boolean, ms = 10_000) => {
    const deadline = Date.now() + ms
    while (!test()) {
      if (ended) throw new Error(`the stream ended before the condition held; got: ${raw.slice(-500)}`)
      if (Date.now() > deadline) throw new Error(`timed out; got: ${raw.slice(-500)}`)
      await new Promise<void>((resolve) => {
        const w = () => {
          waiters.delete(w)
          resolve()
        }
        waiters.add(w)
        setTimeout(w, 50)
      })
    }
  }
  const events = () => frames.filter((f) => f.id !== undefined)
  return {
    response,
    frames,
    events,
    raw: () => raw,
    ended: () => ended,
    until,
    close: async () => {
      abort.abort()
      await pump
    },
    done: pump
  }
}

const createCard = (base: string, a: Account, title: string, description?: string) =>
  call(base, "POST", "/v1/cards", {
    body: { projectId: a.projectId, columnId: a.columns[0]!.id, title, ...(description ? { description } : {}) },
    headers: key(a.apiKey)
  })

/** Every event of the project, through the history API. */
const history = async (base: string, a: Account) => {
  const all: Array<any> = []
  let after: string | null = null
  do {
    const page: any = await call(
      base,
      "GET",
      `/v1/projects/${a.projectId}/events?limit=500${after ? `&after=${after}` : ""}`,
      { headers: key(a.apiKey) }
    )
    all.push(...page.body.events)
    after = page.body.next
  } while (after !== null)
  return all
}

describe.each(backends)("live event stream on %s", (backend) => {
  let server: TestServer
  let base: string
  let a: Account
  const streamUrl = () => `${base}/v1/projects/${a.projectId}/events/stream`
  beforeAll(async () => {
    server = await startServer(backend, { EVENT_STREAM_KEEPALIVE: "300ms" })
    base = server.baseUrl
    a = await bootstrap(base, "streamer")
  }, 60_000)
  afterAll(() => server?.stop())

  it("sends retry, then each new event as id/event/data, and keep-alive comments", async () => {
    const s = await open(streamUrl(), key(a.apiKey))
    try {
      expect(s.response.status).toBe(200)
      expect(s.response.headers.get("content-type")).toContain("text/event-stream")
      await s.until(() => s.frames.length > 0)
      expect(s.frames[0]).toEqual({ retry: "1000" })
      const c = await createCard(base, a, "Live one")
      expect(c.status).toBe(201)
      await s.until(() => s.events().length >= 1)
      const [frame] = s.events()
      expect(frame!.event).toBe("card.created")
      const event = JSON.parse(frame!.data!)
      expect(event.id).toBe(frame!.id)
      expect(event.data.object).toEqual(c.body)
      // the same event as the history API gives
      expect((await history(base, a)).at(-1)).toEqual(event)
      // a keep-alive comment within a few intervals
      await s.until(() => s.frames.some((f) => f.comment === "keepalive"), 5_000)
      // the raw bytes: each frame ends with a blank line, fields in order
      expect(s.raw()).toContain(`id: ${frame!.id}\nevent: card.created\ndata: {`)
    } finally {
      await s.close()
    }
  })

  it("replays after a cursor (?after= or Last-Event-ID, the header winning), then goes live", async () => {
    for (let i = 0; i < 3; i++) expect((await createCard(base, a, `Replay ${i}`)).status).toBe(201)
    const all = await history(base, a)
    const from = all.at(-3)!.id
    const byQuery = await open(`${streamUrl()}?after=${from}`, key(a.apiKey))
    const byHeader = await open(`${streamUrl()}?after=${all[0].id}`, { ...key(a.apiKey), "last-event-id": from })
    try {
      await byQuery.until(() => byQuery.events().length >= 2)
      await byHeader.until(() => byHeader.events().length >= 2)
      const expected = all.slice(-2).map((e) => e.id)
      expect(byQuery.events().map((f) => f.id)).toEqual(expected)
      expect(byHeader.events().map((f) => f.id)).toEqual(expected)
      await createCard(base, a, "After replay")
      await byQuery.until(() => byQuery.events().length >= 3)
      expect(JSON.parse(byQuery.events()[2]!.data!).data.object.title).toBe("After replay")
    } finally {
      await byQuery.close()
      await byHeader.close()
    }
    const bad = await call(base, "GET", `/v1/projects/${a.projectId}/events/stream`, {
      headers: { ...key(a.apiKey), "last-event-id": "not-an-id" }
    })
    expect(bad.status).toBe(400)
    expect(typeof bad.body.error).toBe("string")
  })

  it("killed and reconnected with Last-Event-ID under a steady write load, sees every event once, in order", async () => {
    const start = (await history(base, a)).at(-1)!.id
    let writing = true
    let written = 0
    let writeFailure: unknown
    const writer = (async () => {
      while (writing) {
        const c = await createCard(base, a, `Load ${written}`)
        if (c.status !== 201) throw new Error(`write failed: ${c.status} ${c.text}`)
        written++
        await new Promise((r) => setTimeout(r, 3))
      }
    })().catch((e) => {
      writeFailure = e
    })
    const seen: Array<string> = []
    let last = start
    let roundsWithEvents = 0
    for (let round = 0; round < 4; round++) {
      const s = await open(streamUrl(), { ...key(a.apiKey), "last-event-id": last })
      // read for a while, then cut the connection mid-stream
      await new Promise((r) => setTimeout(r, 500 + round * 100))
      await s.close()
      for (const f of s.events()) seen.push(f.id!)
      if (s.events().length > 0) {
        last = s.events().at(-1)!.id!
        roundsWithEvents++
      }
    }
    // the writes go on until there are more than 50 (a slow machine writes fewer during the rounds)
    while (writeFailure === undefined && written <= 50) await new Promise((r) => setTimeout(r, 50))
    writing = false
    await writer
    if (writeFailure !== undefined) throw writeFailure
    // a last connection drains what is left
    const all = (await history(base, a)).map((e) => e.id)
    const expected = all.slice(all.indexOf(start) + 1)
    const tail = await open(streamUrl(), { ...key(a.apiKey), "last-event-id": last })
    try {
      await tail.until(() => (tail.events().at(-1)?.id ?? last) === expected.at(-1), 15_000)
      for (const f of tail.events()) seen.push(f.id!)
    } finally {
      await tail.close()
    }
    // the cuts came while events were flowing: at least two of the four connections carried some
    // and resumed where the one before stopped
    expect(roundsWithEvents).toBeGreaterThanOrEqual(2)
    expect(expected.length).toBeGreaterThan(50)
    expect(seen.length).toBe(expected.length)
    expect(seen).toEqual(expected)
  }, 60_000)

  it("closes a consumer that falls too far behind, telling it where to resume", async () => {
    const slow = await startServer(backend, { EVENT_STREAM_BUFFER: "5" })
    try {
      const b = await bootstrap(slow.baseUrl, "slow")
      const url = new URL(`${slow.baseUrl}/v1/projects/${b.projectId}/events/stream`)
      // a raw client that stops reading: the server's socket backs up, then its queue
      const socket = net.connect(Number(url.port), "127.0.0.1")
      await new Promise((r) => socket.once("connect", r))
      let received = ""
      socket.on("data", (d) => (received += d.toString("utf8")))
      socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${b.apiKey}\r\n\r\n`)
      await new Promise((r) => setTimeout(r, 300))
      socket.pause()
      // ~10 KB per event, in rounds of 80 until the server has let go of the stream (its socket's
      // buffers full, then its queue past 5): at most 800 events, each round after that wasted work
      const description = "x".repeat(10_000)
      const streamsOpen = () => slow.run(Effect.map(Effect.service(EventFeed), (feed) => feed.stats().streams))
      // attached once the stream has read where the project's log ends
      await waitFor("the stream attached to the feed", async () => (await streamsOpen()) === 1)
      let written = 0
      while (written < 800 && (await streamsOpen()) > 0) {
        await Promise.all(
          Array.from({ length: 8 }, async (_, w) => {
            for (let i = 0; i < 10; i++) await createCard(slow.baseUrl, b, `Slow ${w}-${written + i}`, description)
          })
        )
        written += 80
      }
      expect(await streamsOpen(), `still attached after ${written} events`).toBe(0)
      socket.resume()
      // the response's last chunk (the connection itself stays open for keep-alive)
      await new Promise<void>((resolve) => {
        const ended = () => /\r\n0\r\n\r\n$/.test(received)
        if (ended()) return resolve()
        socket.on("data", () => ended() && resolve())
        socket.once("end", () => resolve())
        setTimeout(resolve, 15_000)
      })
      socket.destroy()
      const closing =
        /: closed: this stream fell more than 5 events behind; reconnect with Last-Event-ID: ([0-9a-f]{24})/.exec(
          received
        )
      expect(closing, received.slice(-400)).not.toBeNull()
      const ids = [...received.matchAll(/\nid: ([0-9a-f]{24})\n/g)].map((m) => m[1])
      // the id to resume from is the last one delivered
      expect(closing![1]).toBe(ids.at(-1))
      expect(ids.length).toBeLessThan(written)
    } finally {
      await slow.stop()
    }
  }, 120_000)

  it("board events --json and board card history through the real binary", async () => {
    const home = tempConfigHome()
    const env = { XDG_CONFIG_HOME: home, BOARD_API_URL: base, BOARD_API_KEY: a.apiKey }
    const c = await createCard(base, a, "CLI card")
    await call(base, "POST", `/v1/cards/${c.body.id}/move`, {
      body: { columnId: a.columns[1]!.id },
      headers: key(a.apiKey)
    })
    const all = await history(base, a)
    const events = await runBoard(["events", "--json"], { env })
    expect(events.code, events.stderr).toBe(0)
    const lines = events.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
    expect(lines.map((e) => e.id)).toEqual(all.map((e) => e.id))
    const moved = await runBoard(["events", "--types", "card.moved"], { env })
    expect(moved.code, moved.stderr).toBe(0)
    expect(moved.stdout).toContain("card.moved")
    expect(moved.stdout).toContain(`${c.body.ref} CLI card`)
    expect(moved.stdout).toContain("streamer")
    expect(moved.stdout).not.toContain("card.created")
    const hist = await runBoard(["card", "history", c.body.ref, "--json"], { env })
    expect(hist.code, hist.stderr).toBe(0)
    expect(
      hist.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).type)
    ).toEqual(["card.created", "card.moved"])
    const human = await runBoard(["card", "history", c.body.ref], { env })
    expect(human.stdout).toMatch(/card\.created .*streamer/)
    const bad = await runBoard(["events", "--types", "card.exploded"], { env })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain("card.exploded")
  }, 60_000)
})

describe.skipIf(postgresUrl === undefined)("two instances on one PostgreSQL", () => {
  let one: TestServer
  let two: TestServer
  beforeAll(async () => {
    one = await startServer("postgres")
    two = await startServer("postgres", { DATABASE_URL: one.config.databaseUrl! })
  }, 60_000)
  afterAll(async () => {
    await two?.stop()
    await one?.stop()
  })

  it("an event written through one reaches a stream held by the other", async () => {
    const a = await bootstrap(one.baseUrl, "pair")
    const s = await open(`${two.baseUrl}/v1/projects/${a.projectId}/events/stream`, key(a.apiKey))
    try {
      await s.until(() => s.frames.length > 0)
      const latencies: Array<number> = []
      for (let i = 0; i < 5; i++) {
        const before = Date.now()
        expect((await createCard(one.baseUrl, a, `Across ${i}`)).status).toBe(201)
        await s.until(() => s.events().length > i, 5_000)
        latencies.push(Date.now() - before)
      }
      console.log(`event committed on one instance → frame on the other: ${latencies.join(", ")} ms`)
      expect(Math.max(...latencies)).toBeLessThan(3_000)
    } finally {
      await s.close()
    }
  })

  it("a server closing ends its streams at once, and board events --follow resumes from its last id on the next one", async () => {
    const db = one.config.databaseUrl!
    const port = new URL(two.baseUrl).port
    const a = await bootstrap(one.baseUrl, "follower")
    const cli = spawnBoard(["events", "--follow", "--json"], {
      XDG_CONFIG_HOME: tempConfigHome(),
      BOARD_API_URL: two.baseUrl,
      BOARD_API_KEY: a.apiKey
    })
    const printed = () =>
      cli
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
    const waitFor = async (n: number) => {
      const deadline = Date.now() + 15_000
      while (printed().length < n) {
        if (Date.now() > deadline) throw new Error(`board events --follow printed: ${cli.output()}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    }
    try {
      expect((await createCard(one.baseUrl, a, "Before the restart")).status).toBe(201)
      await waitFor(1)
      // the instance holding the stream stops: its stream must not hold the close open
      const stopping = Date.now()
      await two.stop()
      expect(Date.now() - stopping).toBeLessThan(10_000)
      expect((await createCard(one.baseUrl, a, "While it was down")).status).toBe(201)
      two = await startServer("postgres", { DATABASE_URL: db, PORT: port })
      expect((await createCard(one.baseUrl, a, "After the restart")).status).toBe(201)
      await waitFor(3)
      const all = await history(one.baseUrl, a)
      expect(printed().map((e) => e.id)).toEqual(all.map((e) => e.id))
      expect(printed().map((e) => e.data.object.title)).toEqual([
        "Before the restart",
        "While it was down",
        "After the restart"
      ])
      expect(cli.output()).toContain("reconnecting from")
    } finally {
      cli.child.kill("SIGTERM")
      await cli.exited
    }
  }, 60_000)
})
