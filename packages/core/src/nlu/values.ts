import { ONLY_PLACEHOLDER, PLACEHOLDER } from "./prepare.ts"
import type { Prepared } from "./prepare.ts"
import type { CardRefOrTitle, Priority } from "./types.ts"

export const REF = /^[A-Za-z][A-Za-z0-9]*-\d+$/

export const PRIORITY_WORDS = "low|lowest|minor|medium|med|normal|high|highest|urgent|critical"

const PRIORITY_SYNONYMS: Record<string, Priority> = {
  low: "low",
  lowest: "low",
  minor: "low",
  medium: "medium",
  med: "medium",
  normal: "medium",
  high: "high",
  highest: "high",
  urgent: "urgent",
  critical: "urgent"
}

export const parsePriority = (word: string): Priority | undefined =>
  Object.hasOwn(PRIORITY_SYNONYMS, word.toLowerCase()) ? PRIORITY_SYNONYMS[word.toLowerCase()] : undefined

/**
 * Free text as the user meant it: a fully quoted value loses its quotes,
 * quotes inside a longer value are put back as typed.
 */
export const restore = (p: Prepared, text: string): string => {
  const trimmed = text.trim()
  const only = ONLY_PLACEHOLDER.exec(trimmed)
  if (only !== null) return p.quotes[Number(only[1])].inner
  return trimmed.replace(PLACEHOLDER, (_m, i: string) => p.quotes[Number(i)].raw)
}

/** A short name (title, label, column, subtask): restored, stray quotes dropped. */
export const name = (p: Prepared, text: string): string =>
  restore(p, text)
    .replace(/^["']+|["']+$/g, "")
    .replace(/\s+/g, " ")
    .trim()

// "card WEB-4", "the card "Fix login"", "#WEB-4". A bare "task"/"ticket" word is
// only dropped before a ref or a quote, since titles may start with it.
const stripCardWord = (text: string): string => {
  const t = text.trim().replace(/^#(?=[A-Za-z])/, "")
  const strong = /^(?:the\s+)?(?:card|task|ticket|issue|story)\s+(#?[A-Za-z][A-Za-z0-9]*-\d+|\uE000\d+\uE001)$/i.exec(t)
  if (strong !== null) return strong[1].replace(/^#/, "")
  return t.replace(/^(?:the\s+)?card\s+/i, "")
}

/** The card is named unambiguously: a ref or a quoted title. */
export const isStrongCard = (text: string): boolean => {
  const t = stripCardWord(text)
  return REF.test(t) || ONLY_PLACEHOLDER.test(t)
}

export const parseCard = (p: Prepared, text: string): CardRefOrTitle | undefined => {
  const t = stripCardWord(text)
  if (REF.test(t)) return { ref: t.toUpperCase() }
  if (/^(?:the\s+|this\s+|that\s+|a\s+)?(?:cards?|tasks?|tickets?|issues?|stor(?:y|ies)|it)$/i.test(t)) return undefined
  const title = name(p, t)
  if (title === "") return undefined
  return REF.test(title) ? { ref: title.toUpperCase() } : { title }
}

export const sameCard = (a: CardRefOrTitle, b: CardRefOrTitle): boolean =>
  "ref" in a && "ref" in b
    ? a.ref === b.ref
    : "title" in a && "title" in b && a.title.toLowerCase() === b.title.toLowerCase()

const LEADING_CARD =
  /^((?:the\s+)?(?:card|task|ticket|issue|story)\s+)?(#?[A-Za-z][A-Za-z0-9]*-\d+|\uE000\d+\uE001)(?:'s)?(?=$|[\s:,])/i

/** A ref or quoted title at the start of `text`, and what follows it. */
export const leadingCard = (
  p: Prepared,
  text: string
): { readonly card: CardRefOrTitle; readonly cardText: string; readonly rest: string } | undefined => {
  const m = LEADING_CARD.exec(text.trim())
  if (m === null) return undefined
  const cardText = m[2].replace(/^#/, "")
  const card = parseCard(p, cardText)
  if (card === undefined) return undefined
  return {
    card,
    cardText,
    rest: text
      .trim()
      .slice(m[0].length)
      .replace(/^\s*[:,]?\s*/, "")
  }
}

/** "bug, backend and ui" as three names, first spelling of each kept. */
export const parseList = (p: Prepared, text: string): Array<string> => {
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const part of text.split(/\s*,\s*(?:and\s+)?|\s+(?:and|&)\s+/i)) {
    const item = name(p, part)
    if (item !== "" && !seen.has(item.toLowerCase())) {
      seen.add(item.toLowerCase())
      out.push(item)
    }
  }
  return out
}

export interface Split {
  readonly left: string
  readonly right: string
}

export interface SplitOptions {
  /** Which occurrence of the marker to split at when no side is unambiguous. */
  readonly prefer: "first" | "last"
  /** The side that names a card; a split leaving a ref or quote on that side wins. */
  readonly card?: "left" | "right"
  /**
   * After choosing the last marker, step back over markers right before it, so
   * that "in To Do" and "to In Progress" keep the column name whole.
   */
  readonly backoff?: boolean
}

/** Splits at one of the marker words (a regex alternation), both sides non-empty. */
export const splitAt = (text: string, markers: string, options: SplitOptions): Split | undefined => {
  const found = Array.from(text.matchAll(new RegExp(`\\s+(?:${markers})(?=\\s)`, "gi")), (m) => ({
    start: m.index,
    end: m.index + m[0].length
  }))
  const candidates = found
    .map((at) => ({ at, left: text.slice(0, at.start).trim(), right: text.slice(at.end).trim() }))
    .filter((c) => c.left !== "" && c.right !== "")
  if (candidates.length === 0) return undefined
  if (options.card !== undefined) {
    const side = options.card
    const strong = candidates.filter((c) => isStrongCard(side === "left" ? c.left : c.right))
    if (strong.length > 0) {
      const pick = side === "left" ? strong[0] : strong[strong.length - 1]
      return { left: pick.left, right: pick.right }
    }
  }
  let i = options.prefer === "first" ? 0 : candidates.length - 1
  if (options.backoff === true) {
    while (i > 0 && text.slice(candidates[i - 1].at.end, candidates[i].at.start).trim() === "") i--
  }
  return { left: candidates[i].left, right: candidates[i].right }
}

/** "the Done column", "column Done", "Done list" → "Done". */
export const columnName = (p: Prepared, text: string): string =>
  name(
    p,
    text
      .replace(/^(?:the\s+)?(?:column|list|lane)\s*:?\s+/i, "")
      .replace(/^the\s+/i, "")
      .replace(/\s+(?:column|list|lane)$/i, "")
  )
