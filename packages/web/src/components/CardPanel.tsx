/** The card panel: edit a card and follow what happens to it (opened from the board). */
export function CardPanel({ cardId, onClose }: { cardId: string; projectId: string; onClose: () => void }) {
  return (
    <aside aria-label="Card">
      <p>{cardId}</p>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </aside>
  )
}
