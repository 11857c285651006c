/**
 * The command's output as activities: lines are gathered and posted together (one request per
 * flush, never one per line), runs of the same kind joined into one body under the server's
 * limit. Every line is redacted before it is kept. A failed post keeps its lines for the next
 * flush (the server may be restarting); past `maxBuffered` characters the oldest are dropped
 * with a note saying how many.
 */
export type OutputKind = "thought" | "action"

export interface Entry {
  readonly kind: OutputKind
  readonly text: string
}

export interface BatcherOptions {
  /** Posts one activity; resolves false when it could not be delivered (kept for later). */
  readonly post: (kind: OutputKind, body: string) => Promise<boolean>
  readonly redact: (text: string) => string
  /** While true nothing is posted (the command waits for a person's answer: a post would end that wait). */
  readonly paused?: () => boolean
  readonly intervalMs?: number
  /** An activity body's limit is 10,000 characters; keep a margin. */
  readonly maxBody?: number
  readonly maxBuffered?: number
}

export interface Batcher {
  readonly add: (entry: Entry) => void
  /** Posts what is gathered (unless paused, or `force`). */
  readonly flush: (force?: boolean) => Promise<void>
  /** Stops the timer and flushes until everything is delivered or `withinMs` passed (the server may be restarting). */
  readonly close: (withinMs?: number) => Promise<void>
}

/** Consecutive entries of one kind, as bodies of at most `maxBody` characters. */
export const group = (entries: ReadonlyArray<Entry>, maxBody: number): Array<Entry> => {
  const out: Array<{ kind: OutputKind; text: string }> = []
  for (const e of entries) {
    const text = e.text.length > maxBody ? `${e.text.slice(0, maxBody - 1)}…` : e.text
    const last = out.at(-1)
    if (last !== undefined && last.kind === e.kind && last.text.length + 1 + text.length <= maxBody)
      last.text = `${last.text}\n${text}`
    else out.push({ kind: e.kind, text })
  }
  return out.filter((e) => e.text.trim() !== "")
}

export const makeBatcher = (options: BatcherOptions): Batcher => {
  const maxBody = options.maxBody ?? 8000
  const maxBuffered = options.maxBuffered ?? 200_000
  let pending: Array<Entry> = []
  let size = 0
  let dropped = 0
  let flushing: Promise<void> = Promise.resolve()

  const flushNow = async (force: boolean) => {
    if (pending.length === 0 && dropped === 0) return
    if (!force && options.paused?.() === true) return
    const taken = pending
    const note: Array<Entry> = dropped > 0 ? [{ kind: "thought", text: `[${dropped} earlier lines dropped]` }] : []
    pending = []
    size = 0
    dropped = 0
    const bodies = group([...note, ...taken], maxBody)
    for (let i = 0; i < bodies.length; i++) {
      if (!(await options.post(bodies[i].kind, bodies[i].text))) {
        // undelivered: back in front of what arrived meanwhile
        const rest = bodies.slice(i)
        pending = [...rest, ...pending]
        size = pending.reduce((n, e) => n + e.text.length, 0)
        return
      }
    }
  }
  const flush = (force = false) => {
    flushing = flushing.then(() => flushNow(force))
    return flushing
  }
  const timer = setInterval(() => void flush(), options.intervalMs ?? 2000)
  timer.unref()

  return {
    add: (entry) => {
      const text = options.redact(entry.text)
      pending.push({ kind: entry.kind, text })
      size += text.length
      while (size > maxBuffered && pending.length > 1) {
        size -= pending.shift()!.text.length
        dropped++
      }
      if (size >= maxBody) void flush()
    },
    flush,
    close: async (withinMs = 0) => {
      clearInterval(timer)
      const deadline = Date.now() + withinMs
      await flush(true)
      while (pending.length > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1000))
        await flush(true)
      }
    }
  }
}
