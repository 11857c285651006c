// URLs written into card titles and descriptions, for the same-URL and
// same-host signals of the relevance heuristic.

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/gi

const count = (s: string, ch: string): number => s.split(ch).length - 1

// Prose ends sentences after URLs and Markdown wraps them in brackets; a closing
// bracket is kept only when the URL itself opened one (Wikipedia-style paths).
const trimTrailing = (url: string): string => {
  let out = url
  for (;;) {
    const last = out.at(-1)
    if (last === undefined) return out
    if (".,;:!?*_~".includes(last)) {
      out = out.slice(0, -1)
    } else if (last === ")" && count(out, "(") < count(out, ")")) {
      out = out.slice(0, -1)
    } else if (last === "]" && count(out, "[") < count(out, "]")) {
      out = out.slice(0, -1)
    } else if (last === "}" && count(out, "{") < count(out, "}")) {
      out = out.slice(0, -1)
    } else {
      return out
    }
  }
}

/** Every http(s) URL written in free text, as written (trailing punctuation trimmed). */
export const extractUrls = (text: string): Array<string> =>
  Array.from(text.matchAll(URL_IN_TEXT), (match) => trimTrailing(match[0])).filter((url) =>
    /^https?:\/\/[^/?#]/i.test(url)
  )

/** The text with its URLs blanked out, so hosts do not pass for topic words. */
export const stripUrls = (text: string): string => text.replace(URL_IN_TEXT, " ")
