import { useState } from "react"

/**
 * A button for what cannot be undone: it opens a box that names what will be lost, and only the
 * box's own button does it.
 */
export function ConfirmDanger({
  label,
  loss,
  confirmLabel,
  onConfirm,
  busy
}: {
  label: string
  /** What goes, in a sentence a person reads before confirming. */
  loss: string
  confirmLabel: string
  onConfirm: () => void
  busy?: boolean
}) {
  const [asking, setAsking] = useState(false)
  if (!asking)
    return (
      <button type="button" className="button small danger-outline" onClick={() => setAsking(true)}>
        {label}
      </button>
    )
  return (
    <div className="confirm-danger" role="alertdialog" aria-label={confirmLabel}>
      <p>{loss}</p>
      <button type="button" className="button small danger" disabled={busy} onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button type="button" className="button small ghost" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  )
}
