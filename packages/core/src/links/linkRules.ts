/**
 * Validation of project-link fields, shared by REST, MCP tools and the CLI; the length rule is the
 * domain's (`domain/text.ts`), the one the HTTP contract checks.
 */
import { InvalidInput } from "../domain/errors.ts"
import { limits } from "../domain/limits.ts"
import { textFailure } from "../domain/text.ts"
import { checkNoNul } from "../board/cardRules.ts"

/** `value` within `max` characters (NUL is checked first, across every field). */
const tooLong = (value: string | null | undefined, field: string, max: number): InvalidInput | undefined => {
  const message = value == null ? undefined : textFailure(value, field, { max, nonBlank: false })
  return message === undefined ? undefined : new InvalidInput({ message })
}

export const checkLinkFields = (input: {
  readonly url?: string | undefined
  readonly title?: string | null | undefined
  readonly note?: string | null | undefined
  readonly tags?: ReadonlyArray<string> | undefined
  readonly reason?: string | undefined
}): InvalidInput | undefined => {
  const nul =
    checkNoNul(input.url, "url") ??
    checkNoNul(input.title, "title") ??
    checkNoNul(input.note, "note") ??
    checkNoNul(input.reason, "reason") ??
    (input.tags ?? []).map((t, i) => checkNoNul(t, `tags[${i}]`)).find((e) => e !== undefined)
  if (nul) return nul
  const long =
    tooLong(input.url, "url", limits.linkUrl) ??
    tooLong(input.title, "title", limits.linkTitle) ??
    tooLong(input.note, "note", limits.linkNote) ??
    tooLong(input.reason, "reason", limits.linkReason)
  if (long) return long
  if (input.tags !== undefined) {
    if (input.tags.length > limits.linkTags)
      return new InvalidInput({ message: `tags: at most ${limits.linkTags} tags` })
    return input.tags.map((t, i) => tooLong(t, `tags[${i}]`, limits.linkTag)).find((e) => e !== undefined)
  }
  return undefined
}
