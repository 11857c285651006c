import { extractUrls, stripUrls } from "./extractUrls.ts"
import { normalizeUrl } from "./normalizeUrl.ts"
import { termSet, urlPathTerms } from "./terms.ts"

export interface BoardCardInput {
  readonly ref: string
  readonly title: string
  readonly description: string | null
}

export interface BoardInput {
  readonly cards: ReadonlyArray<BoardCardInput>
  readonly labels: ReadonlyArray<{ readonly name: string }>
  /** The project's other stored links (the link under evaluation may be among them). */
  readonly otherLinks: ReadonlyArray<{ readonly normalizedUrl: string; readonly host: string }>
}

/**
 * Everything the relevance heuristic needs from a board, computed once so that
 * rating a link costs a few map look-ups instead of re-reading every card.
 */
export interface BoardIndex {
  readonly kind: "BoardIndex"
  /** Card refs in display order (see compareRefs); card numbers below index into it. */
  readonly refs: ReadonlyArray<string>
  /** Term to the ascending numbers of the cards whose text holds it. */
  readonly postings: ReadonlyMap<string, ReadonlyArray<number>>
  /** Term to the names of the labels that hold it. */
  readonly labelTerms: ReadonlyMap<string, ReadonlyArray<string>>
  /** Normalised URL written on cards to the ascending card numbers. */
  readonly urlCards: ReadonlyMap<string, ReadonlyArray<number>>
  /** Host key (see hostKey) of URLs written on cards to the ascending card numbers. */
  readonly hostCards: ReadonlyMap<string, ReadonlyArray<number>>
  /** Site (host key) to how many of the project's stored links are on it. */
  readonly linksOnHost: ReadonlyMap<string, number>
  /**
   * A stored link's site and normalised URL (`storedUrlKey`) to how many times it is stored: a
   * link under evaluation that is itself stored is not counted on its own site. Empty when
   * `linksOnHost` already leaves it out.
   */
  readonly storedUrls: ReadonlyMap<string, number>
}

/** `www.example.com` and `example.com` are one site as far as relevance goes. */
export const hostKey = (host: string): string => host.toLowerCase().replace(/^www\./, "")

/** The lower-case hosts whose `hostKey` is `site`: the site and `www.` before it (`www.x` itself is the site `x`). */
export const siteHosts = (site: string): ReadonlyArray<string> =>
  site.startsWith("www.") ? [`www.${site}`] : [site, `www.${site}`]

const REF = /^(.*?)(\d+)$/

/** WEB-2 before WEB-10, then by prefix; plain string order as the last resort. */
export const compareRefs = (a: string, b: string): number => {
  const ma = REF.exec(a)
  const mb = REF.exec(b)
  if (ma !== null && mb !== null) {
    if (ma[1] !== mb[1]) return ma[1] < mb[1] ? -1 : 1
    const diff = Number(ma[2]) - Number(mb[2])
    if (diff !== 0) return diff
  }
  return a < b ? -1 : a > b ? 1 : 0
}

const push = <K, V>(map: Map<K, Array<V>>, key: K, value: V): void => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else if (list[list.length - 1] !== value) list.push(value)
}

export const prepareBoardIndex = (board: BoardInput): BoardIndex => {
  const cards = [...board.cards].sort((a, b) => compareRefs(a.ref, b.ref))
  const postings = new Map<string, Array<number>>()
  const urlCards = new Map<string, Array<number>>()
  const hostCards = new Map<string, Array<number>>()

  cards.forEach((card, n) => {
    const text = card.description === null ? card.title : `${card.title}\n${card.description}`
    const terms = termSet(stripUrls(text))
    for (const written of extractUrls(text)) {
      const normalized = normalizeUrl(written)
      if (!normalized.ok) continue
      push(urlCards, normalized.url, n)
      push(hostCards, hostKey(normalized.host), n)
      for (const term of urlPathTerms(normalized.url)) terms.add(term)
    }
    for (const term of terms) push(postings, term, n)
  })

  const labelTerms = new Map<string, Array<string>>()
  const labelNames = board.labels.map((label) => label.name).sort()
  for (const name of labelNames) {
    for (const term of termSet(name)) push(labelTerms, term, name)
  }

  const linksOnHost = new Map<string, number>()
  const storedUrls = new Map<string, number>()
  for (const link of board.otherLinks) {
    const key = hostKey(link.host)
    linksOnHost.set(key, (linksOnHost.get(key) ?? 0) + 1)
    const stored = storedUrlKey(key, link.normalizedUrl)
    storedUrls.set(stored, (storedUrls.get(stored) ?? 0) + 1)
  }
  return {
    kind: "BoardIndex",
    refs: cards.map((card) => card.ref),
    postings,
    labelTerms,
    urlCards,
    hostCards,
    linksOnHost,
    storedUrls
  }
}

/** The key of `storedUrls`: a site (`hostKey`) and a normalised URL. */
export const storedUrlKey = (site: string, normalizedUrl: string): string => `${site} ${normalizedUrl}`

/**
 * The same index with the stored links counted by the caller: `count` links on `host`'s site,
 * the link under evaluation not among them (ProjectLinks counts them in SQL, so a submit never
 * reads the project's links). The card and label part is the costly one to build, so a caller
 * may keep it and only swap the count, which changes with every submit. An index made so rates
 * that one link: it knows no other site's links.
 */
export const withLinksOnHost = (index: BoardIndex, host: string, count: number): BoardIndex => ({
  ...index,
  linksOnHost: new Map([[hostKey(host), count]]),
  storedUrls: new Map()
})
