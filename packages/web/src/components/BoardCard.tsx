/**
 * One card on the board. Memoised: it renders again only when its own card object, its agent
 * session's status or the members change, not when another card moves (1,000 cards stay fast).
 *
 * The card is a drag handle (mouse, touch, and keyboard: Space picks it up, arrows move it,
 * Space drops, Escape cancels) and opens the card panel on click or Enter. For people who do
 * not drag at all, Alt+Arrow keys move it one step, and its actions menu has the same moves.
 */
import { useDraggable } from "@dnd-kit/core"
import { type KeyboardEvent, memo, useEffect, useRef, useState } from "react"
import type { Direction, SessionStatus } from "../lib/boardState.ts"
import { type ColumnKind, isOverdue } from "../lib/columnKind.ts"
import { initials } from "../lib/session.ts"
import type { Card } from "../types.ts"
import { ActorName } from "./ActorName.tsx"

export type { Direction }

export interface CardActions {
  readonly open: (cardId: string) => void
  readonly move: (cardId: string, direction: Direction) => void
  /** Which moves are possible for the card now (for its menu). */
  readonly canMove: (cardId: string) => Readonly<Record<Direction, boolean>>
}

const arrowDirections: Record<string, Direction> = {
  ArrowLeft: "left",
  ArrowRight: "right",
  ArrowUp: "up",
  ArrowDown: "down"
}

export const statusText: Record<SessionStatus, string> = {
  active: "active",
  awaitingInput: "awaiting input",
  error: "error",
  complete: "complete",
  released: "released",
  stale: "stale"
}

const dueFormat = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" })

interface Props {
  readonly card: Card
  readonly sessionStatus: SessionStatus | undefined
  readonly memberNames: ReadonlyMap<string, string>
  /** The agent members' ids: their avatars carry the agent mark. */
  readonly agentIds?: ReadonlySet<string> | undefined
  /** The kind of the card's column: a card in a `done` column is never shown overdue. */
  readonly columnKind: ColumnKind
  readonly actions: CardActions
  /** While another card is dragged over this one: the side it will land on. */
  readonly dropHint: "before" | "after" | undefined
  /** A viewer's board: the card opens, and neither drags nor moves nor offers its menu. */
  readonly readOnly?: boolean | undefined
}

export const BoardCard = memo(function BoardCard({
  card,
  sessionStatus,
  memberNames,
  agentIds,
  columnKind,
  actions,
  dropHint,
  readOnly = false
}: Props) {
  // draggable only: the columns are the drop targets and the board works out the place from
  // the cards' boxes (pages/Board.tsx `landing`), so a drag renders only the cards it changes
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, isDragging } = useDraggable({
    id: card.id,
    disabled: readOnly
  })

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // while the card is being dragged its keys belong to the drag (Enter drops it)
    if (isDragging) return
    const direction = arrowDirections[e.key]
    if (e.altKey && direction !== undefined && !readOnly) {
      e.preventDefault()
      actions.move(card.id, direction)
      return
    }
    if (e.key === "Enter" && !e.altKey) {
      e.preventDefault()
      actions.open(card.id)
      return
    }
    if (!readOnly) listeners?.onKeyDown?.(e)
  }

  return (
    <li
      ref={setNodeRef}
      className={`card${isDragging ? " dragging" : ""}${dropHint === undefined ? "" : ` drop-${dropHint}`}`}
      data-card-id={card.id}
    >
      {/* biome-ignore lint/a11y/useSemanticElements: a <button> would turn the Space that picks the card up into a click on its release */}
      <div
        ref={setActivatorNodeRef}
        {...attributes}
        {...(readOnly ? {} : listeners)}
        role="button"
        tabIndex={0}
        onKeyDown={onKeyDown}
        onClick={() => actions.open(card.id)}
        className="card-handle"
        data-card-handle={card.id}
        aria-roledescription="card"
        aria-keyshortcuts={readOnly ? undefined : "Alt+ArrowLeft Alt+ArrowRight Alt+ArrowUp Alt+ArrowDown"}
      >
        <CardFace
          card={card}
          sessionStatus={sessionStatus}
          memberNames={memberNames}
          agentIds={agentIds}
          columnKind={columnKind}
        />
      </div>
      {!readOnly && <CardMenu card={card} actions={actions} />}
    </li>
  )
})

/** What a card shows; also the picture that follows the pointer while dragging. */
export function CardFace({
  card,
  sessionStatus,
  memberNames,
  agentIds,
  columnKind
}: {
  card: Card
  sessionStatus: SessionStatus | undefined
  memberNames: ReadonlyMap<string, string>
  agentIds?: ReadonlySet<string> | undefined
  /** The kind of the card's column: a card in a `done` column is never shown overdue. */
  columnKind?: ColumnKind | undefined
}) {
  const done = card.subtasks.filter((s) => s.completed).length
  const due = card.dueAt === null ? null : new Date(card.dueAt)
  const overdue = isOverdue(card.dueAt, columnKind, Date.now())
  return (
    <>
      <span className="card-title">{card.title}</span>
      {card.labels.length > 0 && (
        <span className="card-labels">
          {card.labels.map((l) => (
            <span
              key={l.id}
              className="label"
              style={l.color === null ? undefined : ({ "--label": l.color } as React.CSSProperties)}
            >
              {l.name}
            </span>
          ))}
        </span>
      )}
      {card.claim !== null && (
        <span
          className={`claim claim-${sessionStatus ?? "active"}`}
          title={`Claimed until ${new Date(card.claim.leaseExpiresAt).toLocaleTimeString()}`}
        >
          <span className="visually-hidden">Claimed by </span>
          <ActorName actor={card.claim.actor} members={memberNames} />
          {sessionStatus !== undefined && ` · ${statusText[sessionStatus]}`}
        </span>
      )}
      <span className="card-meta">
        <span className="ref">{card.ref}</span>
        <span className={`priority priority-${card.priority}`}>{card.priority}</span>
        {card.subtasks.length > 0 && (
          <span className="subtasks" title={`${done} of ${card.subtasks.length} subtasks done`}>
            ☑ {done}/{card.subtasks.length}
          </span>
        )}
        {card.shippedTo === null && card.pullRequestMark !== null && (
          <span
            className={`pr-mark pr-mark-${card.pullRequestMark}`}
            title={pullRequestMarkTitle[card.pullRequestMark]}
          >
            <span className="visually-hidden">Pull requests: </span>
            {pullRequestMarkText[card.pullRequestMark]}
          </span>
        )}
        {card.shippedTo !== null && (
          <span
            className="shipped"
            title={`Shipped to ${card.shippedTo}${card.shippedAt === null ? "" : ` on ${new Date(card.shippedAt).toLocaleString()}`}`}
          >
            shipped
          </span>
        )}
        {due !== null && (
          <span className={overdue ? "due overdue" : "due"} title={`Due ${due.toLocaleString()}`}>
            {dueFormat.format(due)}
          </span>
        )}
        {card.assigneeIds.length > 0 && (
          <span className="assignees">
            {card.assigneeIds.slice(0, 3).map((id) => {
              const name = memberNames.get(id) ?? "Member"
              // an agent member is never shown as a person: its avatar is marked and says so
              const agent = agentIds?.has(id) === true
              return (
                <span
                  key={id}
                  className={agent ? "avatar agent-avatar" : "avatar"}
                  title={agent ? `${name} (agent)` : name}
                  data-agent={agent ? "" : undefined}
                >
                  {initials(name)}
                </span>
              )
            })}
            {card.assigneeIds.length > 3 && <span className="avatar">+{card.assigneeIds.length - 3}</span>}
          </span>
        )}
      </span>
    </>
  )
}

const moveLabels: ReadonlyArray<[Direction, string]> = [
  ["left", "Move left"],
  ["right", "Move right"],
  ["up", "Move up"],
  ["down", "Move down"]
]

/** The card's actions: open it, or move it one step, without dragging. */
function CardMenu({ card, actions }: { card: Card; actions: CardActions }) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLFieldSetElement>(null)

  useEffect(() => {
    if (!open) return
    menu.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus()
    const close = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && e.target !== button.current) setOpen(false)
    }
    document.addEventListener("pointerdown", close)
    return () => document.removeEventListener("pointerdown", close)
  }, [open])

  const possible = open ? actions.canMove(card.id) : undefined
  return (
    <>
      <button
        ref={button}
        type="button"
        className="card-menu-button"
        aria-label={`Actions for ${card.ref}`}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        ⋯
      </button>
      {open && possible !== undefined && (
        <fieldset
          ref={menu}
          className="card-menu"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              setOpen(false)
              button.current?.focus()
            }
          }}
        >
          <legend className="visually-hidden">Actions for {card.ref}</legend>
          <button
            type="button"
            onClick={() => {
              setOpen(false)
              actions.open(card.id)
            }}
          >
            Open
          </button>
          {moveLabels.map(([direction, label]) => (
            <button
              key={direction}
              type="button"
              disabled={!possible[direction]}
              onClick={() => {
                setOpen(false)
                actions.move(card.id, direction)
              }}
            >
              {label}
            </button>
          ))}
        </fieldset>
      )}
    </>
  )
}

type PullRequestMark = NonNullable<Card["pullRequestMark"]>

/** The board card's compact mark of its linked pull requests (issue 31); "shipped" shows over it. */
const pullRequestMarkText: Record<PullRequestMark, string> = {
  open: "PR open",
  merged: "merged",
  checks_failing: "checks failing"
}

const pullRequestMarkTitle: Record<PullRequestMark, string> = {
  open: "A linked pull request is open",
  merged: "A linked pull request is merged, not yet shipped",
  checks_failing: "Checks are failing on a linked pull request"
}
