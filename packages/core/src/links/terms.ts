// Tokeniser shared by everything that compares free text with board content.
// Both sides must go through the same function or the sets never meet.

export const MIN_TERM_LENGTH = 3

// Longer runs are hashes, tokens or base64 blobs, not words anyone searches for.
const MAX_TERM_LENGTH = 40

/**
 * English function words plus the vocabulary every URL and every board shares
 * (`https`, `www`, `html`, `card`, `todo`): matching on them says nothing about
 * the topic. Checked before and after stemming.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  "about",
  "above",
  "after",
  "again",
  "against",
  "all",
  "also",
  "and",
  "any",
  "are",
  "because",
  "been",
  "before",
  "being",
  "below",
  "between",
  "both",
  "but",
  "can",
  "could",
  "did",
  "does",
  "doing",
  "down",
  "during",
  "each",
  "else",
  "etc",
  "even",
  "ever",
  "few",
  "for",
  "from",
  "further",
  "get",
  "gets",
  "got",
  "had",
  "has",
  "have",
  "having",
  "her",
  "here",
  "hers",
  "him",
  "his",
  "how",
  "however",
  "into",
  "its",
  "itself",
  "just",
  "like",
  "make",
  "many",
  "may",
  "might",
  "more",
  "most",
  "much",
  "must",
  "need",
  "needs",
  "not",
  "now",
  "off",
  "once",
  "one",
  "only",
  "other",
  "our",
  "ours",
  "out",
  "over",
  "own",
  "per",
  "same",
  "see",
  "shall",
  "she",
  "should",
  "since",
  "some",
  "still",
  "such",
  "than",
  "that",
  "the",
  "their",
  "theirs",
  "them",
  "then",
  "there",
  "these",
  "they",
  "this",
  "those",
  "through",
  "too",
  "under",
  "until",
  "upon",
  "use",
  "used",
  "using",
  "very",
  "via",
  "was",
  "way",
  "were",
  "what",
  "when",
  "where",
  "which",
  "while",
  "who",
  "whom",
  "why",
  "will",
  "with",
  "within",
  "without",
  "would",
  "yet",
  "you",
  "your",
  "yours",
  // URL furniture
  "http",
  "https",
  "www",
  "com",
  "org",
  "net",
  "html",
  "htm",
  "php",
  "asp",
  "aspx",
  "jsp",
  "index",
  "amp",
  // Board furniture
  "card",
  "cards",
  "todo",
  "done",
  "task",
  "tasks",
  "item",
  "items",
  "new"
])

const SPLIT = /[^\p{L}\p{N}]+/u
const DIGITS_ONLY = /^\p{N}+$/u

// A light plural fold so `tests` meets `test` and `queries` meets `query`,
// without a real stemmer's surprises (`status`, `process`, `analysis` stay put;
// `processes` meets `process`).
const stem = (word: string): string => {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`
  if (word.endsWith("sses")) return word.slice(0, -2)
  if (word.length >= 4 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is"))
    return word.slice(0, -1)
  return word
}

const toTerm = (raw: string): string | undefined => {
  if (raw.length > MAX_TERM_LENGTH || DIGITS_ONLY.test(raw) || STOP_WORDS.has(raw)) return undefined
  const term = stem(raw)
  if (term.length < MIN_TERM_LENGTH || STOP_WORDS.has(term)) return undefined
  return term
}

/** Terms of a text in order of appearance, repeats kept. */
export const tokenize = (text: string): Array<string> => {
  const terms: Array<string> = []
  for (const raw of text.normalize("NFKC").toLowerCase().split(SPLIT)) {
    const term = toTerm(raw)
    if (term !== undefined) terms.push(term)
  }
  return terms
}

/** Distinct terms of any number of texts; null and undefined are skipped. */
export const termSet = (...texts: ReadonlyArray<string | null | undefined>): Set<string> => {
  const set = new Set<string>()
  for (const text of texts) {
    if (text) for (const term of tokenize(text)) set.add(term)
  }
  return set
}

const safeDecode = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "))
  } catch {
    return s
  }
}

/**
 * Terms of a URL's path, the part that names the topic
 * (`/blog/oauth-login-flow` gives `blog`, `oauth`, `login`, `flow`).
 * The host is matched by its own signal, so it is left out here.
 */
export const urlPathTerms = (url: string): Array<string> => {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url)
  return match === null ? [] : tokenize(safeDecode(match[1]))
}
