import { describe, expect, it } from "vitest"
import { normalizeUrl } from "./normalizeUrl.ts"
import { compareRefs, evaluateRelevance, prepareBoardIndex, RELEVANCE_THRESHOLDS, relevanceFor } from "./relevance.ts"
import type { BoardInput, LinkInput } from "./relevance.ts"

const board: BoardInput = {
  cards: [
    { ref: "WEB-10", title: "Rate limiting for the public API", description: "Token bucket per user" },
    {
      ref: "WEB-1",
      title: "Fix login redirect loop",
      description:
        "Users get stuck after the OAuth callback. See https://GitHub.com/acme/web/issues/42/?utm_source=slack#c1."
    },
    { ref: "WEB-2", title: "Add dark mode", description: null },
    {
      ref: "WEB-3",
      title: "Search results pagination",
      description: "Cursor pagination as in [the guide](https://docs.example.com/guides/pagination/)."
    },
    {
      ref: "WEB-11",
      title: "Upgrade database driver",
      description: "postgres driver, see https://www.postgresql.org/docs"
    }
  ],
  labels: [{ name: "bug" }, { name: "Security" }, { name: "front-end" }],
  otherLinks: [
    { normalizedUrl: "https://stackoverflow.com/questions/1", host: "stackoverflow.com" },
    { normalizedUrl: "https://stackoverflow.com/questions/9", host: "stackoverflow.com" }
  ]
}

const link = (url: string, extra: Partial<LinkInput> = {}): LinkInput => {
  const normalized = normalizeUrl(url)
  if (!normalized.ok) throw new Error(normalized.error)
  return { url, normalizedUrl: normalized.url, host: normalized.host, tags: [], ...extra }
}

describe("evaluateRelevance", () => {
  it.each([
    // [case, link, relevance, score, signals]
    [
      "URL written on a card",
      link("https://github.com/acme/web/issues/42"),
      "high",
      0.966,
      ["url_match", "shared_terms"]
    ],
    [
      "card URL written with tracking, slash and fragment",
      link("https://github.com/acme/web/issues/42#top"),
      "high",
      0.966,
      ["url_match", "shared_terms"]
    ],
    [
      "URL inside a Markdown link",
      link("https://docs.example.com/guides/pagination"),
      "high",
      0.951,
      ["url_match", "shared_terms"]
    ],
    [
      "nothing shared",
      link("https://unrelated.io/recipes/banana-bread", { title: "Banana bread recipe" }),
      "none",
      0,
      []
    ],
    ["same host as stored links", link("https://stackoverflow.com/questions/2"), "low", 0.2, ["same_host"]],
    ["same host as a card URL", link("https://docs.example.com/reference"), "low", 0.3, ["same_host"]],
    ["www and bare host are one site", link("https://postgresql.org/about"), "low", 0.3, ["same_host"]],
    ["one rare shared term", link("https://blog.io/x", { title: "Dark theme tips" }), "low", 0.3, ["shared_terms"]],
    [
      "two rare shared terms",
      link("https://blog.io/x", { title: "Cursor pagination explained" }),
      "medium",
      0.51,
      ["shared_terms"]
    ],
    [
      "four rare shared terms",
      link("https://blog.io/x", { title: "OAuth login redirect loop" }),
      "high",
      0.76,
      ["shared_terms"]
    ],
    [
      "terms from the note",
      link("https://blog.io/x", { note: "How a token bucket works" }),
      "medium",
      0.51,
      ["shared_terms"]
    ],
    ["terms from the URL path", link("https://blog.io/dark-mode-in-css"), "medium", 0.51, ["shared_terms"]],
    ["a tag naming a label", link("https://blog.io/x", { tags: ["SECURITY"] }), "low", 0.3, ["shared_terms"]],
    ["a multi-word label", link("https://blog.io/x", { tags: ["frontend", "end"] }), "low", 0.3, ["shared_terms"]],
    ["plural folds onto singular", link("https://blog.io/x", { title: "Logins" }), "low", 0.3, ["shared_terms"]],
    [
      "stop words and short tokens do not count",
      link("https://blog.io/x", { title: "The to do of an API for it, by me" }),
      "low",
      0.3,
      ["shared_terms"]
    ],
    ["null title and note", link("https://blog.io/x", { title: null, note: null }), "none", 0, []]
  ] as const)("%s", (_name, input, relevance, score, signals) => {
    const result = evaluateRelevance(input, board)
    expect(result.relevance).toBe(relevance)
    expect(result.score).toBe(score)
    expect(result.evidence.map((e) => e.signal)).toEqual(signals)
  })

  it("explains a URL match with the cards that hold it", () => {
    expect(evaluateRelevance(link("https://github.com/acme/web/issues/42"), board).evidence[0]).toEqual({
      signal: "url_match",
      detail: "The same URL is written on card WEB-1",
      cards: ["WEB-1"]
    })
  })

  it("explains shared terms with cards, labels and terms", () => {
    const result = evaluateRelevance(link("https://blog.io/security/login", { title: "Rate limiting" }), board)
    expect(result.evidence).toEqual([
      {
        signal: "shared_terms",
        detail: "Shares 4 terms with 2 cards and label Security: limiting, login, rate, security",
        cards: ["WEB-10", "WEB-1"],
        terms: ["limiting", "login", "rate", "security"]
      }
    ])
  })

  it("explains a shared host with the stored links", () => {
    expect(evaluateRelevance(link("https://stackoverflow.com/questions/2"), board).evidence).toEqual([
      {
        signal: "same_host",
        detail: "Same host stackoverflow.com as 2 stored links"
      }
    ])
  })

  it("ignores the link itself among the stored links", () => {
    const self = link("https://stackoverflow.com/questions/1")
    const alone = { ...board, otherLinks: [{ normalizedUrl: self.normalizedUrl, host: self.host }] }
    expect(evaluateRelevance(self, alone)).toEqual({ score: 0, relevance: "none", evidence: [] })
  })

  it("weighs a term on every card close to nothing", () => {
    const common: BoardInput = {
      cards: Array.from({ length: 20 }, (_, i) => ({
        ref: `W-${i + 1}`,
        title: `Widget part ${i}`,
        description: null
      })),
      labels: [],
      otherLinks: []
    }
    expect(evaluateRelevance(link("https://a.io/x", { title: "widget" }), common)).toEqual({
      score: 0,
      relevance: "none",
      evidence: []
    })
  })

  it("gives the same answer whatever the card order, and from a prepared index", () => {
    const input = link("https://github.com/acme/x", { title: "login pagination driver rate", tags: ["bug"] })
    const reversed = { ...board, cards: [...board.cards].reverse() }
    const expected = evaluateRelevance(input, board)
    expect(evaluateRelevance(input, reversed)).toEqual(expected)
    expect(evaluateRelevance(input, prepareBoardIndex(board))).toEqual(expected)
  })
})

describe("thresholds", () => {
  it.each([
    [1, "high"],
    [RELEVANCE_THRESHOLDS.high, "high"],
    [0.699, "medium"],
    [RELEVANCE_THRESHOLDS.medium, "medium"],
    [0.399, "low"],
    [RELEVANCE_THRESHOLDS.low, "low"],
    [0.149, "none"],
    [0, "none"]
  ] as const)("%s -> %s", (score, relevance) => {
    expect(relevanceFor(score)).toBe(relevance)
  })
})

describe("compareRefs", () => {
  it("orders by prefix then number", () => {
    expect(["WEB-10", "API-3", "WEB-2", "WEB-1", "odd"].sort(compareRefs)).toEqual([
      "API-3",
      "WEB-1",
      "WEB-2",
      "WEB-10",
      "odd"
    ])
  })
})

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const VOCABULARY = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`)
const HOSTS = ["github.com", "docs.example.com", "www.example.org", "a.io", "b.dev"]

const randomBoard = (random: () => number, cards: number): BoardInput => {
  const word = () => VOCABULARY[Math.floor(random() ** 2 * VOCABULARY.length)]
  const words = (n: number) => Array.from({ length: n }, word).join(" ")
  const url = () => `https://${HOSTS[Math.floor(random() * HOSTS.length)]}/${word()}/${word()}`
  return {
    cards: Array.from({ length: cards }, (_, i) => ({
      ref: `P-${i + 1}`,
      title: words(5),
      description: random() < 0.2 ? null : `${words(25)} ${random() < 0.3 ? url() : ""} ${words(10)}`
    })),
    labels: Array.from({ length: 12 }, () => ({ name: word() })),
    otherLinks: Array.from({ length: 40 }, () => {
      const normalized = normalizeUrl(url())
      if (!normalized.ok) throw new Error(normalized.error)
      return { normalizedUrl: normalized.url, host: normalized.host }
    })
  }
}

const randomLink = (random: () => number, b: BoardInput): LinkInput => {
  const card = b.cards[Math.floor(random() * b.cards.length)]
  const fromCard = (card.description ?? card.title)
    .split(" ")
    .slice(0, Math.floor(random() * 12))
    .join(" ")
  const host = HOSTS[Math.floor(random() * HOSTS.length)]
  return link(`https://${host}/${fromCard.split(" ").slice(0, 2).join("-")}`, {
    title: random() < 0.8 ? fromCard : null,
    note: random() < 0.5 ? card.title : null,
    tags: b.labels.slice(0, Math.floor(random() * 3)).map((l) => l.name)
  })
}

describe("properties", () => {
  it("score stays in [0, 1] with 3 decimals and agrees with the rating", () => {
    const random = mulberry32(7)
    for (let round = 0; round < 20; round++) {
      const index = prepareBoardIndex(randomBoard(random, 1 + Math.floor(random() * 60)))
      const b = randomBoard(random, 30)
      for (let i = 0; i < 50; i++) {
        const result = evaluateRelevance(randomLink(random, b), i % 2 === 0 ? index : b)
        expect(result.score).toBeGreaterThanOrEqual(0)
        expect(result.score).toBeLessThanOrEqual(1)
        expect(Math.round(result.score * 1000) / 1000).toBe(result.score)
        expect(result.relevance).toBe(relevanceFor(result.score))
        expect(result.evidence.length === 0).toBe(result.score === 0)
      }
    }
  })
})
