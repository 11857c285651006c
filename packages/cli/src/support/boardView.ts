/**
 * The board drawn for a terminal: its columns side by side, each card wrapped to its column's
 * width; stacked when the terminal is too narrow, and plain (no width, no colour) on a pipe.
 */
import { noColors, type Style, visibleLength } from "./output.ts"
import type { BoardView, Card } from "./types.ts"

const gap = " │ "
const minColumnWidth = 16

/** Words to lines of at most `width` code points; a word longer than a line is cut. */
export const wrap = (text: string, width: number): Array<string> => {
  const lines: Array<string> = []
  let line = ""
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    let w = [...word]
    while (w.length > width) {
      if (line !== "") {
        lines.push(line)
        line = ""
      }
      lines.push(w.slice(0, width).join(""))
      w = w.slice(width)
    }
    const piece = w.join("")
    if (piece === "") continue
    if (line === "") line = piece
    else if ([...line].length + 1 + w.length <= width) line += ` ${piece}`
    else {
      lines.push(line)
      line = piece
    }
  }
  if (line !== "") lines.push(line)
  return lines
}

/** At most `max` lines, the last one ending in "…" when text was cut. */
const clip = (lines: Array<string>, max: number, width: number): Array<string> => {
  if (lines.length <= max) return lines
  const kept = lines.slice(0, max)
  const last = [...kept[max - 1]]
  kept[max - 1] = `${last.length >= width ? last.slice(0, width - 1).join("") : last.join("")}…`
  return kept
}

export const priorityTag = (priority: Card["priority"], style: Style): string =>
  priority === "urgent"
    ? style.red("urgent")
    : priority === "high"
      ? style.yellow("high")
      : priority === "low"
        ? style.dim("low")
        : ""

const cardBlock = (card: Card, width: number, style: Style): Array<string> => {
  const head = `${card.ref} ${card.title}`
  const lines = clip(wrap(head, width), 3, width)
  // the ref is the first word of the first line unless it had to be cut
  if (lines[0].startsWith(`${card.ref} `) || lines[0] === card.ref)
    lines[0] = style.bold(style.cyan(card.ref)) + lines[0].slice(card.ref.length)
  const extras = [priorityTag(card.priority, style), ...card.labels.map((l) => style.magenta(`#${l.name}`))].filter(
    (s) => s !== ""
  )
  const done = card.subtasks.filter((s) => s.completed).length
  if (card.subtasks.length > 0) extras.push(style.dim(`☑ ${done}/${card.subtasks.length}`))
  if (extras.length > 0) {
    const plain = extras.join(" ")
    lines.push(
      visibleLength(plain) <= width ? plain : clip(wrap(plain.replace(/\u001b\[[0-9;]*m/g, ""), width), 1, width)[0]
    )
  }
  return lines
}

const pad = (s: string, width: number) => s + " ".repeat(Math.max(0, width - visibleLength(s)))

const cardsOf = (board: BoardView, columnId: string) =>
  board.cards.filter((c) => c.columnId === columnId).sort((a, b) => a.position - b.position)

/** One column after another: for pipes, and terminals too narrow for columns side by side. */
export const renderStacked = (board: BoardView, style: Style = noColors): string => {
  const out = [style.bold(`${board.project.name} (${board.project.refPrefix})`)]
  if (board.columns.length === 0) out.push("", "This board has no columns.")
  for (const column of board.columns) {
    const cards = cardsOf(board, column.id)
    out.push("", `${style.bold(`${column.name} (${cards.length})`)} ${style.dim(`· ${column.kind}`)}`)
    for (const card of cards) {
      const extras = [priorityTag(card.priority, style), ...card.labels.map((l) => style.magenta(`#${l.name}`))].filter(
        (s) => s !== ""
      )
      out.push(`  ${style.cyan(card.ref)}  ${card.title}${extras.length > 0 ? `  ${extras.join(" ")}` : ""}`)
    }
  }
  return out.join("\n")
}

/** Columns side by side within `width` terminal columns. */
export const renderColumns = (board: BoardView, width: number, style: Style = noColors): string => {
  const n = board.columns.length
  const columnWidth = n === 0 ? 0 : Math.floor((width - gap.length * (n - 1)) / n)
  if (n === 0 || columnWidth < minColumnWidth) return renderStacked(board, style)
  const blocks = board.columns.map((column) => {
    const cards = cardsOf(board, column.id)
    const lines = [
      style.bold(clip(wrap(`${column.name} (${cards.length})`, columnWidth), 1, columnWidth)[0] ?? ""),
      // its own line: a long name never pushes the kind out of the column's width
      style.dim(column.kind),
      style.dim("─".repeat(columnWidth))
    ]
    cards.forEach((card, i) => {
      if (i > 0) lines.push("")
      lines.push(...cardBlock(card, columnWidth, style))
    })
    return lines
  })
  const height = Math.max(...blocks.map((b) => b.length))
  const rows: Array<string> = [style.bold(`${board.project.name} (${board.project.refPrefix})`), ""]
  for (let i = 0; i < height; i++) {
    rows.push(
      blocks
        .map((b, j) => (j === n - 1 ? (b[i] ?? "") : pad(b[i] ?? "", columnWidth)))
        .join(style.dim(gap))
        .trimEnd()
    )
  }
  return rows.join("\n")
}
