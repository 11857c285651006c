import { useEffect, useId, useMemo, useState } from "react"
import { api } from "../../api.ts"
import { agentMemberIds, memberNames } from "../../lib/actors.ts"
import { describeEvent } from "../../lib/history.ts"
import type { BoardEvent } from "../../types.ts"
import { ErrorLine, errorText, formatTime, type SectionProps } from "./shared.tsx"

const PAGE = 100

/** The card's history as a timeline of sentences, oldest first, a page at a time. */
export function HistorySection({ card, columns, members, version }: SectionProps) {
  const id = useId()
  const [events, setEvents] = useState<ReadonlyArray<BoardEvent>>([])
  const [next, setNext] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const names = useMemo(
    () => ({
      columns: new Map(columns.map((c) => [c.id, c.name])),
      members: memberNames(members),
      agents: agentMemberIds(members)
    }),
    [columns, members]
  )
  const load = (after: string | null) =>
    api.GET("/v1/cards/{id}/history", {
      params: { path: { id: card.id }, query: { limit: PAGE, ...(after === null ? {} : { after }) } }
    })

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the refresh signal; `load` is made from card.id
  useEffect(() => {
    let live = true
    load(null).then(
      (p) => {
        if (!live) return
        setEvents(p.events)
        setNext(p.next)
        setError(null)
      },
      (e) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [card.id, version])

  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>History</h3>
      {events.length === 0 && error === null && <p className="panel-muted">Nothing yet.</p>}
      <ol className="panel-history">
        {events.map((e) => (
          <li key={e.id}>
            <span>{describeEvent(e, names)}</span> <time dateTime={e.createdAt}>{formatTime(e.createdAt)}</time>
          </li>
        ))}
      </ol>
      {next !== null && (
        <button
          type="button"
          className="link-button"
          onClick={() =>
            load(next).then(
              (p) => {
                setEvents((old) => [...old, ...p.events])
                setNext(p.next)
              },
              (e) => setError(errorText(e))
            )
          }
        >
          Show more history
        </button>
      )}
      <ErrorLine error={error} />
    </section>
  )
}
