/** Small pieces the panel and the account pages share: a request with its error shown inline, times. */
import { useCallback, useState } from "react"
import { ApiError } from "../api.ts"

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
    <p role="alert" className="inline-error">
      {error}
    </p>
  )
}

export const formatTime = (iso: string): string => {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
}
