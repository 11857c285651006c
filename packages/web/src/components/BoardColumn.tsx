/**
 * A column: its header (name, kind, count, rename, set the kind, move left/right, delete), its cards in order (a
 * list, which is where dragged cards drop, also when empty) and the inline form that adds a card.
 */
import { useDroppable } from "@dnd-kit/core"
import { type FormEvent, memo, useState } from "react"
import type { SessionStatus } from "../lib/boardState.ts"
import { type ColumnKind, columnKindText, kindText } from "../lib/columnKind.ts"
import type { Card, Column } from "../types.ts"
import { BoardCard, type CardActions } from "./BoardCard.tsx"

export interface ColumnActions {
  readonly addCard: (columnId: string, title: string) => Promise<boolean>
  readonly rename: (columnId: string, name: string) => Promise<boolean>
  readonly setKind: (columnId: string, kind: ColumnKind) => void
  readonly shift: (columnId: string, by: -1 | 1) => void
  readonly remove: (columnId: string) => void
}

interface Props {
  readonly column: Column
  readonly index: number
  readonly columnCount: number
  readonly cardIds: ReadonlyArray<string>
  readonly cards: Readonly<Record<string, Card>>
  readonly sessions: Readonly<Record<string, SessionStatus>>
  readonly memberNames: ReadonlyMap<string, string>
  readonly agentIds?: ReadonlySet<string> | undefined
  readonly cardActions: CardActions
  readonly columnActions: ColumnActions
  /** The card of this column a dragged card is over, and on which side it will land. */
  readonly dropHint: DropHint | undefined
  /** A viewer's board: no column menu, no card form, cards that do not move. */
  readonly readOnly?: boolean | undefined
}

export interface DropHint {
  readonly cardId: string
  readonly side: "before" | "after"
}

export const BoardColumn = memo(function BoardColumn({
  column,
  index,
  columnCount,
  cardIds,
  cards,
  sessions,
  memberNames,
  agentIds,
  cardActions,
  columnActions,
  dropHint,
  readOnly = false
}: Props) {
  const { setNodeRef, isOver } = useDroppable({ id: column.id })
  const [renaming, setRenaming] = useState(false)
  const [adding, setAdding] = useState(false)
  const headingId = `column-${column.id}`

  const submitRename = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const name = String(new FormData(e.currentTarget).get("name") ?? "").trim()
    if (name === "" || name === column.name || (await columnActions.rename(column.id, name))) setRenaming(false)
  }

  const submitCard = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const title = String(new FormData(form).get("title") ?? "").trim()
    if (title === "") return
    if (await columnActions.addCard(column.id, title)) {
      form.reset()
      form.querySelector<HTMLTextAreaElement>("textarea")?.focus()
    }
  }

  return (
    <section className={isOver ? "column over" : "column"} aria-labelledby={headingId} data-column-id={column.id}>
      <header className="column-header">
        {renaming ? (
          <form className="rename" onSubmit={(e) => void submitRename(e)}>
            <input
              name="name"
              defaultValue={column.name}
              aria-label={`New name for column ${column.name}`}
              required
              maxLength={200}
              // biome-ignore lint/a11y/noAutofocus: the person just asked to rename this column
              autoFocus
              onKeyDown={(e) => e.key === "Escape" && setRenaming(false)}
            />
            <button type="submit" className="button small">
              Save
            </button>
            <button type="button" className="button small ghost" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <>
            <h2 id={headingId} className="column-name">
              {column.name}
            </h2>
            <span className={`column-kind kind-${column.kind}`} title="What this column holds in the workflow">
              <span className="visually-hidden">Kind: </span>
              {kindText(column.kind)}
            </span>
            <span className="count">
              {cardIds.length}
              <span className="visually-hidden"> cards</span>
            </span>
            {!readOnly && (
              <ColumnMenu
                column={column}
                first={index === 0}
                last={index === columnCount - 1}
                onRename={() => setRenaming(true)}
                actions={columnActions}
              />
            )}
          </>
        )}
      </header>
      <ul ref={setNodeRef} className="cards" aria-labelledby={headingId}>
        {cardIds.map((id) => {
          const card = cards[id]
          if (card === undefined) return null
          return (
            <BoardCard
              key={id}
              card={card}
              sessionStatus={card.claim === null ? undefined : sessions[card.claim.sessionId]}
              memberNames={memberNames}
              agentIds={agentIds}
              columnKind={column.kind}
              actions={cardActions}
              dropHint={dropHint?.cardId === id ? dropHint.side : undefined}
              readOnly={readOnly}
            />
          )
        })}
      </ul>
      {readOnly ? null : adding ? (
        <form className="add-card" onSubmit={(e) => void submitCard(e)}>
          <textarea
            name="title"
            aria-label={`Title of the new card in ${column.name}`}
            placeholder="Card title"
            required
            maxLength={500}
            rows={2}
            // biome-ignore lint/a11y/noAutofocus: the person just asked to add a card here
            autoFocus
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) {
                e.preventDefault()
                e.currentTarget.form?.requestSubmit()
              }
              if (e.key === "Escape") setAdding(false)
            }}
          />
          <div className="row">
            <button type="submit" className="button primary small">
              Add card
            </button>
            <button type="button" className="button small ghost" onClick={() => setAdding(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="add-card-button" onClick={() => setAdding(true)}>
          + Add a card<span className="visually-hidden"> to {column.name}</span>
        </button>
      )}
    </section>
  )
})

function ColumnMenu({
  column,
  first,
  last,
  onRename,
  actions
}: {
  column: Column
  first: boolean
  last: boolean
  onRename: () => void
  actions: ColumnActions
}) {
  const [open, setOpen] = useState(false)
  const act = (f: () => void) => () => {
    setOpen(false)
    f()
  }
  return (
    <div className="column-menu">
      <button
        type="button"
        className="icon-button"
        aria-label={`Actions for column ${column.name}`}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        ⋯
      </button>
      {open && (
        <fieldset className="menu" onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
          <legend className="visually-hidden">Actions for column {column.name}</legend>
          <button type="button" onClick={act(onRename)}>
            Rename
          </button>
          <button type="button" disabled={first} onClick={act(() => actions.shift(column.id, -1))}>
            Move left
          </button>
          <button type="button" disabled={last} onClick={act(() => actions.shift(column.id, 1))}>
            Move right
          </button>
          <fieldset className="menu-kinds">
            <legend>Kind</legend>
            {columnKindText.map(([kind, text]) => (
              <button
                key={kind}
                type="button"
                aria-pressed={column.kind === kind}
                disabled={column.kind === kind}
                onClick={act(() => actions.setKind(column.id, kind))}
              >
                {column.kind === kind ? "✓ " : ""}
                {text}
              </button>
            ))}
          </fieldset>
          <button type="button" className="danger" onClick={act(() => actions.remove(column.id))}>
            Delete
          </button>
        </fieldset>
      )}
    </div>
  )
}
