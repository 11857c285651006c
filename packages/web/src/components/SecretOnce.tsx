import { useEffect, useId, useRef, useState } from "react"
import { copyText } from "../lib/copy.ts"

/**
 * A secret the server shows once (an API key, an intake token): in a read-only field with a Copy
 * button, and a plain warning that it will not be shown again.
 */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [status, setStatus] = useState<string>("")
  useEffect(() => {
    input.current?.focus()
    input.current?.select()
  }, [])
  const copy = async () => {
    if (await copyText(value)) setStatus("Copied to the clipboard.")
    else {
      // no clipboard access: select it for Ctrl+C / ⌘C (or long-press on a phone)
      input.current?.focus()
      input.current?.select()
      setStatus("Copy did not work here: the text is selected, press Ctrl+C (⌘C on a Mac).")
    }
  }
  return (
    <div className="secret-once">
      <label htmlFor={`${id}-v`}>{label}</label>
      <p className="keys-warning">Copy it now: it is shown only once and cannot be read back.</p>
      <div className="keys-inline">
        <input
          id={`${id}-v`}
          ref={input}
          className="secret-value"
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(e) => e.target.select()}
        />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Done
        </button>
      </div>
      <p className="keys-status" aria-live="polite">
        {status}
      </p>
    </div>
  )
}

/** A button that asks once more before it does something that cannot be undone. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled
}: {
  label: string
  confirmLabel: string
  onConfirm: () => void
  disabled?: boolean
}) {
  const [asking, setAsking] = useState(false)
  if (!asking)
    return (
      <button type="button" className="danger-outline" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    )
  return (
    <fieldset className="keys-confirm" aria-label={confirmLabel}>
      <button
        type="button"
        className="danger"
        disabled={disabled}
        onClick={() => {
          setAsking(false)
          onConfirm()
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </fieldset>
  )
}
