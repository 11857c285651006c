/** Validation of project-link fields, shared by REST, MCP tools and the CLI. */
import { InvalidInput } from "../domain/errors.ts"
import { charCount, limits } from "../domain/limits.ts"
import { checkNoNul } from "../board/cardRules.ts"

const tooLong = (field: string, max: number) =>
  new InvalidInput({ message: `${field}: must be at most ${max} characters` })

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
  if (input.url !== undefined && charCount(input.url) > limits.linkUrl) return tooLong("url", limits.linkUrl)
  if (input.title != null && charCount(input.title) > limits.linkTitle) return tooLong("title", limits.linkTitle)
  if (input.note != null && charCount(input.note) > limits.linkNote) return tooLong("note", limits.linkNote)
  if (input.reason !== undefined && charCount(input.reason) > limits.linkReason)
    return tooLong("reason", limits.linkReason)
  if (input.tags !== undefined) {
    if (input.tags.length > limits.linkTags)
      return new InvalidInput({ message: `tags: at most ${limits.linkTags} tags` })
    const long = input.tags.findIndex((t) => charCount(t) > limits.linkTag)
    if (long >= 0) return tooLong(`tags[${long}]`, limits.linkTag)
  }
  return undefined
}
