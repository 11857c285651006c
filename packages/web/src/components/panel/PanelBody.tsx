/**
 * The card panel's content: the card (the board's copy at once, then read by itself through the
 * query cache, which the board's live stream keeps current), named with what the board page
 * already holds (columns, labels, members: lib/boardContext.ts; the board is never read again
 * here), and its sections laid out.
 */
import { useCallback, useEffect, useId, useState } from "react"
import { ApiError, api } from "../../api.ts"
import { useBoardView } from "../../lib/boardContext.ts"
import type { paths } from "../../lib/api-types.ts"
import { cardKey, useQuery } from "../../lib/queryCache.ts"
import { useSession } from "../../lib/session.ts"
import type { Card, Label } from "../../types.ts"
import { PANEL_TITLE_ID } from "../CardPanel.tsx"
import { AgentsSection } from "./AgentsSection.tsx"
import { ArchiveSection } from "./ArchiveSection.tsx"
import { CommentsSection } from "./CommentsSection.tsx"
import { HistorySection } from "./HistorySection.tsx"
import { LabelsSection } from "./LabelsSection.tsx"
import { CardLinksSection } from "./LinksSection.tsx"
import { PullRequestsSection } from "./PullRequestsSection.tsx"
import { Markdown } from "./Markdown.tsx"
import { ErrorLine, errorText, SavingCheckbox, type SectionProps, useAction } from "./shared.tsx"
import { SubtasksSection } from "./SubtasksSection.tsx"

const PRIORITIES = ["low", "medium", "high", "urgent"] as const
/**
 * What GET /v1/cards/{id} takes: a UUID or a ref such as WEB-12 (the core's CARD_ID_OR_REF,
 * packages/core/src/domain/ids.ts; copied, as a runtime import of the core would bring Effect into the app).
 */
const CARD_ID_OR_REF =
  /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Za-z][A-Za-z0-9]*-[0-9]+)$/

/** A URL edited by hand: said without asking the server (which would answer 400). */
const NOT_A_CARD = { status: 404, message: "No card has this address: check the link." }

export default function PanelBody({ cardId, onClose }: { cardId: string; onClose: () => void }) {
  const board = useBoardView()
  const { me } = useSession()
  const [version, setVersion] = useState(0)
  const valid = CARD_ID_OR_REF.test(cardId)
  // the board's copy (by id, or by ref as a search result or a link names it) shows at once
  const known =
    board?.state.cards[cardId] ?? Object.values(board?.state.cards ?? {}).find((c) => c.ref === cardId.toUpperCase())
  const query = useQuery<Card>(
    valid ? cardKey(cardId) : null,
    () => api.GET("/v1/cards/{id}", { params: { path: { id: cardId } } }),
    known
  )
  const card = query.data ?? null
  const loadError = !valid
    ? NOT_A_CARD
    : query.error === undefined
      ? null
      : { status: query.error instanceof ApiError ? query.error.status : 0, message: errorText(query.error) }

  const { reload } = query
  const changed = useCallback(() => {
    reload()
    setVersion((v) => v + 1)
  }, [reload])

  // someone (or an agent) may have changed the card while the window was elsewhere
  useEffect(() => {
    const onFocus = () => changed()
    window.addEventListener("focus", onFocus)
    return () => window.removeEventListener("focus", onFocus)
  }, [changed])

  const dispatch = board?.dispatch
  const onLabelCreated = useCallback((label: Label) => dispatch?.({ type: "label", label }), [dispatch])

  if (card === null)
    return (
      <div className="panel-loading">
        <h2 id={PANEL_TITLE_ID}>
          {loadError === null ? "Loading card…" : loadError.status === 404 ? "Card not found" : "Card unavailable"}
        </h2>
        {loadError !== null && <p role="alert">{loadError.message}</p>}
        <button type="button" className="panel-close" onClick={onClose} aria-label="Close card">
          ×
        </button>
      </div>
    )

  const props: SectionProps = {
    card,
    columns: board?.state.columns ?? [],
    labels: board?.state.labels ?? [],
    members: board?.members ?? [],
    me,
    changed,
    version
  }
  const column = props.columns.find((c) => c.id === card.columnId)
  return (
    <>
      <header className="panel-head">
        <h2 id={PANEL_TITLE_ID}>
          <span className="panel-ref">{card.ref}</span> <span className="panel-title-text">{card.title}</span>
        </h2>
        <button type="button" className="panel-close" onClick={onClose} aria-label="Close card">
          ×
        </button>
      </header>
      {loadError !== null && (
        <p role="alert" className="panel-error">
          {loadError.status === 404 ? "This card was deleted." : loadError.message}
        </p>
      )}
      {column !== undefined && (
        <p className="panel-meta">
          {card.archivedAt === null ? `In ${column.name}` : `Archived, from ${column.name}: off the board`}
        </p>
      )}
      {/* while an agent holds the card, what it does (and any question it asks) comes first */}
      {card.claim !== null && <AgentsSection {...props} />}
      <Details {...props} />
      <Description {...props} />
      <LabelsSection {...props} onLabelCreated={onLabelCreated} />
      <SubtasksSection {...props} />
      {card.claim === null && <AgentsSection {...props} />}
      <CardLinksSection {...props} />
      <PullRequestsSection {...props} />
      <CommentsSection {...props} />
      <HistorySection {...props} />
      <ArchiveSection {...props} onDeleted={onClose} />
    </>
  )
}

type CardPatch = NonNullable<paths["/v1/cards/{id}"]["patch"]["requestBody"]>["content"]["application/json"]

/** Title, priority, due date and assignees: each saved as soon as it is changed. */
function Details({ card, members, changed }: SectionProps) {
  const { error, run } = useAction(changed)
  const id = useId()
  const [title, setTitle] = useState(card.title)
  useEffect(() => setTitle(card.title), [card.title])
  const patch = (body: CardPatch) => run(() => api.PATCH("/v1/cards/{id}", { params: { path: { id: card.id } }, body }))
  const saveTitle = () => {
    const t = title.trim()
    if (t === card.title) return
    if (t === "") {
      setTitle(card.title)
      return
    }
    void patch({ title: t })
  }
  const due = card.dueAt === null ? "" : card.dueAt.slice(0, 10)
  const toggleAssignee = (userId: string, on: boolean) =>
    void patch({
      assigneeIds: on ? [...card.assigneeIds, userId] : card.assigneeIds.filter((a) => a !== userId)
    })
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`} className="visually-hidden">
        Details
      </h3>
      <div className="panel-field">
        <label htmlFor={`${id}-title`}>Title</label>
        <input
          id={`${id}-title`}
          value={title}
          maxLength={500}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={saveTitle}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault()
              saveTitle()
            }
          }}
        />
      </div>
      <div className="panel-row">
        <div className="panel-field">
          <label htmlFor={`${id}-priority`}>Priority</label>
          <select
            id={`${id}-priority`}
            value={card.priority}
            onChange={(e) => void patch({ priority: e.target.value as Card["priority"] })}
          >
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="panel-field">
          <label htmlFor={`${id}-due`}>Due date</label>
          <div className="panel-inline">
            <input
              id={`${id}-due`}
              type="date"
              value={due}
              onChange={(e) =>
                // a due date is a day, kept as that day's midnight UTC so everyone sees the same day
                void patch({ dueAt: e.target.value === "" ? null : `${e.target.value}T00:00:00.000Z` })
              }
            />
            {card.dueAt !== null && (
              <button type="button" className="link-button" onClick={() => void patch({ dueAt: null })}>
                Clear due date
              </button>
            )}
          </div>
        </div>
      </div>
      <fieldset className="panel-assignees">
        <legend>Assignees</legend>
        {members.length === 0 && <p className="panel-muted">No members loaded.</p>}
        {members.map((m) => (
          // biome-ignore lint/a11y/noLabelWithoutControl: SavingCheckbox is the <input> it labels
          <label key={m.userId} className="panel-check">
            <SavingCheckbox
              checked={card.assigneeIds.includes(m.userId)}
              onChange={(on) => toggleAssignee(m.userId, on)}
            />
            {m.fullName || m.email}
            {m.kind === "agent" && (
              <>
                {" "}
                <span className="agent-mark" title="An agent member, not a person">
                  agent
                </span>
              </>
            )}
          </label>
        ))}
      </fieldset>
      <ErrorLine error={error} />
    </section>
  )
}

function Description({ card, changed }: SectionProps) {
  const { error, busy, run } = useAction(changed)
  const id = useId()
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState(card.description ?? "")
  const edit = () => {
    setText(card.description ?? "")
    setEditing(true)
  }
  const save = async () => {
    const description = text === "" ? null : text
    if (await run(() => api.PATCH("/v1/cards/{id}", { params: { path: { id: card.id } }, body: { description } })))
      setEditing(false)
  }
  return (
    <section className="panel-section" aria-labelledby={`${id}-h`}>
      <div className="panel-section-head">
        <h3 id={`${id}-h`}>Description</h3>
        {!editing && (
          <button type="button" className="link-button" onClick={edit}>
            Edit description
          </button>
        )}
      </div>
      {editing ? (
        <div className="panel-field">
          <label htmlFor={`${id}-text`} className="visually-hidden">
            Description (Markdown)
          </label>
          <textarea
            id={`${id}-text`}
            rows={8}
            value={text}
            // biome-ignore lint/a11y/noAutofocus: the person just asked to edit this text
            autoFocus
            onChange={(e) => setText(e.target.value)}
          />
          <div className="panel-actions">
            <button type="button" onClick={() => void save()} disabled={busy}>
              Save description
            </button>
            <button type="button" className="secondary" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : card.description === null || card.description === "" ? (
        <p className="panel-muted">No description.</p>
      ) : (
        <Markdown text={card.description} className="md panel-description" />
      )}
      <ErrorLine error={error} />
    </section>
  )
}
