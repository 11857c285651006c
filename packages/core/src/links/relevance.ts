import { hostKey, prepareBoardIndex, storedUrlKey } from "./boardIndex.ts"
import type { BoardIndex, BoardInput } from "./boardIndex.ts"
import { termSet, urlPathTerms } from "./terms.ts"
import type { Relevance } from "../domain/enums.ts"
import type { Evidence } from "../domain/projectLink.ts"

export { compareRefs, hostKey, prepareBoardIndex } from "./boardIndex.ts"
export type { BoardCardInput, BoardIndex, BoardInput } from "./boardIndex.ts"

export type { Evidence, Relevance }

export interface LinkInput {
  readonly url: string
  readonly normalizedUrl: string
  readonly host: string
  readonly title?: string | null
  readonly note?: string | null
  readonly tags: ReadonlyArray<string>
}

export interface RelevanceResult {
  /** In [0, 1], rounded to 3 decimals. */
  readonly score: number
  readonly relevance: Relevance
  /** In signal order url_match, same_host, shared_terms; empty when score is 0. */
  readonly evidence: ReadonlyArray<Evidence>
}

/**
 * Lowest rounded score for each rating; below `low` the link rates `none`.
 * Chosen with the signal weights below so that:
 * - a URL written on a card is enough for `high` on its own;
 * - a shared host alone is `low` (popular hosts hold every topic);
 * - one shared rare term is `low`, two make `medium`, four make `high`;
 * - terms that appear on most cards barely count.
 */
export const RELEVANCE_THRESHOLDS = { high: 0.7, medium: 0.4, low: 0.15 } as const

/** Contribution of each signal to the score, combined as a noisy OR. */
export const SIGNAL_WEIGHTS = {
  urlMatch: 0.9,
  sameHostAsCard: 0.3,
  sameHostAsLink: 0.2,
  /** Per shared term, scaled by the term's rarity in (0, 1]. */
  sharedTerm: 0.3
} as const

const MAX_LISTED = 10

// A term on nearly every card (weight under this) tells nothing about a link,
// and listing it as evidence would only be noise.
const MIN_TERM_WEIGHT = 0.05

export const relevanceFor = (score: number): Relevance =>
  score >= RELEVANCE_THRESHOLDS.high
    ? "high"
    : score >= RELEVANCE_THRESHOLDS.medium
      ? "medium"
      : score >= RELEVANCE_THRESHOLDS.low
        ? "low"
        : "none"

const listed = (items: ReadonlyArray<string>): string =>
  items.length <= MAX_LISTED
    ? items.join(", ")
    : `${items.slice(0, MAX_LISTED).join(", ")} and ${items.length - MAX_LISTED} more`

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`

// Inverse document frequency over cards, scaled so a term on a single card
// weighs 1 and a term on every card weighs close to 0. Label names are the
// board's own chosen vocabulary, so a label term always weighs 1.
const termWeight = (index: BoardIndex, term: string): number => {
  if (index.labelTerms.has(term)) return 1
  const df = index.postings.get(term)?.length ?? 0
  if (df === 0) return 0
  const n = index.refs.length
  return Math.log((n + 1) / df) / Math.log(n + 1)
}

interface Signal {
  readonly strength: number
  readonly evidence: Evidence
}

const urlMatch = (index: BoardIndex, link: LinkInput): Signal | undefined => {
  const cards = index.urlCards.get(link.normalizedUrl)
  if (cards === undefined) return undefined
  const refs = cards.map((n) => index.refs[n])
  return {
    strength: SIGNAL_WEIGHTS.urlMatch,
    evidence: {
      signal: "url_match",
      detail: `The same URL is written on ${refs.length === 1 ? "card" : "cards"} ${listed(refs)}`,
      cards: refs
    }
  }
}

const sameHost = (index: BoardIndex, link: LinkInput): Signal | undefined => {
  const key = hostKey(link.host)
  const urlCards = new Set(index.urlCards.get(link.normalizedUrl) ?? [])
  // A card already counted for the exact URL would be counted twice here.
  const refs = (index.hostCards.get(key) ?? []).filter((n) => !urlCards.has(n)).map((n) => index.refs[n])
  const links = (index.linksOnHost.get(key) ?? 0) - (index.storedUrls.get(storedUrlKey(key, link.normalizedUrl)) ?? 0)
  if (refs.length === 0 && links <= 0) return undefined
  const parts = [
    ...(links > 0 ? [plural(links, "stored link")] : []),
    ...(refs.length > 0 ? [`URLs on ${refs.length === 1 ? "card" : "cards"} ${listed(refs)}`] : [])
  ]
  return {
    strength: refs.length > 0 ? SIGNAL_WEIGHTS.sameHostAsCard : SIGNAL_WEIGHTS.sameHostAsLink,
    evidence: {
      signal: "same_host",
      detail: `Same host ${key} as ${parts.join(" and ")}`,
      ...(refs.length > 0 ? { cards: refs } : {})
    }
  }
}

const sharedTerms = (index: BoardIndex, link: LinkInput): Signal | undefined => {
  const linkTerms = termSet(link.title, link.note, ...link.tags)
  for (const term of urlPathTerms(link.normalizedUrl)) linkTerms.add(term)

  const matched: Array<{ term: string; weight: number }> = []
  const cardWeight = new Map<number, number>()
  const labels = new Set<string>()
  for (const term of linkTerms) {
    const weight = termWeight(index, term)
    if (weight < MIN_TERM_WEIGHT) continue
    matched.push({ term, weight })
    for (const n of index.postings.get(term) ?? []) cardWeight.set(n, (cardWeight.get(n) ?? 0) + weight)
    for (const name of index.labelTerms.get(term) ?? []) labels.add(name)
  }
  if (matched.length === 0) return undefined

  matched.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1))
  const topCards = [...cardWeight]
    .sort(([na, wa], [nb, wb]) => wb - wa || na - nb)
    .slice(0, MAX_LISTED)
    .map(([n]) => index.refs[n])
  const terms = matched.slice(0, MAX_LISTED).map((m) => m.term)
  const where = [
    ...(cardWeight.size > 0 ? [plural(cardWeight.size, "card")] : []),
    ...(labels.size > 0 ? [`${labels.size === 1 ? "label" : "labels"} ${[...labels].sort().join(", ")}`] : [])
  ]
  const strength = 1 - matched.reduce((acc, m) => acc * (1 - SIGNAL_WEIGHTS.sharedTerm * m.weight), 1)
  return {
    strength,
    evidence: {
      signal: "shared_terms",
      detail: `Shares ${plural(matched.length, "term")} with ${where.join(" and ")}: ${listed(matched.map((m) => m.term))}`,
      ...(topCards.length > 0 ? { cards: topCards } : {}),
      terms
    }
  }
}

const isIndex = (board: BoardInput | BoardIndex): board is BoardIndex => "kind" in board && board.kind === "BoardIndex"

/**
 * Rates a link against a board. Pass a prepared index when rating many links
 * against one board; a plain board is indexed on every call.
 */
export const evaluateRelevance = (link: LinkInput, board: BoardInput | BoardIndex): RelevanceResult => {
  const index = isIndex(board) ? board : prepareBoardIndex(board)
  const signals = [urlMatch(index, link), sameHost(index, link), sharedTerms(index, link)].filter(
    (signal): signal is Signal => signal !== undefined
  )
  const raw = 1 - signals.reduce((acc, signal) => acc * (1 - signal.strength), 1)
  const score = Math.min(1, Math.max(0, Math.round(raw * 1000) / 1000))
  return {
    score,
    relevance: relevanceFor(score),
    evidence: score === 0 ? [] : signals.map((signal) => signal.evidence)
  }
}
