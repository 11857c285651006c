import { describe, expect, it } from "vitest"
import { MAX_URL_LENGTH, normalizeUrl } from "./normalizeUrl.ts"
import { isTrackingParam } from "./trackingParams.ts"

const norm = (input: string): string => {
  const result = normalizeUrl(input)
  if (!result.ok) throw new Error(`expected ${input} to normalise, got: ${result.error}`)
  return result.url
}

describe("normalizeUrl output", () => {
  it.each([
    ["HTTPS://Example.COM/Path", "https://example.com/Path"],
    ["https://example.com:443/a", "https://example.com/a"],
    ["http://example.com:80/a", "http://example.com/a"],
    ["http://example.com:443/a", "http://example.com:443/a"],
    ["https://example.com:8443/a/", "https://example.com:8443/a"],
    ["https://example.com/", "https://example.com"],
    ["https://example.com", "https://example.com"],
    ["https://example.com/a/b/", "https://example.com/a/b"],
    ["https://example.com/a//", "https://example.com/a"],
    ["https://example.com/#top", "https://example.com"],
    ["https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"],
    ["https://example.com/a?a=2&a=1", "https://example.com/a?a=1&a=2"],
    ["https://example.com/a?utm_source=x&utm_medium=y&id=3", "https://example.com/a?id=3"],
    ["https://example.com/?fbclid=abc", "https://example.com"],
    ["https://example.com/a?&&b=1&", "https://example.com/a?b=1"],
    ["https://example.com/a?flag", "https://example.com/a?flag"],
    ["https://example.com/a?q=a+b&r=a%20b", "https://example.com/a?q=a+b&r=a%20b"],
    ["https://example.com/%7euser/", "https://example.com/~user"],
    ["https://example.com/a%2fb", "https://example.com/a%2Fb"],
    ["https://example.com/a/./b/../c", "https://example.com/a/c"],
    ["https://user:secret@Example.com/", "https://user:secret@example.com"],
    ["https://user@example.com/", "https://user@example.com"],
    ["https://example.com./a", "https://example.com/a"],
    ["https://bücher.de/", "https://xn--bcher-kva.de"],
    ["https://[::1]:8080/", "https://[::1]:8080"],
    ["  https://example.com/a  ", "https://example.com/a"],
    ["https://github.com/org/repo?ref=main", "https://github.com/org/repo?ref=main"]
  ])("%s -> %s", (input, expected) => {
    expect(norm(input)).toBe(expected)
  })

  it("reports the host without port or trailing dot", () => {
    expect(normalizeUrl("https://WWW.Example.com.:8080/x")).toEqual({
      ok: true,
      url: "https://www.example.com:8080/x",
      host: "www.example.com"
    })
  })
})

describe("normalizeUrl equivalences", () => {
  it.each([
    ["https://a.com/", "https://a.com"],
    ["https://a.com/docs/", "https://a.com/docs"],
    ["https://a.com/docs#intro", "https://a.com/docs"],
    ["https://a.com/docs?utm_source=news&utm_campaign=x", "https://a.com/docs"],
    ["https://a.com/docs?UTM_Source=news", "https://a.com/docs"],
    ["https://a.com/docs?gclid=1&dclid=2&gbraid=3&wbraid=4&msclkid=5", "https://a.com/docs"],
    ["https://a.com/docs?mc_cid=1&mc_eid=2&_hsenc=3&_hsmi=4&igshid=5&yclid=6&ref_src=7", "https://a.com/docs"],
    ["https://a.com/docs?b=1&a=2", "https://a.com/docs?a=2&b=1"],
    ["https://a.com/docs?utm_medium=x&b=1&fbclid=y&a=2#f", "https://a.com/docs/?a=2&b=1"],
    ["HTTPS://A.COM/docs", "https://a.com/docs"],
    ["https://a.com:443/docs", "https://a.com/docs"],
    ["http://a.com:80/docs", "http://a.com/docs"],
    ["https://a.com/%7Edocs", "https://a.com/~docs"],
    ["https://a.com/a%2fb", "https://a.com/a%2Fb"],
    ["https://a.com/x/../docs", "https://a.com/docs"],
    ["https://a.com/docs?", "https://a.com/docs"]
  ])("%s == %s", (a, b) => {
    expect(norm(a)).toBe(norm(b))
  })
})

describe("normalizeUrl non-equivalences", () => {
  it.each([
    ["http://a.com/docs", "https://a.com/docs"],
    ["https://www.a.com/docs", "https://a.com/docs"],
    ["https://a.com/Docs", "https://a.com/docs"],
    ["https://a.com/docs?page=2", "https://a.com/docs"],
    ["https://a.com/docs?page=2", "https://a.com/docs?page=3"],
    ["https://a.com/docs?ref=main", "https://a.com/docs"],
    ["https://a.com:8080/docs", "https://a.com/docs"],
    ["https://a.com/docs/a", "https://a.com/docs"],
    ["https://user@a.com/docs", "https://a.com/docs"],
    ["https://a.com/a%2Fb", "https://a.com/a/b"],
    ["https://a.com/docs?q=A", "https://a.com/docs?q=a"]
  ])("%s != %s", (a, b) => {
    expect(norm(a)).not.toBe(norm(b))
  })
})

describe("normalizeUrl errors", () => {
  it.each([
    ["", /empty/],
    ["   ", /empty/],
    ["ftp://a.com/file", /Only http and https URLs are accepted, not "ftp"/],
    ["mailto:someone@a.com", /Only http and https/],
    ["javascript:alert(1)", /Only http and https/],
    ["file:///etc/passwd", /Only http and https/],
    ["example.com/page", /Did you mean https:\/\/example\.com\/page\?/],
    ["not a url", /not a valid absolute URL.*https:\/\/example\.com\/page/],
    ["https://", /not a valid absolute URL/],
    ["http://exa mple.com", /not a valid absolute URL/],
    [`https://a.com/${"x".repeat(MAX_URL_LENGTH)}`, /limit is 2048/]
  ])("%j is rejected", (input, message) => {
    const result = normalizeUrl(input)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toMatch(message)
  })
})

describe("trackingParams", () => {
  it.each([
    ["utm_source", true],
    ["utm_anything_new", true],
    ["UTM_Campaign", true],
    ["fbclid", true],
    ["_hsenc", true],
    ["ref", false],
    ["page", false],
    ["q", false]
  ])("%s -> %s", (name, expected) => {
    expect(isTrackingParam(name)).toBe(expected)
  })
})

// Deterministic stand-in for a property-testing library (fast-check is not installed).
const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const randomUrl = (random: () => number): string => {
  const pick = <T>(items: ReadonlyArray<T>): T => items[Math.floor(random() * items.length)]
  const times = (max: number, f: () => string): Array<string> =>
    Array.from({ length: Math.floor(random() * (max + 1)) }, f)
  const segment = () => pick(["a", "B", "docs", "%7e", "%2f", "%2E", ".", "..", "", "x y", "ü", "%41", "a+b", "%zz"])
  const param = () =>
    `${pick(["a", "b", "utm_source", "fbclid", "Q", "ref", "%61", "x y"])}${pick([
      "",
      "=",
      "=1",
      "=2",
      "=%20",
      "=+",
      "=%7E"
    ])}`
  const scheme = pick(["http", "https", "HTTP", "HtTpS"])
  const credentials = pick(["", "", "user@", "u:p@"])
  const host = pick(["example.com", "EXAMPLE.com", "a.b.c", "www.example.com.", "127.0.0.1", "[::1]", "bücher.de"])
  const port = pick(["", "", ":80", ":443", ":8080"])
  const path =
    times(4, segment)
      .map((s) => `/${s}`)
      .join("") + pick(["", "/", "//"])
  const query = pick(["", "?", `?${times(4, param).join("&")}`, `?${times(3, param).join("&")}&`])
  const fragment = pick(["", "#", "#top", "#a/b?c"])
  return `${scheme}://${credentials}${host}${port}${path}${query}${fragment}`
}

describe("normalizeUrl is idempotent", () => {
  it("over 1000 generated URLs", () => {
    const random = mulberry32(20240607)
    for (let i = 0; i < 1000; i++) {
      const input = randomUrl(random)
      const once = normalizeUrl(input)
      expect(once.ok, input).toBe(true)
      if (!once.ok) continue
      const twice = normalizeUrl(once.url)
      expect(twice, input).toEqual(once)
    }
  })
})
