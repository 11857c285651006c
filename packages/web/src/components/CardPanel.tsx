/**
 * The card panel: a modal dialog over the board to edit a card and follow what happens to it
 * (opened from the board at `/p/:projectId?card=<id>`). This file is the dialog itself (focus
 * in on open and back on close, Escape, a focus trap, full screen on a phone); its content, with
 * markdown-it, is a separate chunk loaded when a panel first opens, so the board's first load
 * does not carry it.
 */
import { lazy, Suspense, useEffect, useRef } from "react"
import "../panel.css"

const PanelBody = lazy(() => import("./panel/PanelBody.tsx"))

export const PANEL_TITLE_ID = "card-panel-title"

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export function CardPanel({ cardId, onClose }: { cardId: string; onClose: () => void }) {
  const dialog = useRef<HTMLDivElement>(null)
  const close = useRef(onClose)
  close.current = onClose

  // Focus moves into the dialog when it opens and back to what had it (the card) when it closes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    dialog.current?.focus()
    return () => {
      if (opener?.isConnected) opener.focus()
    }
  }, [])

  // Another card opened in the same panel: start reading it from the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the card changes
  useEffect(() => {
    dialog.current?.scrollTo?.({ top: 0 })
  }, [cardId])

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Escape") {
      e.stopPropagation()
      close.current()
      return
    }
    // aria-modal promises the rest of the page is out of reach: Tab cycles inside the dialog
    if (e.key === "Tab" && dialog.current !== null) {
      const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null
      )
      if (items.length === 0) return
      const first = items[0]!
      const last = items[items.length - 1]!
      if (e.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
        e.preventDefault()
        last.focus()
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault()
        first.focus()
      }
    }
  }

  return (
    // a click beside the panel closes it (a mouse convenience: Escape and the Close button are the keyboard ways)
    // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is not a control; see above
    <div className="panel-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close.current()}>
      <div
        ref={dialog}
        className="panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={PANEL_TITLE_ID}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <Suspense
          fallback={
            <div className="panel-loading">
              <h2 id={PANEL_TITLE_ID}>Loading card…</h2>
              <button type="button" className="panel-close" onClick={() => close.current()} aria-label="Close card">
                ×
              </button>
            </div>
          }
        >
          <PanelBody key={cardId} cardId={cardId} onClose={() => close.current()} />
        </Suspense>
      </div>
    </div>
  )
}
