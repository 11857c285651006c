import { charCount } from "../domain/limits.ts"
import type { ParseResult } from "./types.ts"

// Turns a raw command into text the grammar rules can match with plain regular
// expressions. Quoted spans are swapped for opaque placeholders first, so that
// a title like "Add to cart" cannot be split at its "to".

export const MAX_COMMAND_LENGTH = 1000

export interface Quote {
  /** Text between the quotes. */
  readonly inner: string
  /** The span as typed, quotes included (after curly quotes were straightened). */
  readonly raw: string
}

export interface Prepared {
  /** Placeholders for quotes, whitespace collapsed, courtesy words and end punctuation gone. */
  readonly text: string
  /** Same, but end punctuation kept: it belongs to free text such as a description. */
  readonly textWithPunctuation: string
  readonly quotes: ReadonlyArray<Quote>
}

// Private-use characters never typed by people, and not whitespace, so a
// placeholder is always one \S+ token.
const OPEN = "\uE000"
const CLOSE = "\uE001"
export const placeholder = (index: number): string => `${OPEN}${index}${CLOSE}`
export const PLACEHOLDER = /\uE000(\d+)\uE001/g
export const ONLY_PLACEHOLDER = /^\uE000(\d+)\uE001$/

const straightenQuotes = (text: string): string =>
  text.replace(/[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g, '"').replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'")

// Single quotes double as apostrophes ("don't"), so they only count as quotes
// at word edges; double quotes always do.
const QUOTED = /"([^"]*)"|(?<=^|[\s(:,])'([^'\n]+)'(?=$|[\s.,!?;:)])/g

const LEADING_COURTESY =
  /^(?:(?:please|pls|plz|kindly|hey|hi|hello|ok|okay|so)\b[,!]?\s*|(?:can|could|would|will)\s+you\s+|(?:i\s+want\s+to|i'd\s+like\s+to|i\s+would\s+like\s+to|let's|lets)\s+)/i
const TRAILING_COURTESY = /[,\s]+(?:please|pls|plz|thanks|thank\s+you|thx)[.!]*$/i
const END_PUNCTUATION = /[\s.!?;,]+$/

const stripCourtesy = (text: string): string => {
  let out = text
  for (;;) {
    const next = out.replace(LEADING_COURTESY, "").replace(TRAILING_COURTESY, "").trim()
    if (next === out) return out
    out = next
  }
}

/** Checks the length and prepares; the error is a sentence without example. */
export const prepare = (command: string): Prepared | { readonly error: string } => {
  if (command.trim() === "") return { error: "The command is empty." }
  if (charCount(command) > MAX_COMMAND_LENGTH) {
    return { error: `The command is ${charCount(command)} characters long; the limit is ${MAX_COMMAND_LENGTH}.` }
  }
  const quotes: Array<Quote> = []
  const swapped = straightenQuotes(command).replace(QUOTED, (raw, double?: string, single?: string) => {
    quotes.push({ inner: (double ?? single ?? "").replace(/\s+/g, " ").trim(), raw })
    return placeholder(quotes.length - 1)
  })
  // Newlines survive (a description may have paragraphs); other runs of
  // whitespace become one space.
  const collapsed = swapped
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .trim()
  const textWithPunctuation = stripCourtesy(collapsed)
  const text = stripCourtesy(textWithPunctuation.replace(END_PUNCTUATION, ""))
  return { text, textWithPunctuation, quotes }
}

/**
 * One grammar rule: undefined when the command is not of its kind, an error
 * when it is but something is missing or wrong.
 */
export type Rule = (p: Prepared) => ParseResult | undefined
