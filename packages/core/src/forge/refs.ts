/**
 * Card refs in a forge's text (issue 31): `WEB-12`, any case, as a whole word, of one project's
 * prefix only (refs are per project, so another project's `API-3` never links). A ref right after
 * a closing word (`close`, `closes`, `closed`, `fix`, `fixes`, `fixed`, `resolve`, `resolves`,
 * `resolved`, optionally with a colon) marks close intent; a bare mention only links. In a branch
 * name `web-12-login` names WEB-12 (the dash after the number ends the word).
 */

const CLOSING_WORDS = "close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved"

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

export interface RefMention {
  /** The ref as the project writes it, upper case: `WEB-12`. */
  readonly ref: string
  readonly closes: boolean
}

// a word character is a letter, a digit or `_` (so `xWEB-12`, `WEB-123` and `WEB-12_` are not WEB-12)
const mentionPattern = (prefix: string) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}_])(?:(${CLOSING_WORDS}):?\\s+)?(${escapeRegExp(prefix)}-(\\d{1,9}))(?![\\p{L}\\p{N}_])`,
    "giu"
  )

/** The refs of project `prefix` that `text` names, each once; `closes` when any mention of it closes. */
export const mentionsIn = (prefix: string, text: string | null | undefined): ReadonlyArray<RefMention> => {
  if (text === null || text === undefined || text === "" || prefix === "") return []
  const found = new Map<string, boolean>()
  for (const m of text.matchAll(mentionPattern(prefix))) {
    // the closing word must itself be a whole word: "prefix WEB-12" does not close
    const start = m.index ?? 0
    const before = start === 0 ? "" : text[start - 1]!
    const closes = m[1] !== undefined && !/[\p{L}\p{N}_]/u.test(before)
    const ref = `${prefix.toUpperCase()}-${Number(m[3])}`
    found.set(ref, (found.get(ref) ?? false) || closes)
  }
  return [...found].map(([ref, closes]) => ({ ref, closes }))
}

/** Several texts' mentions merged (a pull request's branch, title and body); a branch never closes. */
export const mergeMentions = (...lists: ReadonlyArray<ReadonlyArray<RefMention>>): ReadonlyArray<RefMention> => {
  const found = new Map<string, boolean>()
  for (const list of lists) for (const m of list) found.set(m.ref, (found.get(m.ref) ?? false) || m.closes)
  return [...found].map(([ref, closes]) => ({ ref, closes }))
}

/** The refs a branch name names (`web-12-login`, `feature/WEB-12`): never close intent. */
export const branchMentions = (prefix: string, branch: string | null | undefined): ReadonlyArray<RefMention> =>
  mentionsIn(prefix, branch).map((m) => ({ ref: m.ref, closes: false }))
