import { useEffect, useId, useMemo, useState } from "react"
import { api } from "../../api.ts"
import { actorText, memberNames } from "../../lib/actors.ts"
import { statusText } from "../../lib/history.ts"
import { ActorName } from "../ActorName.tsx"
import { Markdown } from "./Markdown.tsx"
import type { AgentSessionDetail } from "../../types.ts"
import { ErrorLine, errorText, formatTime, type SectionProps, useAction } from "./shared.tsx"

const LIVE = new Set(["active", "awaitingInput", "error"])
/** Sessions whose activities the panel reads: the live ones and the latest few that ended. */
const DETAILED = 3
/** While an agent works on the card, the panel re-reads it this often (the board has the stream). */
const POLL_MS = 10_000

/**
 * Agents on the card: who holds its claim, each session's status and activities, and, when an
 * agent waits for an answer, its question up front with a reply box. The reply is a comment: a
 * person's comment is what resumes an awaiting session on the server.
 */
export function AgentsSection({ card, members, changed, version }: SectionProps) {
  const id = useId()
  const names = useMemo(() => memberNames(members), [members])
  const [sessions, setSessions] = useState<ReadonlyArray<AgentSessionDetail> | null>(null)
  const [error, setError] = useState<string | null>(null)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is the refresh signal (SectionProps)
  useEffect(() => {
    let live = true
    ;(async () => {
      const list = await api.GET("/v1/cards/{id}/agent-sessions", { params: { path: { id: card.id } } })
      const detailed = list.filter((s, i) => LIVE.has(s.status) || i < DETAILED)
      const details = await Promise.all(
        detailed.map((s) =>
          api.GET("/v1/agent-sessions/{id}", { params: { path: { id: s.id }, query: { limit: 500 } } })
        )
      )
      const byId = new Map(details.map((d) => [d.id as string, d]))
      return list.map((s) => byId.get(s.id) ?? { ...s, activities: [] })
    })().then(
      (s) => {
        if (!live) return
        setSessions(s)
        setError(null)
      },
      (e) => live && setError(errorText(e))
    )
    return () => {
      live = false
    }
  }, [card.id, version])

  const anyLive = card.claim !== null || (sessions ?? []).some((s) => LIVE.has(s.status))
  useEffect(() => {
    if (!anyLive) return
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") changed()
    }, POLL_MS)
    return () => clearInterval(timer)
  }, [anyLive, changed])

  if (sessions !== null && sessions.length === 0 && card.claim === null && error === null) return null
  const waiting = (sessions ?? []).filter((s) => s.status === "awaitingInput")
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Agents</h3>
      {card.claim !== null ? (
        <p className="panel-claim">
          Claimed by <ActorName actor={card.claim.actor} members={names} strong /> until{" "}
          <time dateTime={card.claim.leaseExpiresAt}>{formatTime(card.claim.leaseExpiresAt)}</time>
        </p>
      ) : (
        <p className="panel-muted">Not claimed.</p>
      )}
      {waiting.map((s) => (
        <Question key={s.id} session={s} cardId={card.id} changed={changed} names={names} />
      ))}
      <ol className="panel-sessions">
        {(sessions ?? []).map((s) => (
          <li key={s.id} className="panel-session">
            <div className="panel-session-head">
              <ActorName actor={s.actor} members={names} strong />
              <span className={`status status-${s.status}`}>{statusText(s.status)}</span>
              <time dateTime={s.createdAt}>{formatTime(s.createdAt)}</time>
            </div>
            {s.activities.length > 0 && (
              <details open={LIVE.has(s.status)}>
                <summary>
                  {s.activities.length} {s.activities.length === 1 ? "activity" : "activities"}
                </summary>
                <ol className="panel-activities">
                  {s.activities.map((a) => (
                    <li key={a.id} className={`activity activity-${a.type}`}>
                      <span className="activity-type">{a.type}</span>
                      <Markdown text={a.body} />
                    </li>
                  ))}
                </ol>
              </details>
            )}
          </li>
        ))}
      </ol>
      <ErrorLine error={error} />
    </section>
  )
}

function Question({
  session,
  cardId,
  changed,
  names
}: {
  session: AgentSessionDetail
  cardId: string
  changed: () => void
  names: ReadonlyMap<string, string>
}) {
  const { error, busy, run } = useAction(changed)
  const id = useId()
  const [reply, setReply] = useState("")
  const question = [...session.activities].reverse().find((a) => a.type === "elicitation")
  const who = actorText(session.actor, names)
  return (
    <section className="panel-question" aria-labelledby={`${id}-h`}>
      <h4 id={`${id}-h`}>{who} is waiting for your answer</h4>
      {question !== undefined ? <Markdown text={question.body} /> : <p>The agent asked for input.</p>}
      <form
        className="panel-field"
        onSubmit={(e) => {
          e.preventDefault()
          if (reply.trim() !== "")
            void run(() =>
              api.POST("/v1/cards/{id}/comments", { params: { path: { id: cardId } }, body: { body: reply } })
            ).then((ok) => ok && setReply(""))
        }}
      >
        <label htmlFor={`${id}-reply`}>Reply to {who}</label>
        <textarea id={`${id}-reply`} rows={3} value={reply} onChange={(e) => setReply(e.target.value)} />
        <div className="panel-actions">
          <button type="submit" disabled={busy || reply.trim() === ""}>
            Send reply
          </button>
        </div>
      </form>
      <ErrorLine error={error} />
    </section>
  )
}
