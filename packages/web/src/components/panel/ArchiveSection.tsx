/**
 * The end of the card panel: Archive first (the card leaves the board, search and the queue and
 * comes back with Restore, nothing lost), Delete behind it, a secondary action that asks first
 * (issue 33: what agents and people do by default is the reversible one).
 */
import { useState } from "react"
import { api } from "../../api.ts"
import { ErrorLine, type SectionProps, useAction } from "./shared.tsx"

export function ArchiveSection({ card, changed, onDeleted }: SectionProps & { onDeleted: () => void }) {
  const { error, busy, run } = useAction(changed)
  // a deleted card is not read again (its panel closes)
  const remove = useAction()
  const [more, setMore] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const archived = card.archivedAt !== null
  const path = { params: { path: { id: card.id } } }
  return (
    <section className="panel-section panel-danger" aria-label="Archive or delete card">
      <div className="panel-actions">
        {archived ? (
          <button type="button" disabled={busy} onClick={() => run(() => api.POST("/v1/cards/{id}/restore", path))}>
            Restore to the board
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => run(() => api.POST("/v1/cards/{id}/archive", path))}>
            Archive card
          </button>
        )}
        {!more && (
          <button type="button" className="secondary" aria-expanded={false} onClick={() => setMore(true)}>
            More…
          </button>
        )}
      </div>
      {card.archivedAt !== null && (
        <p className="panel-muted">Archived {new Date(card.archivedAt).toLocaleString()}.</p>
      )}
      {more &&
        (confirming ? (
          <fieldset className="panel-confirm" aria-label="Confirm delete">
            <p>
              Delete {card.ref} “{card.title}” for good? Its subtasks, links and comments go with it. Archive keeps
              them.
            </p>
            <div className="panel-actions">
              <button
                type="button"
                className="danger"
                disabled={remove.busy}
                onClick={async () => {
                  if (await remove.run(() => api.DELETE("/v1/cards/{id}", path))) onDeleted()
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
          <button type="button" className="danger secondary" onClick={() => setConfirming(true)}>
            Delete card…
          </button>
        ))}
      <ErrorLine error={error ?? remove.error} />
    </section>
  )
}
