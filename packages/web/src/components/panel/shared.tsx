/** What the panel's sections share: running an action with its error shown inline, and the data they read. */
import { useEffect, useState } from "react"
import type { Me } from "../../lib/session.ts"
import type { Card, Column, Label, Member } from "../../types.ts"

export type { Me }

/** What every section gets: the card, the names around it (the board page's), and `changed` to call after a write. */
export interface SectionProps {
  readonly card: Card
  /** The board's columns, in board order. */
  readonly columns: ReadonlyArray<Column>
  /** The project's labels. */
  readonly labels: ReadonlyArray<Label>
  readonly members: ReadonlyArray<Member>
  readonly me: Me
  /** Re-read the card and every section (after a write, or when the window regains focus). */
  readonly changed: () => void
  /** Bumped on every refresh: sections re-read their own lists when it changes. */
  readonly version: number
}

export { ErrorLine, errorText, formatTime, useAction } from "../../lib/ui.tsx"

/**
 * A checkbox that shows the new state at once and saves it; the card's answer (or, on an error,
 * its unchanged state) then sets it, so it never lies for longer than a request.
 */
export function SavingCheckbox({
  checked,
  onChange,
  disabled
}: {
  checked: boolean
  onChange: (next: boolean) => void
  disabled?: boolean
}) {
  const [shown, setShown] = useState(checked)
  useEffect(() => setShown(checked), [checked])
  return (
    <input
      type="checkbox"
      checked={shown}
      disabled={disabled}
      onChange={(e) => {
        setShown(e.target.checked)
        onChange(e.target.checked)
      }}
    />
  )
}
