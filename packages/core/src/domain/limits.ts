/** Field limits of SPEC.md and the ones it leaves to us, in one place for contract and core. */
/**
 * The length of text as every limit counts it: Unicode code points, as JSON Schema's maxLength
 * in the OpenAPI document and PostgreSQL's char_length do (an emoji is one character, not the two
 * UTF-16 units of `.length`).
 */
export const charCount = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Characters in an HTTP header value. Node hands headers over byte by byte (latin1), so a
 * UTF-8 `é` arrives as two characters; when the bytes are valid UTF-8 they are counted as the
 * characters they encode. The value itself is kept as it arrived, so distinct byte strings stay
 * distinct (an idempotency key is compared byte for byte).
 */
export const headerCharCount = (value: string): number => {
  if (!/[\u0080-\u00ff]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return charCount(value)
  try {
    return charCount(utf8.decode(Buffer.from(value, "latin1")))
  } catch {
    return charCount(value)
  }
}

export const limits = {
  cardTitle: 500,
  cardDescription: 10_000,
  name: 200,
  searchQuery: 200,
  searchDefaultLimit: 50,
  searchMaxLimit: 200,
  linkUrl: 2048,
  linkTitle: 200,
  linkNote: 2000,
  linkReason: 2000,
  linkTags: 20,
  linkTag: 50,
  intakeTitle: 500,
  intakeDescription: 10_000,
  idempotencyKey: 200,
  nluCommand: 1000,
  passwordMin: 8,
  passwordMax: 128,
  bodyBytes: 1024 * 1024,
  commentBody: 10_000,
  commentPageDefault: 50,
  commentPageMax: 500,
  /** A card's assignees, at most (a set of people, not a mailing list). */
  assignees: 50
} as const
