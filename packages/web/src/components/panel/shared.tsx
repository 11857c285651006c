/** What the panel's sections share: running an action with its error shown inline, and the data they read. */
import type { Board, Card, Member } from "@board/core/contract"
import { useCallback, useState } from "react"
import { ApiError } from "../../api.ts"

export interface Me {
  readonly id: string
  readonly email: string
  readonly full_name: string
}

/** What every section gets: the card, the names around it, and `changed` to call after a write. */
export interface SectionProps {
  readonly card: Card
  readonly board: Board | null
  readonly members: ReadonlyArray<Member>
  readonly me: Me | null
  /** Re-read the card and every section (after a write, or when the window regains focus). */
  readonly changed: () => void
  /** Bumped on every refresh: sections re-read their own lists when it changes. */
  readonly version: number
}

export const errorText = (e: unknown): string =>
  e instanceof ApiError ? e.message : e instanceof Error ? e.message : "Something went wrong"

/**
 * Runs a request and keeps its error to show next to the control that caused it (the server's
 * own message: it says what was wrong with the input). Resolves true when the request succeeded.
 */
export const useAction = (after?: () => void) => {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = useCallback(
    async (f: () => Promise<unknown>): Promise<boolean> => {
      setBusy(true)
      setError(null)
      try {
        await f()
        after?.()
        return true
      } catch (e) {
        setError(errorText(e))
        return false
      } finally {
        setBusy(false)
      }
    },
    [after]
  )
  return { error, busy, run, setError }
}

export function ErrorLine({ error }: { error: string | null }) {
  return error === null ? null : (
    <p role="alert" className="panel-error">
      {error}
    </p>
  )
}

export const formatTime = (iso: string): string => {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
}

/** Ids in URL paths: refs and UUIDs are safe, but a path segment is always encoded. */
export const seg = encodeURIComponent
