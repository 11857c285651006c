import { charCount } from "../domain/limits.ts"
import { isTrackingParam } from "./trackingParams.ts"

/** SPEC "Limits": project link url max 2048 chars. */
export const MAX_URL_LENGTH = 2048

export type NormalizeUrlResult =
  | {
      readonly ok: true
      /** Canonical form: two inputs naming the same page give the same string. */
      readonly url: string
      /** Lower-case hostname without port, e.g. `example.com` or `[::1]`. */
      readonly host: string
    }
  | { readonly ok: false; readonly error: string }

const EXAMPLE = "https://example.com/page"

// "." is left encoded: decoding `%2E` could create a dot segment that the next
// parse would resolve, and then normalising twice would not be stable.
const UNRESERVED = /^[A-Za-z0-9\-_~]$/

// RFC 3986 section 6.2.2: escapes of unreserved characters and the case of hex
// digits carry no meaning, so `%7e`, `%7E` and `~` all become `~`.
const normalizeEscapes = (s: string): string =>
  s.replace(/%([0-9A-Fa-f]{2})/g, (_match, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16))
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`
  })

const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

// The raw query is kept as written instead of going through URLSearchParams,
// which would rewrite `%20` as `+` and turn a bare `flag` into `flag=`.
const normalizeQuery = (search: string): string => {
  const pairs = search
    .replace(/^\?/, "")
    .split("&")
    .filter((pair) => pair !== "")
    .map((pair) => {
      const escaped = normalizeEscapes(pair)
      const eq = escaped.indexOf("=")
      return eq === -1
        ? { key: escaped, value: "", raw: escaped }
        : { key: escaped.slice(0, eq), value: escaped.slice(eq + 1), raw: escaped }
    })
    .filter((pair) => !isTrackingParam(pair.key))
  pairs.sort((a, b) => compareCodeUnits(a.key, b.key) || compareCodeUnits(a.value, b.value))
  return pairs.map((pair) => pair.raw).join("&")
}

const shorten = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}...` : s)

// A bare `example.com/page` is the commonest mistake; say what would work.
const looksLikeMissingScheme = (s: string): boolean => /^[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?([/?#].*)?$/i.test(s)

const parse = (input: string): URL | string => {
  try {
    return new URL(input)
  } catch {
    const hint = looksLikeMissingScheme(input)
      ? `Did you mean https://${shorten(input)}?`
      : `Give an absolute http or https URL, e.g. ${EXAMPLE}.`
    return `"${shorten(input)}" is not a valid absolute URL. ${hint}`
  }
}

/**
 * Canonical form of a page URL, so that two submissions of the same page
 * compare equal as strings. The WHATWG parser already lower-cases scheme and
 * host, drops default ports and resolves dot segments; on top of that the
 * fragment, tracking parameters and trailing slashes go, escapes are
 * normalised and query parameters are sorted by key then value. The root path
 * is written as nothing at all: `https://a.com/` gives `https://a.com`.
 */
export const normalizeUrl = (input: string): NormalizeUrlResult => {
  const trimmed = input.trim()
  if (trimmed === "") {
    return { ok: false, error: `The URL is empty. Give an absolute http or https URL, e.g. ${EXAMPLE}.` }
  }
  if (charCount(trimmed) > MAX_URL_LENGTH) {
    return {
      ok: false,
      error: `The URL is ${charCount(trimmed)} characters long; the limit is ${MAX_URL_LENGTH}.`
    }
  }
  const url = parse(trimmed)
  if (typeof url === "string") return { ok: false, error: url }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      ok: false,
      error:
        `Only http and https URLs are accepted, not "${url.protocol.replace(/:$/, "")}". ` +
        `Give a URL like ${EXAMPLE}.`
    }
  }

  // `example.com.` is the fully qualified spelling of `example.com`.
  const host = url.hostname.replace(/\.+$/, "") || url.hostname
  const port = url.port === "" ? "" : `:${url.port}`
  const credentials =
    url.username === "" && url.password === "" ? "" : `${url.username}${url.password === "" ? "" : `:${url.password}`}@`
  const path = normalizeEscapes(url.pathname).replace(/\/+$/, "")
  const query = normalizeQuery(url.search)

  return {
    ok: true,
    url: `${url.protocol}//${credentials}${host}${port}${path}${query === "" ? "" : `?${query}`}`,
    host
  }
}
