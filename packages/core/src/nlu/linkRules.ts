import { fail } from "./errors.ts"
import type { Prepared, Rule } from "./prepare.ts"
import type { LinkType, ParseResult } from "./types.ts"
import { isStrongCard, parseCard, sameCard, splitAt } from "./values.ts"

// A relation phrase between two cards. `reversed`: the card after the phrase is
// the link's source ("A is blocked by B" stores B blocks A).
interface Relation {
  readonly phrase: string
  readonly linkType: LinkType
  readonly reversed: boolean
}

// Longer phrases first: "is blocked by" must win over "blocks"-like prefixes.
const SENTENCE_RELATIONS: ReadonlyArray<Relation> = [
  {
    phrase: "is\\s+blocked\\s+(?:by|on)|depends\\s+on|is\\s+waiting\\s+(?:for|on)|waits\\s+(?:for|on)",
    linkType: "blocks",
    reversed: true
  },
  { phrase: "blocks|is\\s+blocking", linkType: "blocks", reversed: false },
  { phrase: "is\\s+duplicated\\s+by", linkType: "duplicates", reversed: true },
  {
    phrase: "duplicates|is\\s+(?:a\\s+)?(?:duplicate|dupe)\\s+of|is\\s+the\\s+same\\s+as",
    linkType: "duplicates",
    reversed: false
  },
  { phrase: "is\\s+(?:the\\s+)?parent\\s+of", linkType: "is_part_of", reversed: true },
  {
    phrase: "is\\s+(?:a\\s+)?part\\s+of|belongs\\s+to|is\\s+(?:a\\s+)?child\\s+of",
    linkType: "is_part_of",
    reversed: false
  },
  {
    phrase: "relates\\s+to|is\\s+related\\s+to|is\\s+linked\\s+to|is\\s+connected\\s+to",
    linkType: "relates_to",
    reversed: false
  }
]

// After "mark A as ...", and after "link A to B as ...".
const AS_RELATIONS: ReadonlyArray<Relation> = [
  { phrase: "blocked\\s+by|dependent\\s+on|depending\\s+on|waiting\\s+(?:for|on)", linkType: "blocks", reversed: true },
  { phrase: "blocking|blocker\\s+(?:of|for|to)|blocks|blocker", linkType: "blocks", reversed: false },
  { phrase: "duplicated\\s+by", linkType: "duplicates", reversed: true },
  { phrase: "(?:duplicate|dupe|dup|copy)\\s+of|duplicates?|dupe", linkType: "duplicates", reversed: false },
  { phrase: "parent\\s+of|parent", linkType: "is_part_of", reversed: true },
  { phrase: "part\\s+of|child\\s+of|sub-?card\\s+of|part|child|is_part_of", linkType: "is_part_of", reversed: false },
  { phrase: "related\\s+to|relates?\\s+to|related|relates_to|linked\\s+to", linkType: "relates_to", reversed: false }
]

const linkIntent = (
  p: Prepared,
  leftText: string,
  rightText: string,
  relation: Omit<Relation, "phrase">
): ParseResult => {
  const left = parseCard(p, leftText)
  const right = parseCard(p, rightText)
  if (left === undefined || right === undefined) return fail("link_cards", "To link cards, name both of them.")
  if (sameCard(left, right)) return fail("link_cards", "A card cannot be linked to itself.")
  const [card, target] = relation.reversed ? [right, left] : [left, right]
  return { ok: true, intent: { type: "link_cards", card, target, linkType: relation.linkType } }
}

const LINK = /^(?:link|connect|relate|associate)\s+([\s\S]+)$/i
const AS_TAIL = new RegExp(`\\s+as\\s+(?:an?\\s+|the\\s+)?(${AS_RELATIONS.map((r) => r.phrase).join("|")})$`, "i")

const relationFor = (relations: ReadonlyArray<Relation>, phrase: string): Relation | undefined =>
  relations.find((r) => new RegExp(`^(?:${r.phrase})$`, "i").test(phrase))

export const linkVerb: Rule = (p) => {
  const m = LINK.exec(p.text)
  if (m === null) return undefined
  let body = m[1]
  let relation: Omit<Relation, "phrase"> = { linkType: "relates_to", reversed: false }
  const tail = AS_TAIL.exec(body)
  if (tail !== null) {
    relation = relationFor(AS_RELATIONS, tail[1].replace(/\s+/g, " ")) ?? relation
    body = body.slice(0, tail.index)
  }
  const split = splitAt(body, "to|with|and", { prefer: "first", card: "left" })
  return split === undefined
    ? fail("link_cards", "To link cards, name both of them.")
    : linkIntent(p, split.left, split.right, relation)
}

const MARK_AS = new RegExp(
  `^(?:mark|flag|set)\\s+(.+?)\\s+as\\s+(?:an?\\s+|the\\s+)?(${AS_RELATIONS.map((r) => r.phrase).join("|")})\\s+([\\s\\S]+)$`,
  "i"
)
const MAKE = /^make\s+(.+?)\s+(?:(?:a\s+)?(part|child)\s+of|(block)|(depend)\s+on)\s+([\s\S]+)$/i

export const markOrMakeLink: Rule = (p) => {
  const mark = MARK_AS.exec(p.text)
  if (mark !== null) {
    const relation = relationFor(AS_RELATIONS, mark[2].replace(/\s+/g, " "))
    if (relation !== undefined) return linkIntent(p, mark[1], mark[3], relation)
  }
  const make = MAKE.exec(p.text)
  if (make === null) return undefined
  if (make[2] !== undefined) return linkIntent(p, make[1], make[5], { linkType: "is_part_of", reversed: false })
  return linkIntent(p, make[1], make[5], { linkType: "blocks", reversed: make[4] !== undefined })
}

/** "WEB-4 blocks WEB-5": a sentence with a card on at least one side named unambiguously. */
export const linkSentence: Rule = (p) => {
  const phrases = SENTENCE_RELATIONS.map((r) => r.phrase).join("|")
  for (const m of p.text.matchAll(new RegExp(`\\s+(${phrases})\\s+`, "gi"))) {
    const left = p.text.slice(0, m.index).trim()
    const right = p.text.slice(m.index + m[0].length).trim()
    if (left === "" || right === "" || (!isStrongCard(left) && !isStrongCard(right))) continue
    const relation = relationFor(SENTENCE_RELATIONS, m[1])
    if (relation !== undefined) return linkIntent(p, left, right, relation)
  }
  return undefined
}
