/**
 * `board events`: a project's history, and with --follow its live stream (Server-Sent Events
 * read by hand), reconnecting from the last id it printed after a drop, with backoff.
 */
import { type BoardEvent, eventTypes, isEventId } from "@board/core/contract"
import type { Command } from "commander"
import { InvalidArgumentError, Option } from "commander"
import { Effect } from "effect"
import type { App } from "../support/app.ts"
import { BoardApi } from "../support/client.ts"
import { eventLine, sseFrames } from "../support/events.ts"
import { failure } from "../support/failure.ts"
import { examples } from "../support/format.ts"
import { Lookup } from "../support/lookup.ts"
import { Output } from "../support/output.ts"
import { Settings } from "../support/settings.ts"
import { projectOption } from "./shared.ts"

export interface EventsOptions {
  readonly project?: string
  readonly follow?: boolean
  readonly after?: string
  readonly types?: ReadonlyArray<string>
}

/** Before every event: a cursor that sorts first, so a stream from it replays the whole log. */
const START = "0".repeat(24)
const BACKOFF_MS = { first: 500, max: 15_000 }

const parseTypes = (value: string): Array<string> => {
  const types = value
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "")
  const unknown = types.find((t) => !(eventTypes as ReadonlyArray<string>).includes(t))
  if (unknown !== undefined)
    throw new InvalidArgumentError(`unknown event type "${unknown}"; known: ${eventTypes.join(", ")}`)
  return types
}
const parseAfter = (value: string): string => {
  if (!isEventId(value)) throw new InvalidArgumentError("expected an event id (24 lowercase hex digits)")
  return value
}

export const runEvents = Effect.fn("events")(function* (options: EventsOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const settings = yield* Settings
  const project = yield* lookup.project(options.project)
  const print = (e: BoardEvent) => out.data(out.json ? JSON.stringify(e) : eventLine(e, out.style))

  if (options.follow !== true) {
    let after = options.after
    for (;;) {
      const page = yield* client.events.projectEvents({
        params: { projectId: project.id },
        query: {
          limit: 500,
          ...(after !== undefined ? { after } : {}),
          ...(options.types !== undefined && options.types.length > 0 ? { types: options.types.join(",") } : {})
        }
      })
      for (const e of page.events) yield* print(e)
      if (page.next === null) return
      after = page.next
    }
  }

  // --follow: the stream replays from the cursor (the whole log by default) and then goes live
  const wanted = options.types !== undefined && options.types.length > 0 ? new Set(options.types) : undefined
  const url = `${settings.origin}/api/v1/projects/${project.id}/events/stream`
  let last = options.after ?? START
  let backoff = BACKOFF_MS.first
  for (;;) {
    const outcome = yield* Effect.tryPromise({
      try: async (signal) => {
        const response = await fetch(url, {
          headers: {
            accept: "text/event-stream",
            "user-agent": "board-cli",
            "last-event-id": last,
            ...(settings.apiKey !== undefined ? { "x-api-key": settings.apiKey } : {})
          },
          signal
        })
        if (!response.ok || response.body === null) {
          const text = await response.text().catch(() => "")
          let message = text
          try {
            message = (JSON.parse(text) as { error?: string }).error ?? text
          } catch {}
          // a refusal is final, except a busy server or a full budget
          return { refused: response.status !== 429 && response.status < 500, message: `${response.status} ${message}` }
        }
        backoff = BACKOFF_MS.first
        for await (const frame of sseFrames(response.body)) {
          if (frame.id === undefined) continue
          last = frame.id
          const e = JSON.parse(frame.data) as BoardEvent
          if (wanted === undefined || wanted.has(e.type)) Effect.runSync(print(e))
        }
        return { refused: false, message: "the stream ended" }
      },
      catch: (cause) => cause
    }).pipe(Effect.catch((cause) => Effect.succeed({ refused: false, message: String(cause) })))
    if (outcome.refused) return yield* failure(`the event stream was refused: ${outcome.message}`)
    yield* out.message(`event stream dropped (${outcome.message}); reconnecting from ${last} in ${backoff} ms`)
    yield* Effect.sleep(backoff)
    backoff = Math.min(backoff * 2, BACKOFF_MS.max)
  }
})

export const registerEvents = (program: Command, app: App) =>
  program
    .command("events")
    .description("a project's events, oldest first: time, type, who, which card; --follow streams them live")
    .addOption(projectOption())
    .option("-f, --follow", "keep streaming new events (reconnects from the last one after a drop)")
    .addOption(new Option("--after <id>", "start after this event id").argParser(parseAfter))
    .addOption(
      new Option("--types <types>", "only these types, comma-separated (card.created,card.moved)").argParser(parseTypes)
    )
    .addHelpText(
      "after",
      examples(
        "board events",
        "board events --types card.moved --project WEB",
        "board events --follow",
        "board events --follow --json | jq -r .type"
      )
    )
    .action((flags: EventsOptions, cmd: Command) => app.run(cmd, flags, runEvents))
