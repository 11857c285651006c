/** The card panel's content: loads the card and what names it, and lays out its sections. */
import type { Board, Card, Member } from "@board/core/contract"
import { useCallback, useEffect, useId, useState } from "react"
import { api } from "../../api.ts"
import { PANEL_TITLE_ID } from "../CardPanel.tsx"
import { AgentsSection } from "./AgentsSection.tsx"
import { CommentsSection } from "./CommentsSection.tsx"
import { HistorySection } from "./HistorySection.tsx"
import { LabelsSection } from "./LabelsSection.tsx"
import { CardLinksSection } from "./LinksSection.tsx"
import { Markdown } from "./Markdown.tsx"
import { ErrorLine, errorText, type Me, SavingCheckbox, type SectionProps, seg, useAction } from "./shared.tsx"
import { SubtasksSection } from "./SubtasksSection.tsx"

const PRIORITIES = ["low", "medium", "high", "urgent"] as const
/**
 * What GET /v1/cards/{id} takes: a UUID or a ref such as WEB-12 (the core's CARD_ID_OR_REF,
 * packages/core/src/domain/ids.ts; copied, as a runtime import of the core would bring Effect into the app).
 */
const CARD_ID_OR_REF =
  /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[A-Za-z][A-Za-z0-9]*-[0-9]+)$/

/** The board and members the last panel read (one project), shown while the next panel of it re-reads them. */
const namesCache = new Map<string, { board: Board; members: ReadonlyArray<Member> }>()

export default function PanelBody({
  cardId,
  projectId,
  onClose
}: {
  cardId: string
  projectId: string
  onClose: () => void
}) {
  const [card, setCard] = useState<Card | null>(null)
  const [board, setBoard] = useState<Board | null>(null)
  const [members, setMembers] = useState<ReadonlyArray<Member>>([])
  const [me, setMe] = useState<Me | null>(null)
  const [loadError, setLoadError] = useState<{ status: number; message: string } | null>(null)
  const [version, setVersion] = useState(0)

  const loadCard = useCallback(async () => {
    // a URL edited by hand: say so without asking the server (which would answer 400)
    if (!CARD_ID_OR_REF.test(cardId)) {
      setLoadError({ status: 404, message: "No card has this address: check the link." })
      return
    }
    try {
      setCard(await api<Card>("GET", `/v1/cards/${seg(cardId)}`))
      setLoadError(null)
    } catch (e) {
      setLoadError({ status: (e as { status?: number }).status ?? 0, message: errorText(e) })
    }
  }, [cardId])

  // the board names the columns (history) and lists the project's labels; members name assignees
  const loadBoard = useCallback(async () => {
    // what the last panel of this project read, at once; then today's (a board of 1,000 cards is a large read)
    const known = namesCache.get(projectId)
    if (known !== undefined) {
      setBoard(known.board)
      setMembers(known.members)
    }
    try {
      const b = await api<Board>("GET", `/v1/board/${seg(projectId)}`)
      setBoard(b)
      const m = await api<Array<Member>>("GET", `/v1/workspaces/${seg(b.project.workspaceId)}/members`)
      setMembers(m)
      namesCache.clear() // one project's at a time: a large board is not kept for a project left behind
      namesCache.set(projectId, { board: b, members: m })
    } catch {
      // the card itself says what is wrong (403/404); without names the panel still works
    }
  }, [projectId])

  const changed = useCallback(() => {
    void loadCard()
    setVersion((v) => v + 1)
  }, [loadCard])

  useEffect(() => {
    void loadCard()
    void loadBoard()
    api<Me>("GET", "/v1/me").then(setMe, () => {})
  }, [loadCard, loadBoard])

  // someone (or an agent) may have changed the card while the window was elsewhere
  useEffect(() => {
    const onFocus = () => changed()
    window.addEventListener("focus", onFocus)
    return () => window.removeEventListener("focus", onFocus)
  }, [changed])

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

  const props: SectionProps = { card, board, members, me, changed, version }
  const column = board?.columns.find((c) => c.id === card.columnId)
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
      {column !== undefined && <p className="panel-meta">In {column.name}</p>}
      {/* while an agent holds the card, what it does (and any question it asks) comes first */}
      {card.claim !== null && <AgentsSection {...props} />}
      <Details {...props} />
      <Description {...props} />
      <LabelsSection {...props} onLabelCreated={loadBoard} />
      <SubtasksSection {...props} />
      {card.claim === null && <AgentsSection {...props} />}
      <CardLinksSection {...props} />
      <CommentsSection {...props} />
      <HistorySection {...props} />
      <DeleteCard card={card} onDeleted={onClose} />
    </>
  )
}

/** Title, priority, due date and assignees: each saved as soon as it is changed. */
function Details({ card, members, changed }: SectionProps) {
  const { error, run } = useAction(changed)
  const id = useId()
  const [title, setTitle] = useState(card.title)
  useEffect(() => setTitle(card.title), [card.title])
  const patch = (body: Record<string, unknown>) => run(() => api("PATCH", `/v1/cards/${seg(card.id)}`, body))
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
            onChange={(e) => void patch({ priority: e.target.value })}
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
    if (await run(() => api("PATCH", `/v1/cards/${seg(card.id)}`, { description: text === "" ? null : text })))
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

function DeleteCard({ card, onDeleted }: { card: Card; onDeleted: () => void }) {
  const { error, busy, run } = useAction()
  const [confirming, setConfirming] = useState(false)
  return (
    <section className="panel-section panel-danger" aria-label="Delete card">
      {confirming ? (
        <fieldset className="panel-confirm" aria-label="Confirm delete">
          <p>
            Delete {card.ref} “{card.title}”? Its subtasks, links and comments go with it.
          </p>
          <div className="panel-actions">
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={async () => {
                if (await run(() => api("DELETE", `/v1/cards/${seg(card.id)}`))) onDeleted()
              }}
            >
              Yes, delete {card.ref}
            </button>
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </fieldset>
      ) : (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete card
        </button>
      )}
      <ErrorLine error={error} />
    </section>
  )
}
