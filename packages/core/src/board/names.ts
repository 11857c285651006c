/**
 * Names as people and agents type them: matching a typed name against names on the board, and
 * the wording of the messages that list what was found. Shared by the resolver (Lookups.ts),
 * the natural-language commands and the MCP tools.
 */

/** How names compare: case-insensitively, with runs of whitespace as one space. */
export const normalizeName = (name: string): string => name.replace(/\s+/g, " ").trim().toLowerCase()

export type Match<T> =
  | { readonly kind: "one"; readonly item: T }
  | { readonly kind: "none" }
  /** Several exact matches, or no exact match and several partial ones. */
  | { readonly kind: "many"; readonly items: ReadonlyArray<T>; readonly exact: boolean }

/**
 * An exact (normalized) match first; failing that, a match containing the wanted text. One
 * result wins only when it is the only one at its level.
 */
export const matchByName = <T>(items: ReadonlyArray<T>, wanted: string, nameOf: (item: T) => string): Match<T> => {
  const w = normalizeName(wanted)
  if (w === "") return { kind: "none" }
  const exact = items.filter((item) => normalizeName(nameOf(item)) === w)
  if (exact.length === 1) return { kind: "one", item: exact[0]! }
  if (exact.length > 1) return { kind: "many", items: exact, exact: true }
  const partial = items.filter((item) => normalizeName(nameOf(item)).includes(w))
  if (partial.length === 1) return { kind: "one", item: partial[0]! }
  if (partial.length > 1) return { kind: "many", items: partial, exact: false }
  return { kind: "none" }
}

const QUOTED_MAX = 100

/**
 * A name as it appears in a message: in double quotes, escaped like JSON, and cut after 100
 * characters so that a huge value is not echoed back whole.
 */
export const quote = (text: string): string => {
  const chars = Array.from(text)
  return JSON.stringify(chars.length > QUOTED_MAX ? `${chars.slice(0, QUOTED_MAX).join("")}…` : text)
}

/** "a, b and c"; the first `max` items, then how many more. */
export const listOf = (items: ReadonlyArray<string>, max = 10): string => {
  const shown = items.slice(0, max)
  const more = items.length - shown.length
  if (more > 0) return `${shown.join(", ")} and ${more} more`
  return shown.length <= 1 ? shown.join("") : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`
}

/** `WEB-3 "Fix login"` */
export const cardLabel = (card: { readonly ref: string; readonly title: string }): string =>
  `${card.ref} ${quote(card.title)}`
